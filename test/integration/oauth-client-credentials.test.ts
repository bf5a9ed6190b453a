import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createHost, type Host } from '../../app/host/host.js';
import type { ServerView } from '../../app/contract/host-api.js';
import { tempDir, filesUnder, reasonOf } from '../support/host-fixture.js';
import { ManualClock } from '../support/manual-clock.js';
import { filesHolding } from '../support/files-holding.js';
import { startOAuthTestServers, type OAuthTestServers } from '../support/oauth-test-servers.js';

const SECRET = 'machine-secret-5f1c';
const HOUR = 3_600_000;

/**
 * Sign-in without a browser for a client registered by hand (OAuth client credentials, the MCP
 * client credentials extension), through the host API against a local authorization server that
 * answers `grant_type=client_credentials` with `client_secret_basic`, and the MCP server it
 * protects. No sign-in page is ever opened: the authorization server counts its sign-ins.
 */
describe('OAuth sign-in without a browser (client credentials)', () => {
  let servers: OAuthTestServers;
  /** Another authorization server, where the client is not registered: its secret must never reach it. */
  let elsewhere: OAuthTestServers;
  /** An authorization server that lists grant types without client credentials. */
  let browserOnly: OAuthTestServers;
  let data: ReturnType<typeof tempDir>;
  let host: Host;
  const clock = new ManualClock(Date.now());

  before(async () => {
    [servers, elsewhere, browserOnly] = await Promise.all([
      startOAuthTestServers({ clientCredentials: true }),
      startOAuthTestServers({ clientCredentials: true }),
      startOAuthTestServers({})
    ]);
    servers.registerClient({ clientId: 'machine', clientSecret: SECRET });
    servers.registerClient({ clientId: 'rotating', clientSecret: 'rotating-secret-1' });
    browserOnly.registerClient({ clientId: 'machine', clientSecret: SECRET });
    data = tempDir('taskdesk-oauth-cc-');
    const http = (id: string, url: string) => ({ id, name: id, transport: { type: 'http' as const, url } });
    host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      clock,
      servers: [
        http('wrong-secret', servers.mcpUrl),
        http('browser-only', browserOnly.mcpUrl),
        http('pinned', servers.mcpUrl),
        http('asked-first', servers.mcpUrl),
        http('rotated', servers.mcpUrl)
      ]
    });
    // Added as the person adds one, so that servers.json is written.
    await host.call('servers.add', http('protected', servers.mcpUrl));
  });

  after(async () => {
    await host?.close();
    await Promise.all([servers?.close(), elsewhere?.close(), browserOnly?.close()]);
    data?.remove();
  });

  const viewOf = async (serverId: string): Promise<ServerView> => {
    const view = (await host.call('servers.list', {})).find((server) => server.id === serverId);
    assert.ok(view);
    return view;
  };
  const whoami = async (serverId: string): Promise<unknown> => {
    const outcome = await host.call('tools.call', { serverId, name: 'whoami', arguments: {} });
    assert.equal(outcome.type, 'result');
    const result = outcome.type === 'result' ? outcome.result : undefined;
    const text = (result?.content as Array<{ type: string; text?: string }> | undefined)?.[0]?.text;
    return JSON.parse(text ?? 'null');
  };

  it('connects with the client credentials: ready, tools listed, calls go with its bearer token, no sign-in page', async () => {
    await host.call('auth.setClient', {
      serverId: 'protected',
      clientId: 'machine',
      clientSecret: SECRET,
      clientCredentials: true
    });
    const view = await host.call('servers.connect', { serverId: 'protected' });
    assert.equal(view.state.status, 'ready', view.state.status === 'failed' ? view.state.reason : undefined);
    assert.equal(servers.clientCredentialsGrants, 1, 'one token, asked for before the connection');
    assert.equal(servers.signIns, 0, 'no sign-in page');
    assert.equal(servers.refused('initialize'), 0, 'the connection went with the token from the start');
    const tools = await host.call('tools.list', { serverId: 'protected' });
    assert.ok(tools.some((tool) => tool.name === 'whoami'));
    // The protected server says whose token it checked: the client's own.
    assert.deepEqual(await whoami('protected'), { subject: 'machine' });
    const auth = (await viewOf('protected')).state.auth;
    assert.equal(auth?.status, 'signed-in');
    assert.equal(auth?.clientCredentials, true);
    assert.equal(auth?.registeredClientId, 'machine');
    assert.equal(auth?.issuer, servers.issuer);
    assert.equal(servers.requestsCarrying(SECRET), 1, 'the secret went once, to the token endpoint');
  });

  it('asks for a new token once when the server no longer takes the one in hand, and the call succeeds', async () => {
    const grants = servers.clientCredentialsGrants;
    const refused = servers.refused('tools/call');
    servers.expireAccessTokens();
    assert.deepEqual(await whoami('protected'), { subject: 'machine' });
    assert.equal(servers.refused('tools/call'), refused + 1, 'the old token was refused once');
    assert.equal(servers.clientCredentialsGrants, grants + 1, 'one new token');
    assert.equal(servers.signIns, 0);
    assert.equal((await viewOf('protected')).state.status, 'ready');
  });

  it('asks for a new token before one past its expires_in is sent, with no refresh token', async () => {
    const grants = servers.clientCredentialsGrants;
    const refused = servers.refused('tools/call');
    await clock.advance(HOUR + 1_000);
    assert.deepEqual(await whoami('protected'), { subject: 'machine' });
    assert.equal(servers.clientCredentialsGrants, grants + 1, 'one new token');
    assert.equal(servers.refused('tools/call'), refused, 'no request went with the expired token');
  });

  it('records the sign-in made while connecting once, as one without a browser, not each new token', async () => {
    const signedIn = (await host.call('audit.read', { serverId: 'protected' })).filter(
      (entry) => entry.type === 'server.signed-in'
    );
    // Three tokens so far (the connect's, a 401's, one past its expiry): one sign-in.
    assert.ok(servers.clientCredentialsGrants >= 3);
    assert.deepEqual(
      signedIn.map((entry) => entry.detail),
      [{ issuer: servers.issuer, browser: false }]
    );
  });

  it('says in the state that the sign-in service refused a wrong secret', async () => {
    await host.call('auth.setClient', {
      serverId: 'wrong-secret',
      clientId: 'machine',
      clientSecret: 'not-the-secret',
      clientCredentials: true
    });
    const view = await host.call('servers.connect', { serverId: 'wrong-secret' });
    assert.equal(view.state.status, 'failed');
    const reason = reasonOf(view);
    assert.match(reason, /The sign-in service did not accept the client machine \(invalid_client/);
    assert.match(reason, /Check its client ID and secret/);
    assert.equal(
      view.state.status === 'failed' && view.state.failedFor,
      undefined,
      'not a sign-in to make in a browser'
    );
    assert.equal(servers.signIns, 0);
  });

  it('sends no secret to a sign-in service that does not list client credentials, and says so', async () => {
    await host.call('auth.setClient', {
      serverId: 'browser-only',
      clientId: 'machine',
      clientSecret: SECRET,
      clientCredentials: true
    });
    const view = await host.call('servers.connect', { serverId: 'browser-only' });
    assert.equal(view.state.status, 'failed');
    assert.match(
      reasonOf(view),
      /does not offer sign-in without a browser \(client credentials; it offers authorization_code, refresh_token\)/
    );
    assert.equal(browserOnly.requestsCarrying(SECRET), 0);
    assert.equal(browserOnly.tokenRequests, 0);
  });

  it('sends the credentials only to the sign-in service the form named', async () => {
    await host.call('auth.setClient', {
      serverId: 'pinned',
      clientId: 'machine',
      clientSecret: SECRET,
      clientCredentials: true,
      issuer: servers.issuer
    });
    servers.authorizationServerOf = elsewhere.issuer;
    try {
      const view = await host.call('servers.connect', { serverId: 'pinned' });
      assert.equal(view.state.status, 'failed');
      assert.match(
        reasonOf(view),
        /now sends its sign-in to http:\/\/127\.0\.0\.1:\d+\/, but the client machine belongs to http:\/\/127\.0\.0\.1:\d+\/: Taskdesk did not send its secret there/
      );
      assert.equal(elsewhere.requestsCarrying(SECRET), 0);
      assert.equal(elsewhere.tokenRequests, 0);
    } finally {
      servers.authorizationServerOf = servers.issuer;
    }
    assert.equal((await host.call('servers.connect', { serverId: 'pinned' })).state.status, 'ready');
  });

  it('signs out: the token is revoked and forgotten, and no other sign-in service gets the secret afterwards', async () => {
    const view = await host.call('auth.signOut', { serverId: 'protected' });
    assert.equal(view.state.auth?.status, 'signed-out');
    assert.deepEqual(view.state.auth?.revocation, { outcome: 'revoked' });
    assert.equal(servers.revocations.at(-1)?.clientId, 'machine');
    assert.equal(servers.revocations.at(-1)?.hint, 'access_token');
    // The first sign-in recorded where the credentials belong: a server that now names another
    // sign-in service does not get them there.
    servers.authorizationServerOf = elsewhere.issuer;
    try {
      const failed = await host.call('servers.connect', { serverId: 'protected' });
      assert.equal(failed.state.status, 'failed');
      assert.match(reasonOf(failed), /did not send its secret there/);
      assert.equal(elsewhere.requestsCarrying(SECRET), 0);
      assert.equal(elsewhere.tokenRequests, 0);
    } finally {
      servers.authorizationServerOf = servers.issuer;
    }
    const grants = servers.clientCredentialsGrants;
    const again = await host.call('servers.connect', { serverId: 'protected' });
    assert.equal(again.state.status, 'ready');
    assert.equal(servers.clientCredentialsGrants, grants + 1, 'connecting signs in again, without a browser');
    assert.equal(servers.signIns, 0);
  });

  it('keeps the secret in the key store only (0600), never in servers.json, the audit log or another file', async () => {
    const holding = await filesHolding(data.dir, (text) => text.includes(SECRET));
    assert.equal(holding.length, 1, `only the key store holds it: ${holding.join(', ')}`);
    const keyFile = path.join(data.dir, holding[0]!);
    assert.notEqual(path.basename(keyFile), 'servers.json');
    assert.equal(fs.statSync(keyFile).mode & 0o777, 0o600);
    const serversFile = filesUnder(data.dir).find((file) => path.basename(file) === 'servers.json');
    assert.ok(serversFile, 'servers.json was written');
    assert.doesNotMatch(fs.readFileSync(serversFile, 'utf8'), new RegExp(SECRET));
    const audit = await host.call('audit.read', {});
    assert.doesNotMatch(JSON.stringify(audit), new RegExp(SECRET));
    const set = audit.find((entry) => entry.type === 'server.oauth-client-set' && entry.serverId === 'protected');
    assert.deepEqual(set?.detail, { clientId: 'machine', withoutBrowser: true });
  });

  it('signs in with Sign in, without a page, a server that asked for a browser sign-in before, and connects it', async () => {
    const asked = await host.call('servers.connect', { serverId: 'asked-first' });
    assert.equal(asked.state.status === 'failed' && asked.state.failedFor, 'sign-in');
    await host.call('auth.setClient', {
      serverId: 'asked-first',
      clientId: 'machine',
      clientSecret: SECRET,
      clientCredentials: true
    });
    assert.deepEqual(await host.call('auth.signIn', { serverId: 'asked-first' }), { type: 'signed-in' });
    const view = await viewOf('asked-first');
    assert.equal(view.state.status, 'ready', reasonOf(view));
    assert.equal(view.state.auth?.status, 'signed-in');
    assert.deepEqual(await whoami('asked-first'), { subject: 'machine' });
    assert.equal(servers.signIns, 0, 'no sign-in page');
    const signedIn = (await host.call('audit.read', { serverId: 'asked-first' })).filter(
      (entry) => entry.type === 'server.signed-in'
    );
    assert.deepEqual(
      signedIn.map((entry) => entry.detail),
      [{ issuer: servers.issuer, browser: false }]
    );
  });

  it('stops saying signed in, and drops the token, once the sign-in service refuses the client on a renewal', async () => {
    await host.call('auth.setClient', {
      serverId: 'rotated',
      clientId: 'rotating',
      clientSecret: 'rotating-secret-1',
      clientCredentials: true
    });
    const view = await host.call('servers.connect', { serverId: 'rotated' });
    assert.equal(view.state.status, 'ready', reasonOf(view));
    assert.equal(view.state.auth?.status, 'signed-in');
    const token = servers.issuedTokens.at(-1)!;
    assert.notDeepEqual(await filesHolding(data.dir, (text) => text.includes(token)), [], 'the token is kept');
    // The secret is rotated at the sign-in service; the token in hand runs out.
    servers.registerClient({ clientId: 'rotating', clientSecret: 'rotating-secret-2' });
    // What the Desk is told, as it happens.
    const told: Array<NonNullable<ServerView['state']['auth']>> = [];
    const off = host.on('server.state', ({ serverId, state }) => {
      if (serverId === 'rotated' && state.auth) told.push(state.auth);
    });
    await clock.advance(HOUR + 1_000);
    await assert.rejects(
      host.call('tools.call', { serverId: 'rotated', name: 'whoami', arguments: {} }),
      /The sign-in service did not accept the client rotating \(invalid_client/
    );
    off();
    const last = told.at(-1);
    assert.equal(last?.status, 'sign-in-required', 'the Desk is told it is no longer signed in');
    assert.match(last?.reason ?? '', /The sign-in service did not accept the client rotating \(invalid_client/);
    assert.equal(last?.registeredClientId, 'rotating');
    const auth = (await viewOf('rotated')).state.auth;
    assert.equal(auth?.status, 'sign-in-required', 'no longer said to be signed in');
    assert.equal(auth?.subject, undefined);
    assert.deepEqual(await filesHolding(data.dir, (text) => text.includes(token)), [], 'the token is forgotten');
    // Connecting again says the same, and a new secret saved signs in again.
    await host.call('servers.disconnect', { serverId: 'rotated' });
    const again = await host.call('servers.connect', { serverId: 'rotated' });
    assert.equal(again.state.status, 'failed');
    assert.match(reasonOf(again), /The sign-in service did not accept the client rotating \(invalid_client/);
    assert.equal(again.state.auth?.status, 'sign-in-required');
    await host.call('auth.setClient', {
      serverId: 'rotated',
      clientId: 'rotating',
      clientSecret: 'rotating-secret-2',
      clientCredentials: true
    });
    const fixed = await host.call('servers.connect', { serverId: 'rotated' });
    assert.equal(fixed.state.status, 'ready', reasonOf(fixed));
    assert.equal(fixed.state.auth?.status, 'signed-in');
  });

  it('refuses to save a client that signs in without a browser but has no secret', async () => {
    await assert.rejects(
      host.call('auth.setClient', { serverId: 'protected', clientId: 'machine', clientCredentials: true }),
      /needs the client secret/
    );
  });
});
