import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createHost, type Host } from '../../app/host/host.js';
import { tempDir, filesUnder, reasonOf } from '../support/host-fixture.js';
import { ManualClock } from '../support/manual-clock.js';
import { filesHolding } from '../support/files-holding.js';
import { startOAuthTestServers, type OAuthTestServers } from '../support/oauth-test-servers.js';

const HOUR = 3_600_000;

/** A key pair as a person has it: the private key in PEM as pasted, the public key registered at the sign-in service. */
function keyPair(kind: 'ec-p256' | 'rsa', privateFormat: 'pkcs8' | 'legacy' = 'pkcs8') {
  const { privateKey, publicKey } =
    kind === 'ec-p256'
      ? generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
      : generateKeyPairSync('rsa', { modulusLength: 2048 });
  const type = privateFormat === 'pkcs8' ? 'pkcs8' : kind === 'rsa' ? 'pkcs1' : 'sec1';
  return {
    privatePem: privateKey.export({ type, format: 'pem' }).toString(),
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString()
  };
}

/** The base64 body of a PEM: what would show if any part of the key went out. */
function keyBody(pem: string): string {
  return pem
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('-----'))
    .join('');
}

/**
 * Sign-in without a browser with a private key in place of a secret (the client credentials
 * extension's `private_key_jwt`, RFC 7523 §2.2), through the host API against a local
 * authorization server that checks each assertion's signature with the public key registered for
 * the client, its iss/sub, aud and exp (test/support/client-assertion.ts).
 */
