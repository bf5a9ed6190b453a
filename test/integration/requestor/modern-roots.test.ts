import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createHost, type Host } from '../../../app/host/host.js';
import { tempDir } from '../../support/host-fixture.js';
import { CAPABILITIES_KEY } from '../../support/modern-requestor.js';

/**
 * Roots towards a 2026-07-28 server. That revision removed `notifications/roots/list_changed`
 * (changelog, SEP-2575; the only notification a client sends is `notifications/cancelled`), and
 * with it the `listChanged` of the `roots` client capability (the schema's `roots` is `{}`): a
 * server asks for roots inside each request it needs them for, so a change needs no notice.
 *
 * The server is a scripted JSON-RPC peer at the far end of an in-memory transport pair, which
 * records every message the host sends it, in order.
 */

describe('roots towards a 2026-07-28 server', () => {
  const data = tempDir();
  const folders = tempDir('taskdesk-roots-');
  const received: JSONRPCMessage[] = [];
  let host: Host;

  before(async () => {
    const [client, server] = InMemoryTransport.createLinkedPair();
    server.onmessage = (message) => {
      received.push(message);
      if (!('method' in message) || !('id' in message)) return;
      const result =
        message.method === 'server/discover'
          ? {
              resultType: 'complete',
              supportedVersions: ['2026-07-28'],
              capabilities: { prompts: {} },
              _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'scripted', version: '1' } }
            }
          : message.method === 'prompts/get'
            ? { resultType: 'complete', messages: [] }
            : undefined;
      void server.send(
        result === undefined
          ? { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } }
          : { jsonrpc: '2.0', id: message.id, result }
      );
    };
    await server.start();
    host = createHost({
      dataDir: path.join(data.dir, 'host'),
      autoConnect: false,
      probeTimeoutMs: 60_000,
      servers: [
        {
          id: 'scripted',
          name: 'Scripted',
          transport: { type: 'stdio', command: 'unused', args: [] },
          autoConnect: false
        }
      ],
      transportFactory: () => client
    });
    const view = await host.connect('scripted');
    assert.equal(view.state.era, 'modern', view.state.reason);
  });

  after(async () => {
    await host.close();
    data.remove();
    folders.remove();
  });

  it('declares roots without listChanged in the envelope, which the revision no longer has', async () => {
    await host.call('prompts.get', { serverId: 'scripted', name: 'any' });
    const request = received.findLast((m) => 'method' in m && m.method === 'prompts/get');
    const params = (request && 'params' in request ? request.params : undefined) as
      { _meta?: Record<string, { roots?: unknown }> } | undefined;
    assert.deepEqual(params?._meta?.[CAPABILITIES_KEY]?.roots, {});
  });

  it('sends no notifications/roots/list_changed when the folders change: only a legacy server is told', async () => {
    await host.call('roots.set', { serverId: 'scripted', folders: [folders.dir] });
    // A request sent after the change arrives after anything the change sent (one ordered transport).
    await host.call('prompts.get', { serverId: 'scripted', name: 'after' });
    const methods = received.map((m) => ('method' in m ? m.method : undefined));
    assert.ok(methods.includes('prompts/get'));
    assert.deepEqual(
      methods.filter((m) => m?.startsWith('notifications/')),
      [],
      'no notification goes to a modern server for a roots change'
    );
  });
});
