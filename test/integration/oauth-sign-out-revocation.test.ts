import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createHost, type Host } from '../../app/host/host.js';
import { tempDir } from '../support/host-fixture.js';
import { signInHeadlessly } from '../support/conformance-auth.js';
import { startOAuthTestServers, type OAuthTestServers } from '../support/oauth-test-servers.js';

/**
 * Sign out asks the authorization server to revoke the sign-in (RFC 7009), after the tokens are
 * forgotten here: the refresh token goes to its `revocation_endpoint`, authenticated as the
 * client, and ends there (with the access tokens of its grant). What the authorization server did
 * is on the server's card and in the audit log: revoked, no revocation offered, or could not be
 * told (why), in which case the sign-in may stay valid there until it expires.
 */
describe('signing out of a server signed in with OAuth', () => {
  const opened: Array<{ host: Host; servers: OAuthTestServers; data: ReturnType<typeof tempDir> }> = [];

  after(async () => {
    for (const { host, servers, data } of opened) {
      await host.close();
      await servers.close();
      data.remove();
    }
  });

  /** A host signed in to a protected server ("protected") of a fresh pair of test servers. */
  async function signedIn(options: { revocation?: boolean } = {}) {
    const servers = await startOAuthTestServers({ consent: 'auto', ...options });
    const data = tempDir('taskdesk-revoke-');
    const host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      servers: [{ id: 'protected', name: 'Protected', transport: { type: 'http', url: servers.mcpUrl } }]
    });
    opened.push({ host, servers, data });
    await host.call('servers.connect', { serverId: 'protected' });
    await signInHeadlessly(host, 'protected');
    const tools = await host.call('tools.list', { serverId: 'protected' });
    assert.ok(tools.length > 0, 'signed in and connected');
    return { host, servers };
  }

  const signedOutEntry = async (host: Host) =>
    (await host.call('audit.read', { type: 'server.signed-out', serverId: 'protected' }))[0];

  it('revokes the refresh token at the authorization server, which ends it there', async () => {
    const { host, servers } = await signedIn();
    const refreshTokens = servers.issuedTokens.filter((token) => servers.refreshTokenValid(token));
    assert.equal(refreshTokens.length, 1, 'one live refresh token, Taskdesk’s');
    const view = await host.call('auth.signOut', { serverId: 'protected' });
    assert.deepEqual(view.state.auth, {
      status: 'signed-out',
      issuer: servers.issuer,
      revocation: { outcome: 'revoked' }
    });
    assert.equal(servers.revocations.length, 1);
    const [revoked] = servers.revocations;
    assert.equal(revoked?.token, refreshTokens[0]);
    assert.equal(revoked?.hint, 'refresh_token');
    assert.equal(servers.refreshTokenValid(refreshTokens[0]!), false, 'the refresh token no longer refreshes');
    const entry = await signedOutEntry(host);
    assert.deepEqual(entry?.detail, { revocation: 'revoked' });
    // Never a token in the audit log.
    assert.doesNotMatch(JSON.stringify(entry), new RegExp(refreshTokens[0]!));
  });

  it('says so when the authorization server could not revoke it, and the tokens are forgotten here all the same', async () => {
    const { host, servers } = await signedIn();
    servers.failRevocations = true;
    const view = await host.call('auth.signOut', { serverId: 'protected' });
    const auth = view.state.auth;
    assert.equal(auth?.status, 'signed-out');
    assert.equal(auth?.revocation?.outcome, 'failed');
    assert.match(
      auth?.revocation?.outcome === 'failed' ? auth.revocation.why : '',
      /^it answered 500 Internal Server Error, server_error: The revocation store is down$/
    );
    assert.deepEqual((await signedOutEntry(host))?.detail, { revocation: 'failed' });
    // Signed out here: connecting asks for a sign-in again.
    const again = await host.call('servers.connect', { serverId: 'protected' });
    assert.equal(again.state.auth?.status, 'sign-in-required');
  });

  it('says so when the authorization server offers no revocation', async () => {
    const { host, servers } = await signedIn({ revocation: false });
    const view = await host.call('auth.signOut', { serverId: 'protected' });
    assert.deepEqual(view.state.auth, {
      status: 'signed-out',
      issuer: servers.issuer,
      revocation: { outcome: 'not-offered' }
    });
    assert.equal(servers.revocations.length, 0);
    assert.deepEqual((await signedOutEntry(host))?.detail, { revocation: 'not-offered' });
  });
});
