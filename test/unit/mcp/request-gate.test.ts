import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { GatedTransport } from '../../../app/mcp/request-gate.js';
import { connectWithoutInitialize, handlesRequest, METHOD_NOT_FOUND } from '../../../app/mcp/sdk-seams.js';

/** A client behind a gate, and the server's end of an in-memory pair: what it sends, what it reads. */
async function gated(handles: (client: Client, method: string) => boolean) {
  const client = new Client({ name: 'c', version: '0' }, { capabilities: {} });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  let admitted = 0;
  const gate = new GatedTransport(clientSide, {
    admit: () => {
      admitted++;
      return undefined;
    },
    handles: (method) => handles(client, method)
  });
  const read: JSONRPCMessage[] = [];
  const waiting: Array<() => void> = [];
  serverSide.onmessage = (message) => {
    read.push(message);
    for (const wake of waiting.splice(0)) wake();
  };
  await serverSide.start();
  await connectWithoutInitialize(client, gate);
  const next = async () => {
    while (read.length === 0) await new Promise<void>((resolve) => waiting.push(resolve));
    return read.shift()!;
  };
  return { client, serverSide, next, admitted: () => admitted };
}

describe('the request gate', () => {
  it('answers a method the client has no handler for itself, once counted, as the SDK would', async () => {
    // Told that nothing is handled, the gate answers even ping: the SDK would have answered {}.
    const { client, serverSide, next, admitted } = await gated(() => false);
    await serverSide.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    assert.deepEqual(await next(), { jsonrpc: '2.0', id: 1, error: METHOD_NOT_FOUND });
    assert.equal(admitted(), 1);
    await client.close();
  });

  it('leaves to the SDK what is not a request it can read (no answer), and lets a handled one through', async () => {
    const { client, serverSide, next, admitted } = await gated(handlesRequest);
    for (const broken of [
      { jsonrpc: '2.0', id: null, method: 'no/such' },
      { jsonrpc: '2.0', id: 3, method: 'no/such', result: {} },
      { jsonrpc: '2.0', id: 4, method: 7 }
    ])
      await serverSide.send(broken as unknown as JSONRPCMessage);
    await serverSide.send({ jsonrpc: '2.0', id: 5, method: 'no/such/method' });
    await serverSide.send({ jsonrpc: '2.0', id: 6, method: 'ping' });
    // The first answers read are those of the two readable requests: none for the broken ones.
    assert.deepEqual(await next(), { jsonrpc: '2.0', id: 5, error: METHOD_NOT_FOUND });
    assert.deepEqual(await next(), { jsonrpc: '2.0', id: 6, result: {} });
    assert.equal(admitted(), 2);
    await client.close();
  });
});
