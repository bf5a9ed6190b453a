import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { systemClock } from '../../../app/core/clock.js';
import { createHost, type Host } from '../../../app/host/host.js';
import { ServerEras } from '../../../app/host/server-eras.js';
import { ownerIdentity, type ServerConfig } from '../../../app/mcp/server-config.js';
import { confStoreFactory } from '../../../app/store/json-file-store.js';
import { nextEvent, tempDir } from '../../support/host-fixture.js';
import { CAPABILITIES_KEY, modernTaskCalls, TASKS, VERSION_KEY } from '../../support/modern-requestor.js';
import type { ReceivedHttpRequest } from '../../support/fetch-http-server.js';
import { serveModernHttp } from '../../support/modern-task-server.js';
import { recordingProxy, type ProxiedRequest, type ProxyIntercept } from '../../support/recording-proxy.js';
import { resultText } from '../../support/requestor-harness.js';
import { startTaskToolHttpServer } from '../../support/requestor-http-server.js';
import { ClockedTaskStore } from '../../support/requestor-task-store.js';

/**
 * The requestor against a real MCP 2026-07-28 server over Streamable HTTP (the v2 server
 * package's HTTP handler on 127.0.0.1, which itself refuses requests whose headers are missing
 * or disagree with the body): the `server/discover` probe, tool calls that become tasks of the
 * tasks extension, input requests answered with `tasks/update`, cancellation, plain results, the
 * request metadata headers on every POST; a dual-era server, a modern one with no version in
 * common, and a legacy server that still connects with `initialize`.
 */

/** Headers the user configured for the modern server; every request must carry them. */
const USER_HEADERS = { Authorization: 'Bearer modern-token', 'X-Team': 'desk' };

