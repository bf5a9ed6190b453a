import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { ConnectionState } from '../../app/contract/host-api.js';
import { createHost, type Host } from '../../app/host/host.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { headlessBrowser, signInHeadlessly } from '../support/conformance-auth.js';
import { nextEvent, tempDir } from '../support/host-fixture.js';
import { startOAuthTestServers, type OAuthTestServers } from '../support/oauth-test-servers.js';

/**
 * A sign-in completed in the browser after the person disconnected its server: the sign-in is
 * kept, and the server stays disconnected (signed in, ready for Connect). One completed while
 * the server waits for it to connect still connects it.
 */
describe('a sign-in completed after the person disconnected its server', () => {
  let servers: OAuthTestServers | undefined;
  let data: ReturnType<typeof tempDir> | undefined;
  let host: Host | undefined;

  afterEach(async () => {
    await host?.close();
    await servers?.close();
    data?.remove();
    host = servers = data = undefined;
  });

  async function start(): Promise<Host> {
    servers = await startOAuthTestServers({ consent: 'auto' });
    data = tempDir('taskdesk-oauth-sign-in-after-disconnect-');
    host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      keyStore: new InMemoryKeyStore(),
      servers: [{ id: 'protected', name: 'Protected', transport: { type: 'http', url: servers.mcpUrl } }]
    });
    const view = await host.call('servers.connect', { serverId: 'protected' });
    assert.equal(view.state.auth?.status, 'sign-in-required');
    return host;
  }

  async function stateOf(host: Host): Promise<ConnectionState | undefined> {
    const list = await host.call('servers.list', {});
    return list.find((server) => server.id === 'protected')?.state;
  }

  it('keeps the sign-in and leaves the server disconnected until the person connects it', async () => {
    const host = await start();
    const begun = await host.call('auth.signIn', { serverId: 'protected' });
    assert.equal(begun.type, 'open');
    if (begun.type !== 'open') return;
    await host.call('servers.disconnect', { serverId: 'protected' });

    // Every state the server goes through from here on, and where the person's Connect came.
    const states: ConnectionState['status'][] = [];
    host.on('server.state', ({ serverId, state }) => {
      if (serverId === 'protected') states.push(state.status);
    });
    const signedIn = nextEvent(
      host,
      'server.state',
      ({ serverId, state }) => serverId === 'protected' && state.auth?.status === 'signed-in'
    );
    const page = await headlessBrowser(begun.authorizationUrl);
    assert.match(page.text, /Signed in to Protected/);
    const { state } = await signedIn;
    assert.equal(state.status, 'closed', 'still disconnected as the sign-in completes');
    const after = await stateOf(host);
    assert.equal(after?.status, 'closed');
    assert.equal(after?.reason, 'Disconnected by you');
    assert.equal(after?.auth?.status, 'signed-in');

    // The person's Connect is the only connection made after the sign-in, over its tokens.
    const connectAt = states.length;
    const view = await host.call('servers.connect', { serverId: 'protected' });
    assert.equal(view.state.status, 'ready');
    assert.deepEqual(
      states.slice(0, connectAt).filter((status) => status === 'connecting'),
      [],
      'not connected again by the sign-in'
    );
    assert.equal(states.filter((status) => status === 'connecting').length, 1, 'one connection, the person’s');
  });

  it('connects the server when the person connected it again before the sign-in completed', async () => {
    const host = await start();
    const begun = await host.call('auth.signIn', { serverId: 'protected' });
    assert.equal(begun.type, 'open');
    await host.call('servers.disconnect', { serverId: 'protected' });
    const again = await host.call('servers.connect', { serverId: 'protected' });
    assert.equal(again.state.auth?.status, 'sign-in-required');
    // Signed in, the host connects again (signInHeadlessly waits for that connection).
    await signInHeadlessly(host, 'protected');
    assert.equal((await stateOf(host))?.status, 'ready');
  });

  it('connects the server again when the sign-in completes while it waits for it', async () => {
    const host = await start();
    await signInHeadlessly(host, 'protected');
    const state = await stateOf(host);
    assert.equal(state?.status, 'ready');
    assert.equal(state?.auth?.status, 'signed-in');
  });
});
