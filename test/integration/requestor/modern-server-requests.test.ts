import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createHost, type Host } from '../../../app/host/host.js';
import { tempDir } from '../../support/host-fixture.js';
import { RawPeer } from '../../support/raw-peer.js';
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

describe('lines a 2026-07-28 server writes over stdio that are not valid JSON-RPC', () => {
  const data = tempDir();
  const peer = new RawPeer('raw-modern', { era: 'modern' });
  let host: Host;

  before(async () => {
    host = createHost({
      dataDir: path.join(data.dir, 'host'),
      autoConnect: false,
      probeTimeoutMs: 60_000,
      servers: [{ ...peer.config, autoConnect: false }]
    });
    const view = await host.connect(peer.config.id);
    assert.equal(view.state.era, 'modern', view.state.reason);
  });

  after(async () => {
    await host.close();
    peer.close();
    data.remove();
  });

  it('are dropped unanswered (the client writes no responses), and the connection stays up', async () => {
    const answer = host.call('prompts.get', { serverId: peer.config.id, name: 'greeting' });
    const request = await peer.next((m) => m.method === 'prompts/get');
    const nested = `${'{"a":'.repeat(200)}1${'}'.repeat(200)}`;
    // Each of these a legacy server gets an error answer for (−32700, −32600, −32602). Then the
    // answer to the host's request, on the same ordered pipe: once the host has it, it has read
    // (and would have answered) every line before it.
    await peer.send(
      [
        'this is not json',
        '{"jsonrpc":"2.0","id":"bad-envelope","method":5}',
        `{"jsonrpc":"2.0","id":"too-deep","method":"ping","params":${nested}}`,
        JSON.stringify({ jsonrpc: '2.0', id: request.id, result: { resultType: 'complete', messages: [] } }),
        ''
      ].join('\n')
    );
    assert.deepEqual(await answer, { messages: [] });
    // A write the host made in the same turn goes out at its end: one more round trip covers it.
    const again = host.call('prompts.get', { serverId: peer.config.id, name: 'again' });
    const second = await peer.next((m) => m.method === 'prompts/get' && m.id !== request.id);
    await peer.send(
      `${JSON.stringify({ jsonrpc: '2.0', id: second.id, result: { resultType: 'complete', messages: [] } })}\n`
    );
    await again;
    assert.deepEqual(
      peer.received.filter((m) => m.method === undefined),
      [],
      'no response written to the server'
    );
    assert.equal(host.connection(peer.config.id)?.state.status, 'ready');
    // Where a person (or the server's author) can see them: the audit log, one entry each.
    const ignored = await host.call('audit.read', { type: 'server.line-ignored' });
    assert.deepEqual(
      ignored.map((entry) => [entry.serverId, (entry.detail as { reason: string }).reason.split(':')[0]]),
      [
        [peer.config.id, 'Ignored a line from the server'],
        [peer.config.id, 'Ignored a line from the server'],
        [peer.config.id, 'Ignored a line from the server']
      ]
    );
    assert.match(
      (ignored.at(-1)!.detail as { reason: string }).reason,
      /Parse error/,
      'the oldest: the line that was not JSON'
    );
  });
});

describe('lines around the start of a 2026-07-28 server over stdio', () => {
  const data = tempDir();
  after(() => data.remove());

  /**
   * Connects a host to `peer` (with the protocol given, or auto), then makes one round trip of
   * its own: every line the peer wrote before its answer has been read by then. Resolves with
   * the responses the host wrote to the peer.
   */
  async function responsesTo(peer: RawPeer, protocol?: '2026-07-28', probeTimeoutMs = 60_000): Promise<unknown[]> {
    const host = createHost({
      dataDir: path.join(data.dir, peer.config.id),
      autoConnect: false,
      probeTimeoutMs,
      servers: [{ ...peer.config, autoConnect: false, ...(protocol && { protocol }) }]
    });
    try {
      const view = await host.connect(peer.config.id);
      assert.equal(view.state.era, 'modern', view.state.reason);
      const answer = host.call('prompts.get', { serverId: peer.config.id, name: 'greeting' });
      const request = await peer.next((m) => m.method === 'prompts/get');
      await peer.send(
        `${JSON.stringify({ jsonrpc: '2.0', id: request.id, result: { resultType: 'complete', messages: [] } })}\n`
      );
      await answer;
      return peer.received.filter((m) => m.method === undefined);
    } finally {
      await host.close();
      peer.close();
    }
  }

  it('answers none of the lines that came in the same write as its DiscoverResult', async () => {
    const peer = new RawPeer('same-write', {
      era: 'modern',
      afterDiscover:
        'not json\n{"jsonrpc":"2.0","id":"bad-envelope","method":5}\n{"jsonrpc":"2.0","id":7,"method":"ping"}\n'
    });
    assert.deepEqual(await responsesTo(peer), []);
  });

  it('answers nothing from a server set to 2026-07-28, a banner before its DiscoverResult included', async () => {
    const peer = new RawPeer('pinned', { era: 'modern', banner: 'Starting the server…\n' });
    assert.deepEqual(await responsesTo(peer, '2026-07-28'), []);
  });

  it('answers none of the lines that came with a DiscoverResult too late for the probe, during initialize', async () => {
    // The probe gives up after 200 ms and initialize goes out; the answer comes 1 s after the probe.
    const peer = new RawPeer('late', {
      era: 'modern',
      discoverDelayMs: 1_000,
      ignoreInitialize: true,
      afterDiscover: 'not json\n{"jsonrpc":"2.0","id":"bad-envelope","method":5}\n'
    });
    assert.deepEqual(await responsesTo(peer, undefined, 200), []);
  });
});
