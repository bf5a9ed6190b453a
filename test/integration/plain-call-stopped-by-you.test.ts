import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { EditableServer } from '../../app/contract/server-settings.js';
import { createHost, type Host } from '../../app/host/host.js';
import { nextEvent, peerServer, startHostWith, tempDir, type PeerServer } from '../support/host-fixture.js';

/** A server whose `wait` tool runs until it is cancelled; `started` resolves once a call of it runs. */
function waitingServer(): PeerServer & { started: Promise<void> } {
  const server = new Server({ name: 'waits', version: '1.0.0' }, { capabilities: { tools: {} } });
  let running!: () => void;
  const started = new Promise<void>((resolve) => (running = resolve));
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: 'wait', inputSchema: { type: 'object' } }]
  }));
  server.setRequestHandler(
    CallToolRequestSchema,
    (_request, extra): Promise<CallToolResult> =>
      new Promise((resolve) => {
        running();
        extra.signal.addEventListener('abort', () => resolve({ content: [{ type: 'text', text: 'stopped' }] }), {
          once: true
        });
      })
  );
  return { ...peerServer('waits'), server, started };
}

/**
 * A host with one server `books` saved from the Desk (Remove and Edit take only those), a stdio
 * server whose every process is the in-memory `peer`, connected.
 */
async function savedServer(peer: PeerServer, cleanups: Array<() => Promise<void>>): Promise<Host> {
  const data = tempDir();
  const host = createHost({
    dataDir: data.dir,
    autoConnect: false,
    transportFactory: () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      void peer.server.connect(serverSide);
      return clientSide;
    }
  });
  cleanups.push(async () => {
    await host.close();
    await peer.server.close().catch(() => undefined);
    data.remove();
  });
  await host.call('servers.add', {
    id: 'books',
    name: 'Books',
    autoConnect: false,
    transport: { type: 'stdio', command: 'books-server', args: ['--shelf', 'one'] }
  });
  const view = await host.call('servers.connect', { serverId: 'books' });
  assert.equal(view.state.status, 'ready', view.state.reason);
  return host;
}

async function settingsOf(host: Host): Promise<EditableServer> {
  const { id: _id, editable: _editable, ...settings } = await host.call('servers.get', { serverId: 'books' });
  return settings;
}

/**
 * Calls `wait` on `serverId`, does `act` once the server runs it, and resolves with how the call
 * ended: the caller's reply, the call's last view and its History entry.
 */
async function endedBy(host: Host, peer: { started: Promise<void> }, act: () => Promise<unknown>, serverId = 'a') {
  const lastView = nextEvent(host, 'call.changed', ({ call }) => call.callId === 'c1' && call.state !== 'running');
  const entry = nextEvent(host, 'history.changed', ({ entry }) => entry.kind === 'tool-call');
  const reply = host.dispatch('tools.call', { serverId, name: 'wait', callId: 'c1' });
  await peer.started;
  await act();
  const answered = await reply;
  const { call } = await lastView;
  const { entry: recorded } = await entry;
  return {
    error: answered.ok ? undefined : answered.error,
    view: { state: call.state, message: call.error?.message },
    history: { status: recorded.status, cancelledBy: recorded.cancelledBy }
  };
}

describe('a plain call an act of the person’s breaks off', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  const joined = async () => {
    const peer = waitingServer();
    const fixture = await startHostWith({ a: peer });
    cleanups.push(() => fixture.dispose());
    return { host: fixture.host, peer };
  };

  it('ends stopped by the person who disconnected its server, in their act’s words, not as a failure', async () => {
    const { host, peer } = await joined();
    const ended = await endedBy(host, peer, () => host.call('servers.disconnect', { serverId: 'a' }));
    assert.deepEqual(ended, {
      error: {
        code: -32800,
        message: 'You disconnected Server a',
        data: { cancelledBy: 'you', yourAct: 'You disconnected Server a' }
      },
      view: { state: 'cancelled', message: 'You disconnected Server a' },
      history: { status: 'cancelled', cancelledBy: 'you' }
    });
  });

  it('ends stopped by the person who removed its server', async () => {
    const peer = waitingServer();
    const host = await savedServer(peer, cleanups);
    const ended = await endedBy(host, peer, () => host.call('servers.remove', { serverId: 'books' }), 'books');
    assert.deepEqual(ended, {
      error: { code: -32800, message: 'You removed Books', data: { cancelledBy: 'you', yourAct: 'You removed Books' } },
      view: { state: 'cancelled', message: 'You removed Books' },
      history: { status: 'cancelled', cancelledBy: 'you' }
    });
  });

  it('ends stopped by the person whose Save of its server’s settings restarted it', async () => {
    const peer = waitingServer();
    const host = await savedServer(peer, cleanups);
    const words = 'You changed Books’s settings, and Taskdesk restarted it';
    const ended = await endedBy(
      host,
      peer,
      async () =>
        host.call('servers.update', {
          serverId: 'books',
          settings: {
            ...(await settingsOf(host)),
            transport: { type: 'stdio', command: 'books-server', args: ['--shelf', 'two'], env: [] }
          }
        }),
      'books'
    );
    assert.deepEqual(ended, {
      error: { code: -32800, message: words, data: { cancelledBy: 'you', yourAct: words } },
      view: { state: 'cancelled', message: words },
      history: { status: 'cancelled', cancelledBy: 'you' }
    });
  });

  it('still fails with "Connection closed" when the server drops the connection itself', async () => {
    const { host, peer } = await joined();
    const ended = await endedBy(host, peer, () => peer.server.close());
    assert.equal(ended.error?.code, -32000);
    assert.match(ended.error?.message ?? '', /Connection closed/);
    assert.equal((ended.error?.data as { cancelledBy?: unknown } | undefined)?.cancelledBy, undefined);
    assert.deepEqual(ended.view, { state: 'failed', message: ended.error?.message });
    assert.deepEqual(ended.history, { status: 'failed', cancelledBy: undefined });
  });
});
