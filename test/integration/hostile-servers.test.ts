import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createHost, type Host } from '../../app/host/host.js';
import type { GatedTransport } from '../../app/mcp/request-gate.js';
import type { GuardedStdioTransport } from '../../app/mcp/sdk-seams.js';
import { nextEvent, tempDir } from '../support/host-fixture.js';
import { RawPeer } from '../support/raw-peer.js';

/** The stdio transport under the host's connection to `serverId` (while it is connected). */
function stdioOf(host: Host, serverId: string): GuardedStdioTransport {
  return (host.connection(serverId)!.client.transport as GatedTransport).inner as GuardedStdioTransport;
}

const request = (id: number, method: string, params?: unknown) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method, ...(params !== undefined && { params }) })}\n`;

describe('hostile servers: every readable request gets an answer', () => {
  let host: Host;
  let peer: RawPeer;
  let data: { dir: string; remove: () => void };
  before(async () => {
    peer = new RawPeer('raw');
    data = tempDir();
    host = createHost({ dataDir: data.dir, servers: [peer.config], autoConnect: false, connectTimeoutMs: 60_000 });
    const view = await host.connect('raw');
    assert.equal(view.state.status, 'ready', view.state.reason);
  });
  after(async () => {
    await host.close();
    peer.close();
    data.remove();
  });

  /** Sends one raw line and resolves with the answer that has `id`. */
  async function answerTo(line: string, id: string | number | null) {
    const seen = peer.received.length;
    const answer = peer.next((m) => m.id === id && m.error !== undefined && !peer.received.slice(0, seen).includes(m));
    await peer.send(line);
    return (await answer).error!;
  }

  const cases: Array<{ name: string; line: string; id: number | null; code: number; message?: RegExp }> = [
    { name: 'unparsable JSON', line: '{"jsonrpc":"2.0","id":1,"method":\n', id: null, code: -32700 },
    { name: 'a batch', line: '[{"jsonrpc":"2.0","id":2,"method":"ping"}]\n', id: null, code: -32600 },
    { name: 'jsonrpc other than 2.0', line: '{"jsonrpc":"1.0","id":3,"method":"ping"}\n', id: 3, code: -32600 },
    { name: 'a method that is not a string', line: '{"jsonrpc":"2.0","id":4,"method":42}\n', id: 4, code: -32600 },
    { name: 'params that are an array', line: request(5, 'tasks/get', ['x']), id: 5, code: -32600 },
    { name: 'neither method nor result', line: '{"jsonrpc":"2.0","id":6}\n', id: 6, code: -32600 },
    {
      name: 'a _meta that is not an object',
      line: request(7, 'tasks/get', { taskId: 'x', _meta: 'oops' }),
      id: 7,
      code: -32602,
      message: /_meta/
    },
    {
      name: 'a progressToken that is an object',
      line: request(8, 'tasks/get', { taskId: 'x', _meta: { progressToken: {} } }),
      id: 8,
      code: -32602,
      message: /progressToken/
    },
    {
      name: 'a taskId that is a number',
      line: request(9, 'tasks/get', { taskId: 5 }),
      id: 9,
      code: -32602,
      message: /taskId: expected a string, got a number/
    },
    {
      name: 'sampling with messages that are not an array, as a task',
      line: request(10, 'sampling/createMessage', { messages: 'not-an-array', maxTokens: 10, task: { ttl: 60_000 } }),
      id: 10,
      code: -32602,
      message: /messages: expected an array/
    },
    {
      name: 'elicitation with task.ttl null',
      line: request(11, 'elicitation/create', {
        message: 'Name?',
        requestedSchema: { type: 'object', properties: {} },
        task: { ttl: null }
      }),
      id: 11,
      code: -32602,
      message: /task\.ttl: expected a number, got null/
    },
    {
      name: 'sampling with task.ttl "soon"',
      line: request(12, 'sampling/createMessage', {
        messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
        maxTokens: 10,
        task: { ttl: 'soon' }
      }),
      id: 12,
      code: -32602,
      message: /task\.ttl: expected a number, got a string/
    },
    {
      name: 'params nested 20,000 levels deep',
      line: `{"jsonrpc":"2.0","id":13,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":1,"metadata":{"deep":${'['.repeat(20_000)}${']'.repeat(20_000)}}}}\n`,
      id: 13,
      code: -32602,
      message: /nested more than 128 levels/
    },
    { name: 'an unknown method', line: request(14, 'no/such/method'), id: 14, code: -32601 }
  ];
  for (const c of cases) {
    it(`answers ${c.name} with ${c.code}`, async () => {
      const error = await answerTo(c.line, c.id);
      assert.equal(error.code, c.code, error.message);
      if (c.message) assert.match(error.message, c.message);
      // A readable message, not a zod dump.
      assert.doesNotMatch(error.message, /"code":|\[\s*\{/);
    });
  }

  it('answers a 10.5 MiB line with −32600 and its id, and stays connected', async () => {
    const answer = peer.next((m) => m.id === 20);
    await peer.big(
      '{"jsonrpc":"2.0","id":20,"method":"tasks/get","params":{"taskId":"',
      'x',
      10.5 * 1024 * 1024,
      '"}}\n'
    );
    const error = (await answer).error!;
    assert.equal(error.code, -32600);
    assert.match(error.message, /more than 10 MiB/);
    assert.equal(host.connection('raw')!.state.status, 'ready');
    const after = await answerTo(request(21, 'tasks/get', { taskId: 'still-here' }), 21);
    assert.equal(after.code, -32602);
    assert.match(after.message, /Task not found/);
  });

  it('quotes a 500 KB unknown id back cut short', async () => {
    const error = await answerTo(request(22, 'tasks/get', { taskId: 'y'.repeat(500_000) }), 22);
    assert.equal(error.code, -32602);
    assert.ok(error.message.length < 300, `${error.message.length} characters`);
    assert.match(error.message, /500000 characters/);
  });

  it('rounds a fractional task.ttl up, never to 0', async () => {
    const answer = peer.next((m) => m.id === 23);
    await peer.send(
      request(23, 'elicitation/create', {
        message: 'Name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
        task: { ttl: 0.5 }
      })
    );
    const created = (await answer).result as { task: { ttl: number; status: string } };
    assert.equal(created.task.ttl, 1);
    assert.equal(created.task.status, 'working');
  });

  it('counts unknown methods against the rate limit', async () => {
    const count = 400;
    const answered = peer.next((m) => m.id === 1000 + count - 1);
    const lines = Array.from({ length: count }, (_, i) => request(1000 + i, 'no/such/method')).join('');
    await peer.send(lines);
    await answered;
    const codes = peer.received.filter((m) => typeof m.id === 'number' && m.id >= 1000).map((m) => m.error!.code);
    assert.equal(codes.length, count);
    assert.ok(codes.includes(-32601));
    // The bucket holds 200: the rest of a burst of 400 is refused as over the limit.
    assert.ok(codes.filter((code) => code === -32029).length >= count - 250, JSON.stringify(codes.slice(-5)));
  });
});

