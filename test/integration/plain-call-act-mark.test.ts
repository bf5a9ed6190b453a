import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  McpError,
  UrlElicitationRequiredError
} from '@modelcontextprotocol/sdk/types.js';
import { createHost, type Host } from '../../app/host/host.js';
import { nextEvent, tempDir } from '../support/host-fixture.js';

/**
 * A 2025-11-25 server whose `read-shelf` needs a link opened first (−32042). Sent again after the
 * link, the first time it runs until the connection goes (`sentAgain` resolves once it does); the
 * next time, it answers −32000 of its own (a gateway whose shelf went away). Each connection is a
 * new in-memory `Server`, the latest in `latest()`.
 */
function linkFirstServer() {
  let resent!: () => void;
  const sentAgain = new Promise<void>((resolve) => (resent = resolve));
  let calls = 0;
  const servers: Server[] = [];
  const make = (): Server => {
    const server = new Server({ name: 'shelves', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [{ name: 'read-shelf', inputSchema: { type: 'object' } }]
    }));
    server.setRequestHandler(CallToolRequestSchema, () => {
      calls += 1;
      if (calls === 1)
        throw new UrlElicitationRequiredError([
          {
            mode: 'url',
            elicitationId: 'shelf-link',
            url: 'https://shelves.example.com/connect',
            message: 'Sign in to Example shelves.'
          }
        ]);
      if (calls === 2) {
        resent();
        return new Promise<never>(() => undefined);
      }
      throw new McpError(-32000, 'Connection closed by the shelf');
    });
    servers.push(server);
    return server;
  };
  return { make, sentAgain, latest: () => servers.at(-1)!, all: servers };
}

describe('a plain call that outlives the close of an act of the person’s', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('is not said to be stopped by the person when a later connection of its server ends it', async () => {
    const peer = linkFirstServer();
    const data = tempDir();
    const host: Host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      servers: [
        { id: 'shelves', name: 'Shelves', protocol: '2025-11-25', transport: { type: 'stdio', command: 'in-memory' } }
      ],
      transportFactory: () => {
        const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
        void peer.make().connect(serverSide);
        return clientSide;
      }
    });
    cleanups.push(async () => {
      await host.close();
      for (const server of peer.all) await server.close().catch(() => undefined);
      data.remove();
    });
    assert.equal((await host.connect('shelves')).state.status, 'ready');
    const running = async () => (await host.call('tools.runningCalls', {})).map(({ callId, state }) => [callId, state]);

    const lastView = nextEvent(host, 'call.changed', ({ call }) => call.callId === 'c1' && call.state !== 'running');
    const entry = nextEvent(host, 'history.changed', ({ entry }) => entry.kind === 'tool-call');
    const reply = host.dispatch('tools.call', { serverId: 'shelves', name: 'read-shelf', callId: 'c1' });
    // The link is asked; the person agrees to open it, and the call waits for them: nothing in flight.
    const { item } = await nextEvent(host, 'inbox.added', ({ item }) => item.serverId === 'shelves');
    const waiting = nextEvent(host, 'exchange.changed', ({ exchange }) => exchange?.state === 'waiting-for-you');
    await host.call('inbox.answer', { id: item.id, answer: { action: 'accept' } });
    const { exchangeId } = await waiting;

    // The person disconnects: the close breaks nothing of the call off, and it goes on.
    await host.call('servers.disconnect', { serverId: 'shelves' });
    assert.deepEqual(await running(), [['c1', 'running']]);

    // Connected again, the call is sent again; the server drops that connection itself: the call
    // waits for the server to come back, as a call waiting on a link does.
    assert.equal((await host.call('servers.connect', { serverId: 'shelves' })).state.status, 'ready');
    await host.call('exchanges.continue', { exchangeId });
    await peer.sentAgain;
    const dropped = nextEvent(
      host,
      'server.state',
      ({ serverId, state }) => serverId === 'shelves' && state.status === 'failed'
    );
    await peer.latest().close();
    await dropped;
    assert.deepEqual(await running(), [['c1', 'running']]);

    // Back, the server ends the call with a −32000 of its own: a failure in its words, not the
    // person's Disconnect of long before.
    assert.equal((await host.call('servers.connect', { serverId: 'shelves' })).state.status, 'ready');
    const answered = await reply;
    const { call } = await lastView;
    const { entry: recorded } = await entry;
    const message =
      'Tool "read-shelf" on "Shelves" refused the request sent again after the link (round 1): Connection closed by the shelf';
    assert.deepEqual(answered.ok ? undefined : answered.error, { code: -32000, message, data: { round: 1 } });
    assert.deepEqual({ state: call.state, message: call.error?.message }, { state: 'failed', message });
    assert.deepEqual(
      { status: recorded.status, cancelledBy: recorded.cancelledBy },
      { status: 'failed', cancelledBy: undefined }
    );
  });
});
