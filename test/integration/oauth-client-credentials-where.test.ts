import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createHost, type Host } from '../../app/host/host.js';
import { OAuthVault } from '../../app/auth/oauth-vault.js';
import { ServerOAuth } from '../../app/auth/server-oauth.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { nextEvent, tempDir, reasonOf } from '../support/host-fixture.js';
import { startOAuthTestServers, type OAuthTestServers } from '../support/oauth-test-servers.js';
import { filesHolding } from '../support/files-holding.js';

const SECRET = 'machine-secret-where-7d2e';

/**
 * Where a client's secret goes when it signs in without a browser (client credentials), and what
 * becomes of a sign-in the person changed or ended meanwhile: against a local authorization
 * server and the MCP server it protects, a bare server that names no sign-in service, and a
 * sign-in service on a plain-HTTP address that is not this machine's (answered here, never reached).
 */
describe('OAuth sign-in without a browser: where the secret goes', () => {
  let servers: OAuthTestServers;
  /** Another authorization server, where the client is registered with another secret. */
  let elsewhere: OAuthTestServers;
  /** An MCP server that answers 401 with no challenge, and has no metadata of any kind. */
  let bare: http.Server;
  /** Every request `bare` received: method, path, Authorization header and body. */
  const bareSeen: string[] = [];
  let bareUrl = '';
  let data: ReturnType<typeof tempDir>;
  let host: Host;
  const realFetch = globalThis.fetch;
  const held: Array<(fail?: boolean) => void> = [];
  let hold = false;
  /** Requests that went to the plain-HTTP sign-in service (answered here, not on the network). */
  const plainSeen: string[] = [];
  const PLAIN = 'http://sign-in.example.test/';
  /** Lets the held token requests go on, or (`fail`) fails them as an unreachable sign-in service does. */
  const release = (fail = false) => {
    hold = false;
    for (const go of held.splice(0)) go(fail);
  };
  const untilHeld = async (count: number) => {
    while (held.length < count) await new Promise((resolve) => setImmediate(resolve));
  };
  const basic = (clientId: string, secret: string) => Buffer.from(`${clientId}:${secret}`).toString('base64');

  before(async () => {
    // The host's sign-in goes through the global fetch when no proxy is set: token requests wait
    // while `hold` is on, and the plain-HTTP sign-in service answers its metadata from here.
    globalThis.fetch = async (url: Parameters<typeof fetch>[0], init?: RequestInit) => {
      const address = url instanceof Request ? url.url : url.toString();
      if (address.startsWith(PLAIN)) {
        plainSeen.push(`${init?.method ?? 'GET'} ${address}`);
        if (address === `${PLAIN}.well-known/oauth-authorization-server`)
          return Response.json({
            issuer: PLAIN,
            authorization_endpoint: `${PLAIN}authorize`,
            token_endpoint: `${PLAIN}token`,
            response_types_supported: ['code'],
            grant_types_supported: ['client_credentials'],
            token_endpoint_auth_methods_supported: ['client_secret_basic']
          });
        return new Response('not found', { status: 404 });
      }
      if (hold && init?.method === 'POST' && address.endsWith('/token')) {
        const fail = await new Promise<boolean>((resolve) => held.push((failed) => resolve(failed === true)));
        if (fail)
          throw new TypeError('fetch failed', {
            cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
          });
      }
      return realFetch(url, init);
    };
    [servers, elsewhere] = await Promise.all([
      startOAuthTestServers({ clientCredentials: true }),
      startOAuthTestServers({ clientCredentials: true })
    ]);
    servers.registerClient({ clientId: 'machine', clientSecret: SECRET });
    servers.registerClient({ clientId: 'other', clientSecret: 'other-secret-91' });
    servers.registerClient({ clientId: 'gone', clientSecret: 'gone-secret-44' });
    elsewhere.registerClient({ clientId: 'machine', clientSecret: 'rotated-secret-2' });
    bare = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        bareSeen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''} ${body}`);
        res.writeHead(req.url === '/mcp' ? 401 : 404);
        res.end();
      });
    });
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/mcp`;
    data = tempDir('taskdesk-oauth-cc-where-');
    const server = (id: string, url = servers.mcpUrl) => ({
      id,
      name: `Server ${id}`,
      transport: { type: 'http' as const, url }
    });
    host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      servers: [
        server('bare', bareUrl),
        server('resaved'),
        server('switched'),
        server('plain'),
        server('scoped'),
        server('changed-meanwhile')
      ]
    });
  });

  after(async () => {
    release();
    globalThis.fetch = realFetch;
    await host?.close();
    await Promise.all([servers?.close(), elsewhere?.close()]);
    bare?.closeAllConnections();
    await new Promise<void>((resolve) => (bare ? bare.close(() => resolve()) : resolve()));
    data?.remove();
  });

  const whoami = async (serverId: string): Promise<unknown> => {
    const outcome = await host.call('tools.call', { serverId, name: 'whoami', arguments: {} });
    assert.equal(outcome.type, 'result');
    const result = outcome.type === 'result' ? outcome.result : undefined;
    const text = (result?.content as Array<{ type: string; text?: string }> | undefined)?.[0]?.text;
    return JSON.parse(text ?? 'null');
  };

  it('sends no secret to a server that names no sign-in service, and says so', async () => {
    await host.call('auth.setClient', {
      serverId: 'bare',
      clientId: 'machine',
      clientSecret: SECRET,
      clientCredentials: true
    });
    const view = await host.call('servers.connect', { serverId: 'bare' });
    assert.equal(view.state.status, 'failed');
    assert.match(reasonOf(view), /Server bare names no sign-in service; /);
    assert.ok(bareSeen.length > 0, 'the server was asked');
    assert.deepEqual(
      bareSeen.filter((request) => request.includes(basic('machine', SECRET)) || request.includes(SECRET)),
      [],
      'no request carried the secret'
    );
    assert.deepEqual(
      bareSeen.filter((request) => request.startsWith('POST /token')),
      [],
      'no token request went to the server'
    );
  });

  it('keeps the sign-in service a client belongs to when the same client is saved again with no address', async () => {
    await host.call('auth.setClient', {
      serverId: 'resaved',
      clientId: 'machine',
      clientSecret: SECRET,
      clientCredentials: true
    });
    const first = await host.call('servers.connect', { serverId: 'resaved' });
    assert.equal(first.state.status, 'ready', reasonOf(first));
    assert.equal(first.state.auth?.registeredIssuer, servers.issuer, 'the card names where the secret goes');
    await host.call('servers.disconnect', { serverId: 'resaved' });
    // A new secret, the address left as it was (empty): the client still belongs where it did.
    await host.call('auth.setClient', {
      serverId: 'resaved',
      clientId: 'machine',
      clientSecret: 'rotated-secret-2',
      clientCredentials: true
    });
    assert.equal(
      (await host.call('servers.list', {})).find((s) => s.id === 'resaved')?.state.auth?.registeredIssuer,
      servers.issuer
    );
    servers.authorizationServerOf = elsewhere.issuer;
    try {
      const moved = await host.call('servers.connect', { serverId: 'resaved' });
      assert.equal(moved.state.status, 'failed');
      assert.match(reasonOf(moved), /now sends its sign-in to .*: Taskdesk did not send its secret there/);
      assert.equal(elsewhere.requestsCarrying('rotated-secret-2'), 0);
      assert.equal(elsewhere.tokenRequests, 0);
      // Moved by saving it with the new address: the secret goes there (whose tokens this test's
      // MCP server does not take, so the connect itself fails after).
      await host.call('auth.setClient', {
        serverId: 'resaved',
        clientId: 'machine',
        clientSecret: 'rotated-secret-2',
        clientCredentials: true,
        issuer: elsewhere.issuer
      });
      await host.call('servers.connect', { serverId: 'resaved' });
      assert.ok(elsewhere.clientCredentialsGrants > 0, 'signed in at the new sign-in service');
      const view = (await host.call('servers.list', {})).find((s) => s.id === 'resaved');
      assert.equal(view?.state.auth?.registeredIssuer, elsewhere.issuer);
    } finally {
      servers.authorizationServerOf = servers.issuer;
      await host.call('servers.disconnect', { serverId: 'resaved' });
    }
  });

  it('refuses a sign-in service on plain HTTP away from this machine, on the form and when the server names one', async () => {
    await assert.rejects(
      host.call('auth.setClient', {
        serverId: 'plain',
        clientId: 'machine',
        clientSecret: SECRET,
        clientCredentials: true,
        issuer: PLAIN
      }),
      /The sign-in service address must start with https:\/\//
    );
    await host.call('auth.setClient', {
      serverId: 'plain',
      clientId: 'machine',
      clientSecret: SECRET,
      clientCredentials: true
    });
    servers.authorizationServerOf = PLAIN;
    try {
      const view = await host.call('servers.connect', { serverId: 'plain' });
      assert.equal(view.state.status, 'failed');
      assert.match(reasonOf(view), /over plain HTTP/);
    } finally {
      servers.authorizationServerOf = servers.issuer;
    }
    assert.ok(plainSeen.length > 0, 'its metadata was read');
    assert.deepEqual(
      plainSeen.filter((request) => request.startsWith('POST')),
      [],
      'no token request went there'
    );
  });

  it("asks for the scope the server's metadata lists before the one configured", async () => {
    await host.call('auth.setClient', {
      serverId: 'scoped',
      clientId: 'machine',
      clientSecret: SECRET,
      clientCredentials: true,
      scope: 'configured-scope'
    });
    const before = servers.requestsCarrying('scope=mcp');
    const view = await host.call('servers.connect', { serverId: 'scoped' });
    assert.equal(view.state.status, 'ready', reasonOf(view));
    assert.equal(servers.requestsCarrying('scope=configured-scope'), 0);
    assert.equal(servers.requestsCarrying('scope=mcp'), before + 1);
    await host.call('servers.disconnect', { serverId: 'scoped' });
  });

  it('connects again, as the new client, once the client is changed while connected', async () => {
    await host.call('auth.setClient', {
      serverId: 'switched',
      clientId: 'machine',
      clientSecret: SECRET,
      clientCredentials: true
    });
    const first = await host.call('servers.connect', { serverId: 'switched' });
    assert.equal(first.state.status, 'ready', reasonOf(first));
    const connection = host.connection('switched');
    assert.ok(connection);
    await host.call('auth.setClient', {
      serverId: 'switched',
      clientId: 'other',
      clientSecret: 'other-secret-91',
      clientCredentials: true
    });
    const readyAgain = nextEvent(
      host,
      'server.state',
      ({ serverId, state }) =>
        serverId === 'switched' && state.status === 'ready' && host.connection('switched') !== connection
    );
    const call = await host.call('tools.call', { serverId: 'switched', name: 'whoami', arguments: {} }).then(
      (result) => ({ result }),
      (error: unknown) => ({ error })
    );
    // Not answered as the new client over the connection made as the old one.
    assert.ok('error' in call, `the call was answered over the old connection: ${JSON.stringify(call)}`);
    await readyAgain;
    assert.notEqual(host.connection('switched'), connection, 'a new connection');
    assert.deepEqual(await whoami('switched'), { subject: 'other' });
    await host.call('servers.disconnect', { serverId: 'switched' });
  });

  it('signs in when Sign in is pressed after a sign-in before connecting failed and its connect was given up', async () => {
    await host.call('auth.setClient', {
      serverId: 'changed-meanwhile',
      clientId: 'machine',
      clientSecret: SECRET,
      clientCredentials: true
    });
    hold = true;
    const connecting = host.call('servers.connect', { serverId: 'changed-meanwhile' });
    await untilHeld(1);
    await host.call('servers.disconnect', { serverId: 'changed-meanwhile' });
    // Its sign-in service unreachable for that request only.
    release(true);
    assert.notEqual((await connecting).state.status, 'ready');
    assert.deepEqual(await host.call('auth.signIn', { serverId: 'changed-meanwhile' }), { type: 'signed-in' });
    await host.call('servers.disconnect', { serverId: 'changed-meanwhile' });
  });

  it('signs in with the new client, not answering with the failure of a sign-in made with the one it replaced', async () => {
    await host.call('auth.signOut', { serverId: 'changed-meanwhile' });
    await host.call('auth.setClient', {
      serverId: 'changed-meanwhile',
      clientId: 'other',
      clientSecret: 'other-secret-91',
      clientCredentials: true
    });
    hold = true;
    const connecting = host.call('servers.connect', { serverId: 'changed-meanwhile' });
    await untilHeld(1);
    await host.call('auth.setClient', {
      serverId: 'changed-meanwhile',
      clientId: 'machine',
      clientSecret: SECRET,
      clientCredentials: true
    });
    await host.call('servers.disconnect', { serverId: 'changed-meanwhile' });
    // The sign-in made with the client replaced fails (its service unreachable) after the change.
    release(true);
    await connecting;
    assert.deepEqual(await host.call('auth.signIn', { serverId: 'changed-meanwhile' }), { type: 'signed-in' });
    await host.call('servers.disconnect', { serverId: 'changed-meanwhile' });
  });

  it('answers a 401 with a new sign-in, not with the failure of one before connecting made with the client replaced meanwhile', async () => {
    let holdHere = true;
    const waiting: Array<() => void> = [];
    const oauth = new ServerOAuth({
      serverId: 'direct',
      serverName: 'Server direct',
      serverUrl: servers.mcpUrl,
      vault: new OAuthVault(new InMemoryKeyStore()),
      // The first token request waits, then fails as an unreachable sign-in service does.
      fetch: async (url, init) => {
        if (holdHere && init?.method === 'POST' && String(url).endsWith('/token')) {
          await new Promise<void>((resolve) => waiting.push(resolve));
          throw new TypeError('fetch failed', {
            cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
          });
        }
        return realFetch(url, init);
      },
      onChange: () => undefined,
      onSignedIn: () => undefined
    });
    await oauth.setClient({ clientId: 'other', clientSecret: 'other-secret-91', clientCredentials: true });
    const granting = oauth.grant();
    while (waiting.length === 0) await new Promise((resolve) => setImmediate(resolve));
    await oauth.setClient({ clientId: 'machine', clientSecret: SECRET, clientCredentials: true });
    holdHere = false;
    for (const go of waiting.splice(0)) go();
    await granting;
    // As the connection's first 401 asks.
    await oauth.authorize({});
    assert.equal(oauth.view?.status, 'signed-in');
    assert.equal(oauth.view?.registeredClientId, 'machine');
    oauth.close();
  });

  it('keeps nothing of a server removed while its sign-in before connecting was on its way, and revokes its token', async () => {
    await host.call('servers.add', {
      id: 'removed',
      name: 'Server removed',
      transport: { type: 'http', url: servers.mcpUrl },
      autoConnect: false
    });
    await host.call('auth.setClient', {
      serverId: 'removed',
      clientId: 'gone',
      clientSecret: 'gone-secret-44',
      clientCredentials: true
    });
    const tokens = servers.issuedTokens.length;
    hold = true;
    const connecting = host.call('servers.connect', { serverId: 'removed' });
    await untilHeld(1);
    await host.call('servers.remove', { serverId: 'removed' });
    release();
    await connecting.catch(() => undefined);
    // The held request was answered (the connect waited for it): its token is the last issued.
    assert.equal(servers.issuedTokens.length, tokens + 1);
    const token = servers.issuedTokens.at(-1)!;
    const holding = await filesHolding(
      data.dir,
      (text) => text.includes('gone-secret-44') || text.includes(token) || text.includes('oauth:removed')
    );
    assert.deepEqual(holding, [], 'no file holds the removed server’s secret, token or sign-in');
    // Revoked rather than kept.
    await servers.until(() => servers.revocations.some((revocation) => revocation.token === token));
  });
});
