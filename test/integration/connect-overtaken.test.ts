import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createHost, type Host } from '../../app/host/host.js';
import { tempDir } from '../support/host-fixture.js';
import { startOAuthTestServers, type OAuthTestServers } from '../support/oauth-test-servers.js';

const SECRET = 'machine-secret-overtaken';

/**
 * A connect that waits before it makes its connection (here for a sign-in without a browser,
 * whose token request the test holds) and a close of the same server meanwhile: the connect
 * makes no connection, and a second connect joins the first rather than making another.
 */
describe('a connect overtaken while it waits to make its connection', () => {
  let servers: OAuthTestServers;
  let data: ReturnType<typeof tempDir>;
  let host: Host;
  const realFetch = globalThis.fetch;
  const held: Array<() => void> = [];
  let hold = false;
  const release = () => {
    hold = false;
    for (const go of held.splice(0)) go();
  };
  /** Resolves once `count` token requests wait. */
  const untilHeld = async (count: number) => {
    while (held.length < count) await new Promise((resolve) => setImmediate(resolve));
  };

  before(async () => {
    // The host's sign-in goes through the global fetch when no proxy is set: its token requests
    // wait here while `hold` is on. Put back after this file's tests (the process is shared).
    globalThis.fetch = async (url: Parameters<typeof fetch>[0], init?: RequestInit) => {
      const address = url instanceof Request ? url.url : url.toString();
      if (hold && init?.method === 'POST' && address.endsWith('/token'))
        await new Promise<void>((resolve) => held.push(resolve));
      return realFetch(url, init);
    };
    servers = await startOAuthTestServers({ clientCredentials: true });
    servers.registerClient({ clientId: 'machine', clientSecret: SECRET });
    data = tempDir();
    const http = (id: string) => ({
      id,
      name: `Server ${id}`,
      transport: { type: 'http' as const, url: servers.mcpUrl }
    });
    host = createHost({ dataDir: data.dir, autoConnect: false, servers: [http('a'), http('b')] });
    for (const serverId of ['a', 'b'])
      await host.call('auth.setClient', {
        serverId,
        clientId: 'machine',
        clientSecret: SECRET,
        clientCredentials: true
      });
  });
  after(async () => {
    release();
    globalThis.fetch = realFetch;
    await host?.close();
    await servers?.close();
    data?.remove();
  });

  it('makes no connection once the person disconnected the server meanwhile; a Connect after that connects', async () => {
    hold = true;
    const connecting = host.call('servers.connect', { serverId: 'a' });
    await untilHeld(1);
    await host.call('servers.disconnect', { serverId: 'a' });
    release();
    const view = await connecting;
    assert.notEqual(view.state.status, 'ready');
    assert.equal(host.connection('a'), undefined, 'no connection was made');

    const again = await host.call('servers.connect', { serverId: 'a' });
    assert.equal(again.state.status, 'ready', again.state.reason);
    await host.call('servers.disconnect', { serverId: 'a' });
  });

  it('joins a second Connect to the one on its way: one sign-in, one connection', async () => {
    await host.call('auth.signOut', { serverId: 'b' });
    const grants = servers.clientCredentialsGrants;
    hold = true;
    const one = host.call('servers.connect', { serverId: 'b' });
    await untilHeld(1);
    const two = host.call('servers.connect', { serverId: 'b' });
    release();
    const [first, second] = await Promise.all([one, two]);
    assert.equal(first.state.status, 'ready', first.state.reason);
    assert.equal(second.state.status, 'ready', second.state.reason);
    assert.equal(servers.clientCredentialsGrants - grants, 1, 'one token request');
  });

  it('makes no connection to a server removed meanwhile', async () => {
    await host.call('servers.add', {
      id: 'r',
      name: 'Server r',
      transport: { type: 'http', url: servers.mcpUrl },
      autoConnect: false
    });
    await host.call('auth.setClient', {
      serverId: 'r',
      clientId: 'machine',
      clientSecret: SECRET,
      clientCredentials: true
    });
    hold = true;
    const connecting = host.call('servers.connect', { serverId: 'r' });
    await untilHeld(1);
    await host.call('servers.remove', { serverId: 'r' });
    release();
    await connecting.catch(() => undefined);
    assert.equal(host.connection('r'), undefined, 'no connection was made');
    assert.ok(!(await host.call('servers.list', {})).some((server) => server.id === 'r'));
  });
});
