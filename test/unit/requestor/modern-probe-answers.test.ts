import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { probeHttpEra } from '../../../app/mcp/modern-http.js';
import { eraOfAnswer, probeAnswerOf, probeEra, watchInitialize } from '../../../app/mcp/modern-protocol.js';

/**
 * How the `server/discover` probe's answer is read, the same on stdio and Streamable HTTP: an
 * error without an id counts, −32020/−32021 are a modern server's refusal; and the probe POST's
 * headers (the user's, with ours set over them whatever their case).
 */

const clientInfo = { name: 'taskdesk-test', version: '0' };

test('an error answer with id null settles the stdio probe at once (legacy), as over HTTP', async () => {
  const [client, server] = InMemoryTransport.createLinkedPair();
  server.onmessage = () =>
    void server.send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } } as never);
  await server.start();
  const probe = await probeEra(client, clientInfo, 60_000);
  assert.equal(probe.era, 'legacy');
  assert.match(probe.era === 'legacy' ? probe.why : '', /-32700: Parse error/);
  await client.close();
});

test('−32020 and −32021 are a modern server refusing the probe (no fallback), on every transport', () => {
  for (const code of [-32020, -32021]) {
    const probe = eraOfAnswer({ error: { code, message: 'refused' } });
    assert.equal(probe.era, 'unsupported', String(code));
  }
  assert.equal(eraOfAnswer({ error: { code: -32601, message: 'Method not found' } }).era, 'legacy');
  assert.deepEqual(
    probeAnswerOf({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'bad' } }, { orphanErrors: true }),
    { error: { code: -32600, message: 'bad' } }
  );
  assert.equal(
    probeAnswerOf({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'bad' } }, { orphanErrors: false }),
    undefined
  );
  assert.equal(
    probeAnswerOf({ jsonrpc: '2.0', id: 7, result: {} }, { orphanErrors: true }),
    undefined,
    'another request’s answer'
  );
});

test('the HTTP probe sends the user’s headers once each, with ours set over case variants', async () => {
  const seen: Array<{ raw: string[] }> = [];
  const server = http.createServer((req, res) => {
    seen.push({ raw: req.rawHeaders });
    req.resume();
    req.on('end', () =>
      res
        .writeHead(400, { 'content-type': 'application/json' })
        .end('{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Bad Request: no session"}}')
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    const probe = await probeHttpEra(
      {
        type: 'http',
        url,
        headers: { Authorization: 'Bearer t', 'Content-Type': 'text/plain', 'MCP-Method': 'spoofed' }
      },
      clientInfo,
      10_000
    );
    assert.equal(probe.era, 'legacy');
    const names = (seen[0]?.raw ?? []).filter((_, index) => index % 2 === 0).map((name) => name.toLowerCase());
    const values = (name: string) =>
      (seen[0]?.raw ?? []).filter((_, index, raw) => index % 2 === 1 && raw[index - 1]?.toLowerCase() === name);
    for (const name of ['content-type', 'mcp-method', 'authorization'])
      assert.equal(names.filter((n) => n === name).length, 1, name);
    assert.deepEqual(values('content-type'), ['application/json']);
    assert.deepEqual(values('mcp-method'), ['server/discover']);
    assert.deepEqual(values('authorization'), ['Bearer t']);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

test('an HTTP probe answered 404 with −32601 is legacy (or unknown): initialize follows, no failure', async () => {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () =>
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end('{"jsonrpc":"2.0","id":"taskdesk-discover","error":{"code":-32601,"message":"Method not found"}}')
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const probe = await probeHttpEra(
      { type: 'http', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp` },
      clientInfo,
      10_000
    );
    assert.equal(probe.era, 'legacy');
    assert.match(probe.era === 'legacy' ? probe.why : '', /HTTP 404 \(-32601: Method not found\)/);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

test('the initialize watch puts the transport’s own handlers back when it stops after taking the transport', async () => {
  const [client, server] = InMemoryTransport.createLinkedPair();
  const own = { onmessage: () => undefined, onclose: () => undefined, onerror: () => undefined };
  Object.assign(client, own);
  await Promise.all([client.start(), server.start()]);
  const watch = watchInitialize(client, { lateProbe: true });
  // A modern refusal of initialize while the probe is unanswered: the watch takes the transport.
  await server.send({ jsonrpc: '2.0', id: 1, error: { code: -32022, message: 'Unsupported protocol version' } });
  assert.deepEqual(watch.refused, { code: -32022, message: 'Unsupported protocol version' });
  watch.stop();
  assert.equal(client.onmessage, own.onmessage);
  assert.equal(client.onclose, own.onclose);
  assert.equal(client.onerror, own.onerror);
  await client.close();
});
