import assert from 'node:assert/strict';
import { after, afterEach, describe, it } from 'node:test';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createHost, type Host } from '../../app/host/host.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { nextEvent, peerServer, tempDir } from '../support/host-fixture.js';

/** A server Taskdesk starts itself, set to connect when Taskdesk starts (here an in-memory peer). */
const saved = (id: string) => ({
  id,
  name: `Server ${id}`,
  transport: { type: 'stdio' as const, command: `in-memory-${id}` },
  autoConnect: true
});

describe('the person’s Disconnect, over a restart of Taskdesk', () => {
  const data = tempDir();
  const hosts: Host[] = [];
  /** The servers a connection was made to, in order. */
  const connected: string[] = [];
  afterEach(async () => {
    for (const host of hosts.splice(0)) await host.close();
  });
  after(() => data.remove());

  /** Resolves once `serverId` is ready on `host`. */
  const ready = (host: Host, serverId: string) =>
    nextEvent(host, 'server.state', (event) => event.serverId === serverId && event.state.status === 'ready');
  /** Taskdesk starting over the one data directory, connecting its servers as their settings say. */
  const start = (): Host => {
    const host = createHost({
      dataDir: data.dir,
      keyStore: new InMemoryKeyStore(),
      transportFactory: (config) => {
        connected.push(config.id);
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        void peerServer(config.id).server.connect(serverSide);
        return clientSide;
      }
    });
    hosts.push(host);
    host.start();
    return host;
  };
  const stateOf = async (host: Host, serverId: string) =>
    (await host.call('servers.list', {})).find((server) => server.id === serverId)?.state;

  it('keeps a server the person disconnected disconnected, and says so, until they press Connect', async () => {
    const first = start();
    await first.call('servers.add', saved('kept'));
    await first.call('servers.add', saved('other'));
    assert.equal((await first.call('servers.connect', { serverId: 'kept' })).state.status, 'ready');
    // The close's state says the Disconnect holds, as the Desk hears it.
    const closed = nextEvent(
      first,
      'server.state',
      ({ serverId, state }) => serverId === 'kept' && state.status === 'closed'
    );
    const view = await first.call('servers.disconnect', { serverId: 'kept' });
    assert.deepEqual(
      { status: view.state.status, reason: view.state.reason, stays: view.state.stayDisconnected },
      { status: 'closed', reason: 'Disconnected by you', stays: true }
    );
    assert.equal((await closed).state.stayDisconnected, true);
    await first.close();

    // Taskdesk starts again: the other server connects, as its setting says; this one does not.
    connected.length = 0;
    const second = start();
    const otherReady = ready(second, 'other');
    assert.equal((await stateOf(second, 'other'))?.status, 'connecting');
    assert.deepEqual(await stateOf(second, 'kept'), {
      status: 'idle',
      reason: 'Disconnected by you',
      stayDisconnected: true
    });
    await otherReady;
    assert.deepEqual(connected, ['other']);
    assert.equal(second.connection('kept'), undefined);

    // The person's Connect: the Disconnect no longer holds, and the next start connects it.
    const again = await second.call('servers.connect', { serverId: 'kept' });
    assert.equal(again.state.status, 'ready');
    assert.equal(again.state.stayDisconnected, undefined);
    await second.close();
    connected.length = 0;
    const third = start();
    const keptReady = ready(third, 'kept');
    assert.equal((await stateOf(third, 'kept'))?.status, 'connecting');
    await keptReady;
    assert.ok(connected.includes('kept'));
  });

  it('forgets the Disconnect of a server removed: one added again under its id connects at start', async () => {
    const first = start();
    await first.call('servers.add', saved('again'));
    await first.call('servers.connect', { serverId: 'again' });
    await first.call('servers.disconnect', { serverId: 'again' });
    await first.call('servers.remove', { serverId: 'again' });
    await first.call('servers.add', saved('again'));
    assert.equal((await stateOf(first, 'again'))?.stayDisconnected, undefined);
    await first.close();

    const second = start();
    const againReady = ready(second, 'again');
    assert.equal((await stateOf(second, 'again'))?.status, 'connecting');
    await againReady;
  });
});
