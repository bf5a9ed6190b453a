import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { startBrowserServer, type BrowserServer } from '../../app/browser/browser-server.js';
import { peerServer, startHostWith, type InMemoryHostFixture, type PeerServer } from '../support/host-fixture.js';
import { buildRenderer } from './renderer-build.js';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A raw HTTP request, so that Host, Origin and Sec-Fetch-Site can be set as a hostile page would. */
function request(
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string }
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path, headers: options.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') })
        );
      }
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('browser-mode server', () => {
  let built: Awaited<ReturnType<typeof buildRenderer>>;
  let peer: PeerServer;
  let fixture: InMemoryHostFixture;
  let server: BrowserServer;
  let good: Record<string, string>;

  before(async () => {
    built = await buildRenderer();
    peer = peerServer();
    fixture = await startHostWith({ a: peer });
    server = await startBrowserServer({ host: fixture.host, rendererDir: built.dir });
    good = {
      host: `127.0.0.1:${server.port}`,
      origin: server.origin,
      'content-type': 'application/json',
      'x-taskdesk-token': server.token
    };
  });

  after(async () => {
    await server?.close();
    await fixture?.dispose();
    built?.remove();
  });

  const call = (headers: Record<string, string>, body: unknown = { method: 'servers.list', params: {} }) =>
    request(server.port, {
      method: 'POST',
      path: '/api/call',
      headers,
      body: typeof body === 'string' ? body : JSON.stringify(body)
    });

  it('listens on loopback with a random port and a long random token in the URL', () => {
    assert.ok(server.port > 0);
    assert.match(server.url, new RegExp(`^http://127\\.0\\.0\\.1:${server.port}/\\?token=[A-Za-z0-9_-]{43}$`));
  });

  it('serves the renderer with a strict Content-Security-Policy and no referrer', async () => {
    const page = await request(server.port, { path: '/', headers: { host: good.host! } });
    assert.equal(page.status, 200);
    assert.match(page.headers['content-type'] ?? '', /text\/html/);
    const csp = String(page.headers['content-security-policy']);
    for (const directive of [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "connect-src 'self'",
      "frame-ancestors 'none'",
      "object-src 'none'"
    ]) {
      assert.ok(csp.includes(directive), `CSP has ${directive}`);
    }
    assert.ok(!csp.includes('unsafe-inline') && !csp.includes('unsafe-eval'));
    assert.equal(page.headers['referrer-policy'], 'no-referrer');
    assert.equal(page.headers['x-content-type-options'], 'nosniff');
    const script = await request(server.port, { path: '/main.js', headers: { host: good.host! } });
    assert.equal(script.status, 200);
    assert.match(script.headers['content-type'] ?? '', /text\/javascript/);
  });

  it('serves nothing outside the renderer directory, and no source or unknown file types', async () => {
    // A servable file just outside the directory: only the path checks keep it in.
    fs.writeFileSync(path.join(built.dir, '..', 'outside.js'), 'secret');
    assert.equal((await request(server.port, { path: '/..%2Foutside.js', headers: { host: good.host! } })).status, 404);
    assert.equal(
      (await request(server.port, { path: '/%2e%2e/outside.js', headers: { host: good.host! } })).status,
      404
    );
    for (const file of [
      '/../package.json',
      '/%2e%2e/%2e%2e/package.json',
      '/..%2F..%2Fpackage.json',
      '/app.d.ts',
      '/nope.js',
      '/tsconfig.json'
    ]) {
      const answer = await request(server.port, { path: file, headers: { host: good.host! } });
      assert.equal(answer.status, 404, file);
    }
  });

  it('answers a call from our page with the host reply', async () => {
    const answer = await call(good);
    assert.equal(answer.status, 200);
    const reply = JSON.parse(answer.body) as { ok: boolean; result: Array<{ id: string; state: { status: string } }> };
    assert.equal(reply.ok, true);
    assert.deepEqual(
      reply.result.map((s) => [s.id, s.state.status]),
      [['a', 'ready']]
    );
  });

  it('passes errors as data with their codes: invalid params, unknown methods (prototype names included), bad JSON', async () => {
    const invalid = JSON.parse((await call(good, { method: 'servers.connect', params: { serverId: 42 } })).body) as {
      ok: false;
      error: { code: number; message: string };
    };
    assert.deepEqual([invalid.ok, invalid.error.code], [false, -32602]);
    assert.match(invalid.error.message, /serverId/);
    for (const method of ['nope', 'constructor', '__proto__', 'toString', 7]) {
      const reply = JSON.parse((await call(good, { method, params: {} })).body) as {
        ok: false;
        error: { code: number };
      };
      assert.deepEqual([reply.ok, reply.error.code], [false, -32601], String(method));
    }
    const broken = await call(good, '{not json');
    assert.equal(broken.status, 400);
    assert.equal((JSON.parse(broken.body) as { error: { code: number } }).error.code, -32700);
  });

  it('refuses calls without the token, with a wrong one, or from another origin or host name', async () => {
    const { 'x-taskdesk-token': _token, ...noToken } = good;
    const cases: Array<[string, Record<string, string>, number]> = [
      ['no token', noToken, 401],
      ['wrong token', { ...good, 'x-taskdesk-token': `${server.token.slice(0, -1)}x` }, 401],
      ['short token', { ...good, 'x-taskdesk-token': 'abc' }, 401],
      ['foreign origin', { ...good, origin: 'http://127.0.0.1:1' }, 403],
      ['evil origin', { ...good, origin: 'https://evil.example' }, 403],
      ['no origin', Object.fromEntries(Object.entries(good).filter(([name]) => name !== 'origin')), 403],
      [
        'rebinding host',
        { ...good, host: `evil.example:${server.port}`, origin: `http://evil.example:${server.port}` },
        403
      ],
      ['cross-site fetch', { ...good, 'sec-fetch-site': 'cross-site' }, 403],
      ['form post', { ...good, 'content-type': 'text/plain' }, 415]
    ];
    for (const [name, headers, status] of cases) {
      const answer = await call(headers);
      assert.equal(answer.status, status, name);
      assert.equal((JSON.parse(answer.body) as { ok: boolean }).ok, false, name);
    }
    const get = await request(server.port, { path: '/api/call', headers: good });
    assert.equal(get.status, 405);
  });

  it('refuses the event stream without the token', async () => {
    const answer = await request(server.port, { path: '/api/events', headers: { host: good.host! } });
    assert.equal(answer.status, 401);
    const wrong = await request(server.port, { path: '/api/events?token=wrong', headers: { host: good.host! } });
    assert.equal(wrong.status, 401);
  });

  it('streams host events as Server-Sent Events of { event, payload }', async () => {
    const events: Array<{ event: string; payload: Record<string, unknown> }> = [];
    const stream = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http
        .get(
          {
            host: '127.0.0.1',
            port: server.port,
            path: `/api/events?token=${server.token}`,
            headers: { host: good.host! }
          },
          resolve
        )
        .on('error', reject);
    });
    assert.equal(stream.statusCode, 200);
    assert.match(String(stream.headers['content-type']), /text\/event-stream/);
    const added = new Promise<void>((resolve) => {
      let buffer = '';
      stream.on('data', (chunk: Buffer) => {
        buffer += chunk.toString('utf8');
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block.split('\n').find((line) => line.startsWith('data: '));
          if (data) events.push(JSON.parse(data.slice(6)) as (typeof events)[number]);
          if (events.some((e) => e.event === 'inbox.added')) resolve();
        }
      });
    });
    const { task } = await peer.server.request(
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'Name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
          task: { ttl: 60_000 }
        }
      },
      CreateTaskResultSchema
    );
    await added;
    stream.destroy();
    const inboxAdded = events.find((e) => e.event === 'inbox.added')!;
    assert.equal((inboxAdded.payload.item as { id: string }).id, task.taskId);
    assert.ok(events.some((e) => e.event === 'task.changed' && e.payload.taskId === task.taskId));
  });
});
