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
 * saved) is refreshed on the way of the request that finds it so, before the request goes: the
 * request carries a fresh token rather than failing with a 401 first. A refresh that cannot be made
 * then (the authorization server down) leaves the token in hand to be used: no sign-in is asked for.
 * The test authorization server issues tokens for an hour (`expires_in: 3600`), by its own clock.
 */
describe('refreshing an OAuth access token ahead of its expiry', () => {
  let servers: OAuthTestServers;
  let data: ReturnType<typeof tempDir>;
  let host: Host;
  const clock = new ManualClock(Date.now());

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
    await host?.close();
    await servers?.close();
    data?.remove();
  });

  const whoami = async () => {
    const outcome = await host.call('tools.call', { serverId: 'protected', name: 'whoami', arguments: {} });
    assert.equal(outcome.type, 'result');
  };

  it('uses the token as it is while it has longer than the margin to live', async () => {
    const refreshes = servers.refreshes;
    await clock.advance(3_600_000 - REFRESH_AHEAD_MS - 1_000);
    await whoami();
    assert.equal(servers.refreshes, refreshes);
  });

  it('refreshes it first once it is within the margin of its expiry, though the server would still take it', async () => {
    const refreshes = servers.refreshes;
    await clock.advance(2_000);
    await whoami();
    assert.equal(servers.refreshes, refreshes + 1, 'refreshed before the request went');
    // The new token counts from now: the next request uses it as it is.
    await whoami();
    assert.equal(servers.refreshes, refreshes + 1);
  });

  const authOf = async () =>
    (await host.call('servers.list', {})).find((server) => server.id === 'protected')?.state.auth;

  it('goes on with the token in hand when the authorization server fails the refresh, starting no sign-in', async () => {
    // The SDK starts a new authorization when a refresh fails with a server error: ahead of
    // expiry that is not wanted (the token still works), and no sign-in page is made.
    servers.failRefreshes = true;
    const signIns = servers.signIns;
    await clock.advance(3_600_000 - REFRESH_AHEAD_MS / 2);
    await whoami();
    assert.deepEqual(await authOf(), { status: 'signed-in', issuer: servers.issuer, subject: 'alice' });
    assert.equal(servers.signIns, signIns);
    servers.failRefreshes = false;
  });

  it('goes on with the token in hand when the authorization server cannot be reached, asking no sign-in', async () => {
    // Past the wait after the failed refresh: tried again, and the token in hand used again.
    await clock.advance(REFRESH_AHEAD_MS);
    await servers.closeAuthorizationServer();
    await whoami();
    assert.equal((await authOf())?.status, 'signed-in');
  });
});
