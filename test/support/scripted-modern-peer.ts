import assert from 'node:assert/strict';
import path from 'node:path';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Clock } from '../../app/core/clock.js';
import { createHost, type Host } from '../../app/host/host.js';
import { tempDir } from './host-fixture.js';

/** A request the scripted peer gets. */
export type ScriptedRequest = JSONRPCRequest;

/** The `server/discover` answer of a 2026-07-28 server with `capabilities`. */
export function discoverResult(capabilities: Record<string, unknown>): Record<string, unknown> {
  return {
    resultType: 'complete',
    supportedVersions: ['2026-07-28'],
    capabilities,
    _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'scripted', version: '1' } }
  };
}

/**
 * The answers of a server that has prompts and nothing else: `server/discover` and an empty
 * `prompts/get`.
 */
export function promptsOnly(request: ScriptedRequest): Record<string, unknown> | undefined {
  if (request.method === 'server/discover') return discoverResult({ prompts: {} });
  if (request.method === 'prompts/get') return { resultType: 'complete', messages: [] };
  return undefined;
}

/** What {@link startScriptedModernHost} hands out. */
export type ScriptedModernHost = Awaited<ReturnType<typeof startScriptedModernHost>>;

/**
 * A host connected to one 2026-07-28 server ("scripted") that is a scripted JSON-RPC peer at the
 * far end of an in-memory transport pair: it records every message the host sends it, in order
 * (`received`), and answers each request with `answer`'s result, or −32601 when that gives none
 * (`null`: no answer, the request stays open).
 * The connection is checked to be modern before the fixture is handed out. `clock`: the host's.
 */
export async function startScriptedModernHost(
  answer: (request: ScriptedRequest) => Record<string, unknown> | undefined | null,
  options: { clock?: Clock } = {}
) {
  const data = tempDir();
  const received: JSONRPCMessage[] = [];
  const [client, server] = InMemoryTransport.createLinkedPair();
  server.onmessage = (message) => {
    received.push(message);
    if (!('method' in message) || !('id' in message)) return;
    const result = answer(message);
    // Left open (a `subscriptions/listen` stream the test keeps).
    if (result === null) return;
    void server.send(
      result === undefined
        ? { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } }
        : { jsonrpc: '2.0', id: message.id, result }
    );
  };
  await server.start();
  const host: Host = createHost({
    dataDir: path.join(data.dir, 'host'),
    autoConnect: false,
    probeTimeoutMs: 60_000,
    ...(options.clock && { clock: options.clock }),
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
  return {
    host,
    /** The server's end of the pair, to send the host messages of its own. */
    server,
    received,
    async dispose(): Promise<void> {
      await host.close();
      data.remove();
    }
  };
}