describe('requestor and a 2026-07-28 server over Streamable HTTP (tasks extension)', () => {
  let host: Host;
  const data = tempDir();
  let modern: Awaited<ReturnType<typeof serveModernHttp>>;
  let dual: Awaited<ReturnType<typeof serveModernHttp>>;
  let legacy: { close(): Promise<void> };
  let legacyWire: Awaited<ReturnType<typeof recordingProxy>>;
  let foreign: { url: string; received: string[]; close(): Promise<void> };

  before(async () => {
    modern = await serveModernHttp({ legacy: 'reject' });
    dual = await serveModernHttp({ legacy: 'stateless' });
    const legacyServer = await startTaskToolHttpServer({
      clock: systemClock,
      store: new ClockedTaskStore({ clock: systemClock, pollInterval: 100 })
    });
    legacyWire = await recordingProxy(legacyServer.url);
    legacy = legacyServer;
    foreign = await serveFutureOnly();
    host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      servers: [
        { id: 'modern', name: 'Modern (HTTP)', transport: { type: 'http', url: modern.url, headers: USER_HEADERS } },
        { id: 'dual', name: 'Dual-era (HTTP)', transport: { type: 'http', url: dual.url } },
        { id: 'legacy', name: 'Legacy (HTTP)', transport: { type: 'http', url: legacyWire.url } },
        { id: 'future', name: 'Future (HTTP)', transport: { type: 'http', url: foreign.url } }
      ]
    });
    const view = await host.connect('modern');
    assert.equal(view.state.status, 'ready', view.state.reason);
  });

  after(async () => {
    await host.close();
    await Promise.all([modern.close(), dual.close(), legacyWire.close(), legacy.close(), foreign.close()]);
    data.remove();
  });

  /** The JSON-RPC requests the modern server received, in order. */
  const requestsTo = (endpoint: { received: ReceivedHttpRequest[] }) =>
    endpoint.received.filter((r) => r.body?.method !== undefined && r.body.id !== undefined);

  const { startTask, settled } = modernTaskCalls(() => host, 'modern');

  it('detects the era with a server/discover POST first: no initialize, no session, no GET stream', async () => {
    const state = host.connection('modern')!.state;
    assert.equal(state.era, 'modern');
    assert.equal(state.protocolVersion, '2026-07-28');
    assert.equal(state.serverInfo?.name, 'modern-task-server');
    assert.ok(
      (state.capabilities?.extensions as Record<string, unknown>)[TASKS],
      'the server declared the tasks extension'
    );
    await host.call('tools.list', { serverId: 'modern' });
    const first = modern.received[0];
    assert.equal(first?.httpMethod, 'POST');
    assert.equal(first?.body?.method, 'server/discover');
    assert.equal(first?.status, 200);
    assert.equal(modern.received.filter((r) => r.body?.method === 'initialize').length, 0);
    assert.deepEqual([...new Set(modern.received.map((r) => r.httpMethod))], ['POST'], 'no GET stream, no DELETE');
    assert.ok(
      modern.received.every((r) => r.headers['mcp-session-id'] === undefined),
      'no session id'
    );
    for (const request of requestsTo(modern))
      assert.equal(
        (request.body?.params?._meta as Record<string, unknown>)[VERSION_KEY],
        '2026-07-28',
        request.body?.method
      );
  });

  it('follows a tool call that became a task to completed, and keeps its result', async () => {
    const created = await startTask('echo', { text: 'over http' });
    assert.equal(created.protocol, '2026-07-28');
    assert.equal(created.state, 'working');
    assert.equal(created.task.pollInterval, 50);
    const done = await settled(created.outboundId);
    assert.equal(done.state, 'completed');
    assert.equal(resultText(done), 'echo: over http');
    const call = requestsTo(modern).find(
      (r) => r.body?.method === 'tools/call' && (r.body.params?.arguments as { text?: string }).text === 'over http'
    );
    assert.deepEqual(
      (call?.body?.params?._meta as Record<string, { extensions?: unknown }>)[CAPABILITIES_KEY]?.extensions,
      { [TASKS]: {} }
    );
    assert.ok(
      requestsTo(modern).some((r) => r.body?.method === 'tasks/get' && r.body.params?.taskId === created.taskId)
    );
    assert.equal(requestsTo(modern).filter((r) => r.body?.method === 'tasks/result').length, 0);
  });

  it('keeps the JSON-RPC error of a failed task', async () => {
    const created = await startTask('fail', { message: 'disk on fire' });
    const done = await settled(created.outboundId);
    assert.equal(done.state, 'failed');
    assert.deepEqual(done.outcome?.type === 'error' ? done.outcome.error : undefined, {
      code: -32050,
      message: 'disk on fire'
    });
  });

  it('puts an input_required question in the inbox once and answers it once with tasks/update', async () => {
    const asked: string[] = [];
    const off = host.on('inbox.added', ({ item }) => asked.push(item.id));
    const question = nextEvent(host, 'inbox.added');
    const created = await startTask('ask-name');
    const { item } = await question;
    assert.equal(item.kind, 'elicitation');
    assert.equal(item.origin, 'tool ask-name');
    assert.equal(item.relatedTaskId, created.taskId);
    const done = settled(created.outboundId);
    await host.call('inbox.answer', { id: item.id, answer: { action: 'accept', content: { name: 'Grace' } } });
    const finished = await done;
    off();
    assert.equal(finished.state, 'completed');
    assert.equal(resultText(finished), 'hello Grace');
    assert.deepEqual(finished.answeredInputs, ['name-1']);
    assert.equal(asked.length, 1, 'asked once, though a later poll still listed the key');
    const updates = requestsTo(modern).filter(
      (r) => r.body?.method === 'tasks/update' && r.body.params?.taskId === created.taskId
    );
    assert.equal(updates.length, 1);
    assert.deepEqual(updates[0]?.body?.params?.inputResponses, {
      'name-1': { action: 'accept', content: { name: 'Grace' } }
    });
    const stats = await host.call('tools.call', { serverId: 'modern', name: 'stats', arguments: {} });
    const counts = JSON.parse(
      stats.type === 'result' ? ((stats.result.content as Array<{ text: string }>)[0]?.text ?? '{}') : '{}'
    ) as Record<string, unknown>;
    assert.deepEqual(counts[created.taskId], { 'name-1': 1 }, 'the server received one answer for the key');
  });

  it('cancels a task with tasks/cancel, then learns it is cancelled by polling', async () => {
    const created = await startTask('wait');
    const cancelled = await host.call('outbound.cancel', { outboundId: created.outboundId });
    const done = cancelled.outcome ? cancelled : await settled(created.outboundId);
    assert.equal(done.state, 'cancelled');
    assert.equal(done.task.statusMessage, 'cancelled at the client’s request');
    assert.equal(done.outcome?.type === 'error' ? done.outcome.error.code : undefined, -32800);
    assert.equal(
      requestsTo(modern).filter((r) => r.body?.method === 'tasks/cancel' && r.body.params?.taskId === created.taskId)
        .length,
      1
    );
  });

  it('returns a plain result when the server answers plainly, or when the caller asks for no task', async () => {
    const quick = await host.call('tools.call', { serverId: 'modern', name: 'quick', arguments: { text: 'now' } });
    assert.equal(
      quick.type === 'result' ? (quick.result.content as Array<{ text: string }>)[0]?.text : undefined,
      'quick: now'
    );
    const plain = await host.call('tools.call', {
      serverId: 'modern',
      name: 'echo',
      arguments: { text: 'x' },
      asTask: false
    });
    assert.equal(
      plain.type === 'result' ? (plain.result.content as Array<{ text: string }>)[0]?.text : undefined,
      'echo (plain): x'
    );
  });

  it('puts MCP-Protocol-Version, Mcp-Method and Mcp-Name on every POST, with the user’s headers', () => {
    const requests = requestsTo(modern);
    const methods = new Set(requests.map((r) => r.body?.method));
    for (const method of ['server/discover', 'tools/list', 'tools/call', 'tasks/get', 'tasks/update', 'tasks/cancel'])
      assert.ok(methods.has(method), `${method} was sent`);
    for (const { headers, body, status } of requests) {
      const label = `${body?.method} ${JSON.stringify(body?.params?.name ?? body?.params?.taskId ?? '')}`;
      assert.equal(status, 200, `${label}: the server accepted the headers`);
      assert.equal(
        headers['mcp-protocol-version'],
        (body?.params?._meta as Record<string, unknown>)[VERSION_KEY],
        label
      );
      assert.equal(headers['mcp-method'], body?.method, label);
      const named =
        body?.method === 'tools/call'
          ? body.params?.name
          : body?.method?.startsWith('tasks/')
            ? body.params?.taskId
            : undefined;
      assert.equal(headers['mcp-name'], named, label);
      assert.equal(headers.authorization, USER_HEADERS.Authorization, label);
      assert.equal(headers['x-team'], USER_HEADERS['X-Team'], label);
      assert.match(
        headers.accept ?? '',
        /application\/json.*text\/event-stream|text\/event-stream.*application\/json/,
        label
      );
    }
    assert.equal(modern.received.length, requests.length, 'no notification POSTs, nothing else');
  });

  it('takes a dual-era server (one that would also initialize) as modern', async () => {
    const view = await host.connect('dual');
    assert.equal(view.state.status, 'ready', view.state.reason);
    assert.equal(view.state.era, 'modern');
    const created = await host.call('tools.call', { serverId: 'dual', name: 'echo', arguments: { text: 'dual' } });
    assert.equal(created.type, 'task');
    if (created.type === 'task') assert.equal(resultText(await settled(created.task.outboundId)), 'echo: dual');
    assert.equal(dual.received.filter((r) => r.body?.method === 'initialize').length, 0);
  });

  it('fails with a reason for a modern server that speaks no version in common, and does not initialize', async () => {
    const view = await host.connect('future');
    assert.equal(view.state.status, 'failed');
    assert.match(view.state.reason ?? '', /does not speak MCP 2026-07-28 \(it speaks 2099-01-01\)/);
    assert.deepEqual(foreign.received, ['server/discover']);
  });

  it('connects a legacy server the old way after server/discover is refused, and calls its tools as 2025-11-25 tasks', async () => {
    const view = await host.connect('legacy');
    assert.equal(view.state.status, 'ready', view.state.reason);
    assert.equal(view.state.era, 'legacy');
    assert.equal(view.state.protocolVersion, '2025-11-25');
    const posts = legacyWire.received.filter((r) => r.method !== undefined);
    assert.deepEqual(
      posts.slice(0, 3).map((r) => r.method),
      ['server/discover', 'initialize', 'notifications/initialized']
    );
    assert.equal(posts[0]?.status, 400, 'the legacy server refused the probe');
    assert.equal(
      posts[1]?.headers['mcp-method'],
      undefined,
      'initialize goes out as before, without the modern headers'
    );
    const outcome = await host.call('tools.call', {
      serverId: 'legacy',
      name: 'work-required',
      arguments: { durationMs: 50, label: 'old way' }
    });
    assert.equal(outcome.type, 'task');
    if (outcome.type !== 'task') return;
    assert.equal(outcome.task.protocol, undefined);
    const done = await settled(outcome.task.outboundId);
    assert.equal(done.state, 'completed');
    assert.equal(resultText(done), 'done: old way');
    assert.ok(
      legacyWire.received.some((r) => r.method === 'tasks/result'),
      'a 2025-11-25 task ends with tasks/result'
    );
  });

  it('remembers the legacy server: connecting again initializes without a server/discover POST', async () => {
    assert.equal((await host.connect('legacy')).state.status, 'ready');
    await host.disconnect('legacy');
    const before = legacyWire.received.length;
    const view = await host.connect('legacy');
    assert.equal(view.state.status, 'ready', view.state.reason);
    assert.equal(view.state.era, 'legacy');
    const posts = legacyWire.received.slice(before).filter((r) => r.method !== undefined);
    assert.deepEqual(
      posts.slice(0, 2).map((r) => r.method),
      ['initialize', 'notifications/initialized']
    );
    assert.equal(posts.filter((r) => r.method === 'server/discover').length, 0);
  });
});