describe('hostile servers: a server that stops reading', () => {
  it('is dropped with a reason once its queue is full, with the queue bounded and one drain listener', async () => {
    const peer = new RawPeer('deaf');
    const data = tempDir();
    const limits = { maxQueuedBytes: 256 * 1024, maxQueuedMessages: 200 };
    const host = createHost({
      dataDir: data.dir,
      servers: [peer.config],
      autoConnect: false,
      connectTimeoutMs: 60_000,
      stdioLimits: { queue: limits }
    });
    try {
      assert.equal((await host.connect('deaf')).state.status, 'ready');
      const transport = stdioOf(host, 'deaf');
      let peakListeners = 0;
      const sample = setInterval(
        () => (peakListeners = Math.max(peakListeners, transport.queueStats.drainListeners)),
        1
      );
      const failed = nextEvent(host, 'server.state', (p) => p.serverId === 'deaf' && p.state.status === 'failed');
      await peer.stopReading();
      const id = 'z'.repeat(16 * 1024);
      void peer.flood(request(0, 'tasks/get', { taskId: id }).replace('"id":0', '"id":$i'), 20_000);
      const { state } = await failed;
      clearInterval(sample);
      assert.match(state.reason ?? '', /stopped reading its input: 200 messages to it were waiting \(limit 200\)/);
      const stats = transport.queueStats;
      assert.ok(stats.peakQueuedMessages <= limits.maxQueuedMessages, JSON.stringify(stats));
      assert.ok(stats.peakQueuedBytes <= limits.maxQueuedBytes, JSON.stringify(stats));
      assert.ok(peakListeners <= 1, `${peakListeners} drain listeners`);
      const listed = await host.call('servers.list', {});
      assert.match(listed.find((s) => s.id === 'deaf')!.state.reason ?? '', /stopped reading/);
    } finally {
      await host.close();
      peer.close();
      data.remove();
    }
  });

  it('survives 30,000 unknown-method requests: rate limited, dropped, no listener growth', async () => {
    const peer = new RawPeer('flood');
    const data = tempDir();
    const host = createHost({
      dataDir: data.dir,
      servers: [peer.config],
      autoConnect: false,
      connectTimeoutMs: 60_000
    });
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      assert.equal((await host.connect('flood')).state.status, 'ready');
      const transport = stdioOf(host, 'flood');
      const failed = nextEvent(host, 'server.state', (p) => p.serverId === 'flood' && p.state.status === 'failed');
      await peer.stopReading();
      void peer.flood(request(0, 'no/such/method').replace('"id":0', '"id":$i'), 30_000);
      const { state } = await failed;
      assert.match(state.reason ?? '', /stopped reading its input/);
      assert.ok(transport.queueStats.peakQueuedMessages <= 10_000);
      assert.deepEqual(
        warnings.filter((w) => /drain/.test(w)),
        []
      );
      const entries = await host.call('audit.read', { limit: 1000, serverId: 'flood' });
      assert.ok(JSON.stringify(entries).includes('task.rate-limited'));
    } finally {
      process.off('warning', onWarning);
      await host.close();
      peer.close();
      data.remove();
    }
  });
});

