import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Host } from '../../../app/host/host.js';
import { startScriptedModernHost, promptsOnly, type ScriptedModernHost } from '../../support/scripted-modern-peer.js';

/**
 * A 2026-07-28 server that sends requests of its own, as a legacy server may. That revision has
 * no server-initiated requests (MRTR replaces them; stdio: "The server MUST NOT write JSON-RPC
 * requests", "The client MUST NOT write JSON-RPC responses"): Taskdesk answers none of them and
 * acts on none (nothing in the Inbox, no roots or tasks handed out).
 *
 * The server is a scripted JSON-RPC peer at the far end of an in-memory transport pair, which
 * records every message the host sends it, in order.
 */

describe('requests from a 2026-07-28 server', () => {
  let peer: ScriptedModernHost;
  let received: JSONRPCMessage[];
  let server: InMemoryTransport;
  let host: Host;

  before(async () => {
    peer = await startScriptedModernHost(promptsOnly);
    ({ host, received, server } = peer);
  });

  after(async () => {
    await peer.dispose();
  });

  it('answers none of them and acts on none', async () => {
    const requests: JSONRPCMessage[] = [
      { jsonrpc: '2.0', id: 'srv-1', method: 'ping' },
      {
        jsonrpc: '2.0',
        id: 'srv-2',
        method: 'elicitation/create',
        params: { mode: 'form', message: 'Your name?', requestedSchema: { type: 'object', properties: {} } }
      },
      { jsonrpc: '2.0', id: 'srv-3', method: 'roots/list' },
      { jsonrpc: '2.0', id: 'srv-4', method: 'tasks/list' },
      { jsonrpc: '2.0', id: 'srv-5', method: 'no/such-method' }
    ];
    for (const request of requests) await server.send(request);
    // Two round trips of the host's own after them: whatever the host would have answered (at
    // once, from its handlers) has been sent by then, on the one ordered transport.
    await host.call('prompts.get', { serverId: 'scripted', name: 'first' });
    await host.call('prompts.get', { serverId: 'scripted', name: 'second' });
    const answered = received.filter((m) => !('method' in m)).map((m) => ('id' in m ? m.id : undefined));
    assert.deepEqual(answered, [], 'no response to any server request');
    assert.deepEqual(await host.call('inbox.list', {}), [], 'nothing put before a person');
  });
});
