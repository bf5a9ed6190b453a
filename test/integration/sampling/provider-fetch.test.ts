import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import zlib from 'node:zlib';
import { createProviderClient } from '../../../app/sampling/provider-client.js';
import { providerFetch } from '../../../app/sampling/provider-fetch.js';
import { classifyProviderError } from '../../../app/sampling/provider-failure.js';

/** One SSE chunk of a streamed chat completion that adds `text`. */
const chunk = (text: string) =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta: { content: text }, finish_reason: null }] })}\n\n`;

/**
 * The `fetch` of the provider clients (undici's `request` as a `fetch`), against a real HTTP
 * server on 127.0.0.1: what the `openai` SDK and the failure classifier rely on in Node's own
 * `fetch` holds for it too.
 */
describe('the provider clients’ fetch', () => {
  let server: http.Server;
  let base: string;
  const seen: Array<{ method: string; url: string; body: string; headers: http.IncomingHttpHeaders }> = [];

  before(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (part: Buffer) => (body += part.toString('utf8')));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', url: req.url ?? '', body, headers: req.headers });
        switch (req.url) {
          case '/moved/chat/completions':
            res.writeHead(307, { location: '/v1/chat/completions' }).end();
            return;
          case '/v1/chat/completions':
            res.writeHead(200, { 'content-type': 'text/event-stream', 'set-cookie': ['a=1', 'b=2'] });
            res.end(`${chunk('Hel')}${chunk('lo')}data: [DONE]\n\n`);
            return;
          case '/gzip':
            res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
            res.end(zlib.gzipSync(JSON.stringify({ ok: true })));
            return;
          case '/packed/chat/completions':
            // An error a proxy compressed though nothing asked it to: its words are quoted.
            res.writeHead(400, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
            res.end(zlib.gzipSync(JSON.stringify({ error: { message: 'context too long' } })));
            return;
          case '/drop/chat/completions':
            res.writeHead(200, { 'content-type': 'text/event-stream' });
            res.write(chunk('Hel'));
            setImmediate(() => req.socket.destroy());
            return;
          case '/hold':
            // Headers never come: the caller aborts.
            return;
          default: {
            // /loop/<n>: a redirect to /loop/<n + 1>, without end.
            const loop = /^\/loop\/(\d+)$/.exec(req.url ?? '');
            if (loop) {
              res.writeHead(307, { location: `/loop/${Number(loop[1]) + 1}` }).end();
              return;
            }
            res.writeHead(404).end();
          }
        }
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it('streams a chat completion to the SDK, following a redirect with the request as it was', async () => {
    const client = createProviderClient({ id: 'p', name: 'Local', baseURL: `${base}/moved`, models: [] }, 'k-1');
    seen.length = 0;
    let text = '';
    const stream = await client.chat.completions.create({
      model: 'm',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }]
    });
    for await (const part of stream) text += part.choices[0]?.delta.content ?? '';
    assert.equal(text, 'Hello');
    assert.deepEqual(
      seen.map((request) => [request.method, request.url]),
      [
        ['POST', '/moved/chat/completions'],
        ['POST', '/v1/chat/completions']
      ]
    );
    // A 307 sends the same body and headers again.
    assert.equal(seen[1]!.body, seen[0]!.body);
    assert.equal(seen[1]!.headers.authorization, 'Bearer k-1');
    assert.equal(JSON.parse(seen[1]!.body).model, 'm');
  });

  it('keeps every value of a repeated header, and decompresses a compressed answer', async () => {
    const streamed = await providerFetch(`${base}/v1/chat/completions`, { method: 'POST', body: '{}' });
    assert.equal(streamed.headers.get('set-cookie'), 'a=1, b=2');
    await streamed.text();
    const packed = await providerFetch(`${base}/gzip`);
    assert.equal(packed.headers.get('content-encoding'), null);
    assert.deepEqual(await packed.json(), { ok: true });
    // An error's words too, which the failure message quotes.
    const client = createProviderClient({ id: 'p', name: 'Packed', baseURL: `${base}/packed`, models: [] }, 'k');
    const failed = await client.chat.completions
      .create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] })
      .catch((error: unknown) => error);
    const failure = classifyProviderError(failed, { providerName: 'Packed', baseURL: `${base}/packed` });
    assert.equal(failure.kind, 'bad-request');
    assert.match(failure.message, /context too long/);
    // Nothing asked for it: the request said no encoding.
    assert.equal(seen.at(-1)!.headers['accept-encoding'], undefined);
  });

  it('decompresses without an experimental feature of Node (which would warn at every start)', async () => {
    // In a process of its own: Node warns of an experimental feature once a process, and the
    // integration tests share one, so a warning another file set off first would not show here.
    const script = `
      import { providerFetch } from ${JSON.stringify(new URL('../../../app/sampling/provider-fetch.ts', import.meta.url).href)};
      const warnings = [];
      process.on('warning', (warning) => warnings.push(warning.name + ': ' + warning.message));
      const packed = await providerFetch(${JSON.stringify(`${base}/gzip`)});
      const body = await packed.json();
      await new Promise((resolve) => setImmediate(resolve));
      console.log(JSON.stringify({ body, warnings }));
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], {
      stdio: ['ignore', 'pipe', 'inherit']
    });
    let out = '';
    child.stdout.on('data', (part: Buffer) => (out += part.toString('utf8')));
    const [code] = (await once(child, 'close')) as [number | null];
    assert.equal(code, 0);
    assert.deepEqual(JSON.parse(out), { body: { ok: true }, warnings: [] }, 'no experimental feature warned of');
  });

  it('follows twenty redirects, as fetch does, and fails past them as fetch fails', async () => {
    const twenty = await providerFetch(`${base}/loop/0`).catch((error: unknown) => error);
    assert.ok(twenty instanceof TypeError, String(twenty));
    assert.equal((twenty.cause as Error).message, 'redirect count exceeded');
    assert.equal(seen.filter((request) => request.url.startsWith('/loop/')).length, 21);
  });

  it('rejects a request it could not make as fetch does, which the classifier reads as unreachable', async () => {
    const closed = http.createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    await once(closed, 'close');
    const problem = await providerFetch(`http://127.0.0.1:${port}/v1/models`).catch((error: unknown) => error);
    assert.ok(problem instanceof TypeError);
    assert.equal(problem.message, 'fetch failed');
    assert.equal((problem.cause as { code?: string }).code, 'ECONNREFUSED');
    // Through the SDK, as a provider's model list is asked for.
    const client = createProviderClient(
      { id: 'p', name: 'Gone', baseURL: `http://127.0.0.1:${port}/v1`, models: [] },
      undefined
    );
    const failed = await client.models.list().catch((error: unknown) => error);
    const failure = classifyProviderError(failed, { providerName: 'Gone', baseURL: `http://127.0.0.1:${port}/v1` });
    assert.equal(failure.kind, 'unreachable');
  });

  it('rejects with the signal’s reason when it is aborted before the answer comes', async () => {
    const controller = new AbortController();
    const asked = providerFetch(`${base}/hold`, { signal: controller.signal });
    const reason = new DOMException('Stopped', 'AbortError');
    setImmediate(() => controller.abort(reason));
    assert.equal(await asked.catch((error: unknown) => error), reason);
  });

  it('ends a stream whose connection drops in an error the classifier reads as dropped', async () => {
    const client = createProviderClient({ id: 'p', name: 'Flaky', baseURL: `${base}/drop`, models: [] }, undefined);
    let text = '';
    const problem = await (async () => {
      const stream = await client.chat.completions.create({
        model: 'm',
        stream: true,
        messages: [{ role: 'user', content: 'hi' }]
      });
      for await (const part of stream) text += part.choices[0]?.delta.content ?? '';
    })().catch((error: unknown) => error);
    assert.equal(text, 'Hel');
    assert.equal(classifyProviderError(problem, { providerName: 'Flaky', baseURL: `${base}/drop` }).kind, 'dropped');
  });

  it('hands a body that is neither text nor bytes to Node’s fetch', async () => {
    seen.length = 0;
    const form = new FormData();
    form.set('field', 'value');
    const answer = await providerFetch(`${base}/form`, { method: 'POST', body: form });
    assert.equal(answer.status, 404);
    assert.match(String(seen[0]!.headers['content-type']), /^multipart\/form-data; boundary=/);
    assert.match(seen[0]!.body, /name="field"\r\n\r\nvalue/);
  });
});