describe('hostile servers: megabytes of requests far beyond the byte budget', () => {
  let host: Host;
  let peer: RawPeer;
  let data: { dir: string; remove: () => void };
  before(async () => {
    peer = new RawPeer('bytes');
    data = tempDir();
    host = createHost({ dataDir: data.dir, servers: [peer.config], autoConnect: false, connectTimeoutMs: 60_000 });
    const view = await host.connect('bytes');
    assert.equal(view.state.status, 'ready', view.state.reason);
  });
  after(async () => {
    await host.close();
    peer.close();
    data.remove();
  });

  it('answers every one: past its params budget, large requests are refused before they are parsed', async () => {
    const count = 40;
    const message = 'm'.repeat(1_000_000);
    // As the SDK writes a request: its id after its megabyte of params.
    const lines = Array.from(
      { length: count },
      (_, i) =>
        `{"method":"elicitation/create","params":${JSON.stringify({ message, requestedSchema: { type: 'object', properties: {} }, task: { ttl: 60_000 } })},"jsonrpc":"2.0","id":${5000 + i}}\n`
    );
    // Refusals are answered at once, acknowledgements once on disk: they may come in any order.
    const all = Promise.all(Array.from({ length: count }, (_, i) => peer.next((m) => m.id === 5000 + i)));
    const started = performance.now();
    await peer.send(lines.join(''));
    const answers = await all;
    // The budget refills at 2 MiB a second while the requests are read: on a loaded machine
    // (the whole suite on two cores) the reading takes seconds longer, and more may fit.
    const refilled = Math.ceil(((performance.now() - started) / 1000) * 2);
    assert.equal(answers.length, count, 'every request is answered');
    const acknowledged = answers.filter((m) => m.result !== undefined).length;
    const byParams = answers.filter((m) => /bytes of params a second/.test(m.error?.message ?? '')).length;
    const unparsed = answers.filter((m) => /in large requests/.test(m.error?.message ?? ''));
    // 8 MiB of params saved up: about eight are acknowledged, and what refilled meanwhile.
    assert.ok(
      acknowledged >= 7 && acknowledged <= Math.max(12, 9 + refilled),
      `${acknowledged} acknowledged (${refilled} MB refilled)`
    );
    // The line budget is the params budget and 1/16 for the envelope: what the receiver would
    // refuse is, but for a line or two, refused unparsed.
    assert.ok(byParams <= 2, `${byParams} parsed only to be refused`);
    assert.ok(unparsed.length >= count - Math.max(14, 11 + refilled), `${unparsed.length} refused unparsed`);
    for (const answer of unparsed) {
      assert.equal(answer.error!.code, -32029);
      assert.ok((answer.error!.data as { bytes: number }).bytes > 1_000_000);
    }
    assert.equal(acknowledged + byParams + unparsed.length, count);
    assert.equal(host.connection('bytes')!.state.status, 'ready');
    // Past twice the budget in refusals (17 MiB), it was read no faster for a while, and the
    // audit log says so.
    const throttled = await host.call('audit.read', { type: 'server.throttled', serverId: 'bytes' });
    assert.ok(throttled.length > 0, 'a pause is audited');
    assert.ok((throttled[0]!.detail as { pausedMs: number }).pausedMs > 0);
  });
});