describe('the Streamable HTTP probe: a capped wait, a 404 that proves nothing, a remembered era that changed', () => {
  /** Short, so that a probe nobody answers costs little; the connect timeout stays the default. */
  const PROBE_TIMEOUT_MS = 200;
  const data = tempDir();
  let host: Host;
  let legacyServer: { url: URL; close(): Promise<void> };
  let modern: Awaited<ReturnType<typeof serveModernHttp>>;
  const proxies: Record<
    'silentLegacy' | 'slowModern' | 'notFoundLegacy' | 'otherSdk',
    Awaited<ReturnType<typeof recordingProxy>>
  > = {} as never;
  const hold = ({ method }: { method: string }): ProxyIntercept | undefined =>
    method === 'server/discover' ? { hold: true } : undefined;
  const notFound =
    (refused: string) =>
    ({ method }: { method: string }): ProxyIntercept | undefined =>
      method === refused ? { refuse: { status: 404, code: -32601, message: 'Method not found' } } : undefined;
  const config = (id: keyof typeof proxies): ServerConfig => ({
    id,
    name: id,
    transport: { type: 'http', url: proxies[id].url },
    autoConnect: false
  });

  before(async () => {
    legacyServer = await startTaskToolHttpServer({
      clock: systemClock,
      store: new ClockedTaskStore({ clock: systemClock, pollInterval: 100 })
    });
    modern = await serveModernHttp({ legacy: 'reject' });
    proxies.silentLegacy = await recordingProxy(legacyServer.url, { intercept: hold });
    proxies.slowModern = await recordingProxy(new URL(modern.url), { intercept: hold });
    proxies.notFoundLegacy = await recordingProxy(legacyServer.url, { intercept: notFound('server/discover') });
    // A modern server of another SDK: no initialize at all, answered as an unknown method is over HTTP.
    proxies.otherSdk = await recordingProxy(new URL(modern.url), { intercept: notFound('initialize') });
    new ServerEras({ dir: data.dir, corruptDir: path.join(data.dir, 'corrupt'), factory: confStoreFactory }).set(
      ownerIdentity(config('otherSdk')),
      'legacy'
    );
    host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      probeTimeoutMs: PROBE_TIMEOUT_MS,
      servers: [config('silentLegacy'), config('slowModern'), config('notFoundLegacy'), config('otherSdk')]
    });
  });

  after(async () => {
    await host.close();
    await Promise.all(Object.values(proxies).map((proxy) => proxy.close()));
    await Promise.all([legacyServer.close(), modern.close()]);
    data.remove();
  });

  const posts = (received: ProxiedRequest[]) =>
    received.filter((r) => r.method !== undefined).map((r) => `${r.method} ${r.status ?? '-'}`);
  const remembered = (id: keyof typeof proxies) =>
    new ServerEras({ dir: data.dir, corruptDir: path.join(data.dir, 'corrupt'), factory: confStoreFactory }).get(
      ownerIdentity(config(id))
    );

  it('connects a legacy server that never answers server/discover: the probe is capped, initialize gets the rest of the connect timeout', async () => {
    const view = await host.connect('silentLegacy');
    assert.equal(view.state.status, 'ready', view.state.reason);
    assert.equal(view.state.era, 'legacy');
    assert.deepEqual(posts(proxies.silentLegacy.received).slice(0, 3), [
      'server/discover 200',
      'initialize 200',
      'notifications/initialized 202'
    ]);
    assert.equal(remembered('silentLegacy'), 'legacy');
  });

  it('fails a modern server that answers server/discover too slowly and refuses initialize with −32022, and does not remember it as legacy', async () => {
    const view = await host.connect('slowModern');
    assert.equal(view.state.status, 'failed');
    assert.match(view.state.reason ?? '', /-32022.*answered server\/discover too slowly; it will be probed again/);
    assert.deepEqual(posts(proxies.slowModern.received), ['server/discover 200', 'initialize 400']);
    assert.equal(remembered('slowModern'), undefined);
    const again = await host.connect('slowModern');
    assert.equal(again.state.status, 'failed');
    assert.equal(posts(proxies.slowModern.received)[2], 'server/discover 200', 'probed again on the next connect');
  });

  it('takes a 404 with −32601 to server/discover for a legacy (or unknown) server, and initializes it once', async () => {
    const view = await host.connect('notFoundLegacy');
    assert.equal(view.state.status, 'ready', view.state.reason);
    assert.equal(view.state.era, 'legacy');
    assert.deepEqual(posts(proxies.notFoundLegacy.received).slice(0, 2), ['server/discover 404', 'initialize 200']);
    assert.equal(posts(proxies.notFoundLegacy.received).filter((post) => post.startsWith('initialize')).length, 1);
  });

  it('probes once a server remembered as legacy that answers initialize with 404 and −32601, and remembers it as modern', async () => {
    // This probe must be answered, not capped: a host on the same data with the default wait, so a
    // loaded machine that takes over 200 ms to answer does not turn it into a timeout.
    await host.close();
    host = createHost({ dataDir: data.dir, autoConnect: false, servers: [config('otherSdk')] });
    const view = await host.connect('otherSdk');
    assert.equal(view.state.status, 'ready', view.state.reason);
    assert.equal(view.state.era, 'modern');
    assert.deepEqual(posts(proxies.otherSdk.received), ['initialize 404', 'server/discover 200']);
    assert.equal(remembered('otherSdk'), 'modern');
    const quick = await host.call('tools.call', {
      serverId: 'otherSdk',
      name: 'quick',
      arguments: { text: 'changed' }
    });
    assert.equal(
      quick.type === 'result' ? (quick.result.content as Array<{ text: string }>)[0]?.text : undefined,
      'quick: changed'
    );
  });
});

/**
 * A modern endpoint of a revision after ours: every POST is refused with 400 and −32022,
 * naming only 2099-01-01. Records the JSON-RPC methods it received.
 */
async function serveFutureOnly(): Promise<{ url: string; received: string[]; close(): Promise<void> }> {
  const received: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { id?: unknown; method?: string };
      if (body.method) received.push(body.method);
      const error = {
        code: -32022,
        message: 'Unsupported protocol version',
        data: { supported: ['2099-01-01'], requested: req.headers['mcp-protocol-version'] }
      };
      res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: body.id ?? null, error }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    received,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  };
}