describe('OAuth sign-in without a browser with a private key (private_key_jwt)', () => {
  let servers: OAuthTestServers;
  let data: ReturnType<typeof tempDir>;
  let host: Host;
  const clock = new ManualClock(Date.now());
  const ec = keyPair('ec-p256');
  const rsa = keyPair('rsa', 'legacy');
  const stranger = keyPair('ec-p256');

  before(async () => {
    servers = await startOAuthTestServers({ clientCredentials: true });
    servers.registerClient({ clientId: 'signer', publicKey: ec.publicPem });
    servers.registerClient({ clientId: 'rsa-signer', publicKey: rsa.publicPem });
    servers.registerClient({ clientId: 'other-key', publicKey: ec.publicPem });
    data = tempDir('taskdesk-oauth-jwt-');
    const http = (id: string) => ({ id, name: id, transport: { type: 'http' as const, url: servers.mcpUrl } });
    host = createHost({ dataDir: data.dir, autoConnect: false, clock, servers: [http('rsa'), http('wrong-key')] });
    // Added as the person adds one, so that servers.json is written.
    await host.call('servers.add', http('protected'));
  });

  after(async () => {
    await host?.close();
    await servers?.close();
    data?.remove();
  });

  const whoami = async (serverId: string): Promise<unknown> => {
    const outcome = await host.call('tools.call', { serverId, name: 'whoami', arguments: {} });
    assert.equal(outcome.type, 'result');
    const result = outcome.type === 'result' ? outcome.result : undefined;
    const text = (result?.content as Array<{ type: string; text?: string }> | undefined)?.[0]?.text;
    return JSON.parse(text ?? 'null');
  };

  it('connects with the private key: ready, calls go with the client token, the key itself never sent', async () => {
    await host.call('auth.setClient', {
      serverId: 'protected',
      clientId: 'signer',
      clientCredentials: true,
      privateKey: { pem: ec.privatePem, algorithm: 'ES256' }
    });
    const view = await host.call('servers.connect', { serverId: 'protected' });
    assert.equal(view.state.status, 'ready', reasonOf(view));
    assert.equal(servers.clientCredentialsGrants, 1, 'one token, for one signed assertion');
    assert.equal(servers.signIns, 0, 'no sign-in page');
    assert.deepEqual(await whoami('protected'), { subject: 'signer' });
    const auth = view.state.auth;
    assert.equal(auth?.status, 'signed-in');
    assert.equal(auth?.clientCredentials, true);
    assert.equal(auth?.registeredClientId, 'signer');
    assert.equal(servers.requestsCarrying(keyBody(ec.privatePem).slice(0, 40)), 0, 'no part of the key went out');
    const signedIn = (await host.call('audit.read', { serverId: 'protected' })).filter(
      (entry) => entry.type === 'server.signed-in'
    );
    assert.deepEqual(
      signedIn.map((entry) => entry.detail),
      [{ issuer: servers.issuer, browser: false }]
    );
  });

  it('signs a new assertion for a new token once the one in hand is past its expiry', async () => {
    const grants = servers.clientCredentialsGrants;
    await clock.advance(HOUR + 1_000);
    // The server takes no assertion twice (jti): a second token needs a newly signed one.
    assert.deepEqual(await whoami('protected'), { subject: 'signer' });
    assert.equal(servers.clientCredentialsGrants, grants + 1);
  });

  it('signs out: the token is revoked with a signed assertion, and connecting signs in again', async () => {
    const revoked = servers.assertedRevocations;
    const view = await host.call('auth.signOut', { serverId: 'protected' });
    assert.equal(view.state.auth?.status, 'signed-out');
    assert.deepEqual(view.state.auth?.revocation, { outcome: 'revoked' });
    assert.equal(servers.revocations.at(-1)?.clientId, 'signer');
    assert.equal(servers.assertedRevocations, revoked + 1, 'the revocation request carried a verified assertion');
    const again = await host.call('servers.connect', { serverId: 'protected' });
    assert.equal(again.state.status, 'ready', reasonOf(again));
    assert.equal(again.state.auth?.status, 'signed-in');
  });

  it('takes an RSA key pasted as PKCS#1 (BEGIN RSA PRIVATE KEY) for RS256', async () => {
    assert.match(rsa.privatePem, /^-----BEGIN RSA PRIVATE KEY-----/);
    await host.call('auth.setClient', {
      serverId: 'rsa',
      clientId: 'rsa-signer',
      clientCredentials: true,
      privateKey: { pem: rsa.privatePem, algorithm: 'RS256' }
    });
    const view = await host.call('servers.connect', { serverId: 'rsa' });
    assert.equal(view.state.status, 'ready', reasonOf(view));
    assert.deepEqual(await whoami('rsa'), { subject: 'rsa-signer' });
  });

  it('says in plain words that the sign-in service refused a key that is not the registered one', async () => {
    const grants = servers.clientCredentialsGrants;
    await host.call('auth.setClient', {
      serverId: 'wrong-key',
      clientId: 'other-key',
      clientCredentials: true,
      privateKey: { pem: stranger.privatePem, algorithm: 'ES256' }
    });
    const view = await host.call('servers.connect', { serverId: 'wrong-key' });
    assert.equal(view.state.status, 'failed');
    assert.match(
      reasonOf(view),
      /The sign-in service did not accept the client other-key \(invalid_client: The assertion's signature does not match the key registered for the client\)\. Check its client ID, private key and the key's algorithm, and that it may sign in without a browser there\.$/
    );
    assert.equal(view.state.status === 'failed' && view.state.failedFor, undefined, 'not a browser sign-in to make');
    assert.equal(servers.clientCredentialsGrants, grants, 'no token');
  });

  it('refuses, in words, a key it cannot read or that does not fit the algorithm, and a secret with a key', async () => {
    const set = (privateKey: { pem: string; algorithm: 'ES256' | 'RS256' }, clientSecret?: string) =>
      host.call('auth.setClient', {
        serverId: 'wrong-key',
        clientId: 'other-key',
        clientCredentials: true,
        privateKey,
        ...(clientSecret !== undefined && { clientSecret })
      });
    await assert.rejects(
      set({ pem: ec.privatePem, algorithm: 'RS256' }),
      /The private key is an EC key \(prime256v1\), which cannot sign with RS256\. Choose the algorithm the key was made for\./
    );
    await assert.rejects(
      set({ pem: 'not a key', algorithm: 'ES256' }),
      /The private key could not be read\. Paste it in PEM/
    );
    await assert.rejects(set({ pem: ec.publicPem, algorithm: 'ES256' }), /The private key could not be read/);
    await assert.rejects(
      set({ pem: ec.privatePem, algorithm: 'ES256' }, 'a-secret'),
      /Give the client secret or a private key, not both/
    );
    await assert.rejects(
      host.call('auth.setClient', {
        serverId: 'wrong-key',
        clientId: 'other-key',
        privateKey: { pem: ec.privatePem, algorithm: 'ES256' }
      }),
      /A private key is used only to sign in without a browser/
    );
  });

  it('keeps the keys in the key store only (0600), never in servers.json, the audit log or events', async () => {
    const bodies = [ec, rsa, stranger].map((pair) => keyBody(pair.privatePem).slice(0, 40));
    for (const body of bodies) {
      const holding = (await filesHolding(data.dir, (text) => text.includes(body))).map((file) =>
        path.join(data.dir, file)
      );
      assert.ok(holding.length <= 1, `one file at most holds a key: ${holding.join(', ')}`);
      for (const file of holding) {
        assert.notEqual(path.basename(file), 'servers.json');
        assert.equal(fs.statSync(file).mode & 0o777, 0o600);
      }
    }
    const keyFiles = await filesHolding(data.dir, (text) => text.includes(bodies[0]!));
    assert.equal(keyFiles.length, 1, 'the saved key is in the key store');
    const serversFile = filesUnder(data.dir).find((file) => path.basename(file) === 'servers.json');
    assert.ok(serversFile, 'servers.json was written');
    const audit = JSON.stringify(await host.call('audit.read', {}));
    for (const body of bodies) assert.ok(!audit.includes(body), 'no key in the audit log');
    assert.doesNotMatch(audit, /PRIVATE KEY/);
    const set = (await host.call('audit.read', { serverId: 'protected' })).find(
      (entry) => entry.type === 'server.oauth-client-set'
    );
    assert.deepEqual(set?.detail, { clientId: 'signer', withoutBrowser: true, keyAlgorithm: 'ES256' });
    // What the Desk is told of the servers (a snapshot, as after a reconnect) names no key either.
    const listed = JSON.stringify(await host.call('servers.list', {}));
    for (const body of bodies) assert.ok(!listed.includes(body));
  });
});
