import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { REFRESH_AHEAD_MS } from '../../app/auth/server-oauth.js';
import { createHost, type Host } from '../../app/host/host.js';
import { tempDir } from '../support/host-fixture.js';
import { signInHeadlessly } from '../support/conformance-auth.js';
import { ManualClock } from '../support/manual-clock.js';
import { startOAuthTestServers, type OAuthTestServers } from '../support/oauth-test-servers.js';

/**
 * An access token about to expire (its `expires_in`, counted on the host's clock from when it was
 * saved) is refreshed beside the request that finds it so, which goes at once with the token in
 * hand; one already past its expiry waits for the refresh. A refresh that cannot be made (the
 * authorization server failing, hanging or down) leaves the token in hand, and starts no sign-in.
 * Tokens a refresh brings back after the person signed out are not kept, but revoked. The test
 * authorization server issues tokens for an hour (`expires_in: 3600`), by its own clock.
 */
describe('refreshing an OAuth access token ahead of its expiry', () => {
  let servers: OAuthTestServers;
  let data: ReturnType<typeof tempDir>;
  let host: Host;
  const clock = new ManualClock(Date.now());
  const HOUR = 3_600_000;

  before(async () => {
    servers = await startOAuthTestServers({ consent: 'auto' });
    data = tempDir('taskdesk-refresh-ahead-');
    host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      clock,
      servers: [{ id: 'protected', name: 'Protected', transport: { type: 'http', url: servers.mcpUrl } }]
    });
    await host.call('servers.connect', { serverId: 'protected' });
    await signInHeadlessly(host, 'protected');
  });

  after(async () => {
    servers?.releaseRefreshes();
    await host?.close();
    await servers?.close();
    data?.remove();
  });

  const whoami = async () => {
    const outcome = await host.call('tools.call', { serverId: 'protected', name: 'whoami', arguments: {} });
    assert.equal(outcome.type, 'result');
  };
  const authOf = async () =>
    (await host.call('servers.list', {})).find((server) => server.id === 'protected')?.state.auth;

  it('uses the token as it is while it has longer than the margin to live', async () => {
    const refreshes = servers.refreshes;
    await clock.advance(HOUR - REFRESH_AHEAD_MS - 1_000);
    await whoami();
    assert.equal(servers.refreshes, refreshes);
  });

  it('refreshes it beside the request once it is within the margin, though the server would still take it', async () => {
    const refreshes = servers.refreshes;
    await clock.advance(2_000);
    await whoami();
    await servers.until(() => servers.refreshes === refreshes + 1);
    // The new token counts from now: the next request uses it as it is.
    await whoami();
    assert.equal(servers.refreshes, refreshes + 1);
  });

  it('makes a request with a token past its expiry wait for the refresh', async () => {
    const refreshes = servers.refreshes;
    await clock.advance(HOUR + 1_000);
    await whoami();
    assert.equal(servers.refreshes, refreshes + 1, 'refreshed before the request went');
  });

  it('does not hold a request while the authorization server leaves the refresh unanswered', async () => {
    const refreshes = servers.refreshes;
    servers.holdRefreshes();
    await clock.advance(HOUR - REFRESH_AHEAD_MS / 2);
    // Answered while the refresh's answer is held back (a request that waited for it would not be).
    await whoami();
    await servers.until(() => servers.refreshes === refreshes + 1);
    servers.releaseRefreshes();
  });

  it('goes on with the token in hand when the authorization server fails the refresh, starting no sign-in', async () => {
    // The SDK starts a new authorization when a refresh fails with a server error: ahead of
    // expiry that is not wanted (the token still works), and no sign-in page is made. Past its
    // expiry here, so that the request waits for the refresh and its failure.
    servers.failRefreshes = true;
    const signIns = servers.signIns;
    await clock.advance(HOUR + 1_000);
    await whoami();
    assert.deepEqual(await authOf(), { status: 'signed-in', issuer: servers.issuer, subject: 'alice' });
    assert.equal(servers.signIns, signIns);
    servers.failRefreshes = false;
  });

  it('keeps no token that a refresh brings back after the person signed out, and revokes it', async () => {
    // Past the wait after the failed refresh, and past its token's expiry: refreshed as the request goes.
    await clock.advance(REFRESH_AHEAD_MS);
    await whoami();
    // Within the margin of the new token's expiry: the request goes, the refresh waits unanswered.
    servers.holdRefreshes();
    await clock.advance(HOUR - REFRESH_AHEAD_MS / 2);
    const before = servers.revocations.length;
    const refreshes = servers.refreshes;
    await whoami();
    // Its new tokens issued, their answer not yet back.
    await servers.until(() => servers.refreshes === refreshes + 1);
    const view = await host.call('auth.signOut', { serverId: 'protected' });
    assert.equal(view.state.auth?.revocation?.outcome, 'revoked');
    assert.equal(servers.revocations.length, before + 1);
    servers.releaseRefreshes();
    // The refresh's new tokens came back after the sign-out: revoked too, and not kept.
    await servers.until(() => servers.revocations.length === before + 2);
    const late = servers.revocations.at(-1)!;
    assert.equal(servers.refreshTokenValid(late.token), false);
    assert.deepEqual(await authOf(), {
      status: 'signed-out',
      issuer: servers.issuer,
      revocation: { outcome: 'revoked' }
    });
    const again = await host.call('servers.connect', { serverId: 'protected' });
    assert.equal(again.state.auth?.status, 'sign-in-required', 'no token was kept to connect with');
  });

  it('goes on with the token in hand when the authorization server cannot be reached, asking no sign-in', async () => {
    await signInHeadlessly(host, 'protected');
    await clock.advance(HOUR + 1_000);
    await servers.closeAuthorizationServer();
    await whoami();
    assert.equal((await authOf())?.status, 'signed-in');
  });
});
