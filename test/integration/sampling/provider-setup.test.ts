import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../support/manual-clock.js';
import { InMemoryKeyStore } from '../../../app/sampling/key-store.js';
import { detectLocalProviders } from '../../../app/sampling/local-detection.js';
import { ProviderRegistry } from '../../../app/sampling/provider-registry.js';
import { testConnection } from '../../../app/sampling/test-connection.js';
import { FakeOpenAIServer } from '../../support/fake-openai-server.js';
import { fakeProvider, Recorder, SECRET_KEY } from './harness.js';

async function listen(handler: http.RequestListener): Promise<http.Server> {
  const server = http.createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server;
}

const portOf = (server: http.Server) => (server.address() as AddressInfo).port;

async function closedPort(): Promise<number> {
  const probe = await listen(() => {});
  const port = portOf(probe);
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('testConnection', { timeout: 15_000 }, () => {
  let server: FakeOpenAIServer;
  before(async () => {
    server = await FakeOpenAIServer.start({ apiKey: SECRET_KEY, models: ['gpt-test', 'gpt-test-mini'] });
  });
  after(() => server.close());

  it('lists the models with a good key', async () => {
    assert.deepEqual(await testConnection(fakeProvider(server), SECRET_KEY), {
      ok: true,
      models: ['gpt-test', 'gpt-test-mini']
    });
  });

  it('says the key was rejected, without the key', async () => {
    const result = await testConnection(fakeProvider(server), 'sk-bad-key-XYZXYZXYZ');
    assert.equal(result.ok, false);
    assert.ok(!result.ok && result.kind === 'auth' && result.status === 401);
    assert.ok(!JSON.stringify(result).includes('XYZXYZ'));
    assert.match(!result.ok ? result.message : '', /rejected the API key \(401\)/);
  });

  it('says when the server is unreachable', async () => {
    const port = await closedPort();
    const result = await testConnection(fakeProvider(server, { baseURL: `http://127.0.0.1:${port}/v1` }), undefined);
    assert.deepEqual(result, {
      ok: false,
      kind: 'unreachable',
      message: `Could not connect to Fake LLM (127.0.0.1:${port}). Is the server running and the base URL right?`
    });
  });

  it('points at the base URL when there is no model list there', async () => {
    const result = await testConnection(
      fakeProvider(server, { baseURL: `http://127.0.0.1:${server.port}/api` }),
      SECRET_KEY
    );
    assert.ok(!result.ok);
    assert.match(result.message, /no model list at .*\/api\/models \(404\)\. Check the base URL/);
  });

  it('times out on the clock when the server never answers', async () => {
    const clock = new ManualClock();
    server.enqueueModels({ kind: 'hold' });
    const count = server.requests.length;
    const pending = testConnection(fakeProvider(server), SECRET_KEY, { clock, timeoutMs: 5_000 });
    await server.waitForRequests(count + 1);
    await clock.advance(5_000);
    const result = await pending;
    assert.deepEqual(result, {
      ok: false,
      kind: 'timeout',
      message: `Fake LLM (127.0.0.1:${server.port}) did not answer within 5 s.`
    });
  });

  it('passes a server error through as a clear message', async () => {
    server.enqueueModels({ kind: 'error', status: 500, message: 'model registry down' });
    const result = await testConnection(fakeProvider(server), SECRET_KEY);
    assert.ok(!result.ok);
    assert.equal(result.kind, 'server-error');
    assert.match(result.message, /server error \(500\): model registry down/);
  });
});

describe('detectLocalProviders', { timeout: 15_000 }, () => {
  it('finds an OpenAI-compatible server on a random port and skips the rest', async () => {
    const local = await FakeOpenAIServer.start({ models: ['llama3.2:3b', 'qwen2.5:7b'] });
    const notJson = await listen((_req, res) => res.end('<html>a web app</html>'));
    const stalled = await listen(() => {
      /* never answers */
    });
    const clock = new ManualClock();
    // Real fetch, but the body is read before the probe sees it, so the test knows when
    // a probe has its answer and the clock can move without cutting it short.
    const answered = new Recorder<number>();
    const readingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const body = await response.arrayBuffer();
      answered.push(Number(new URL(input instanceof Request ? input.url : input).port));
      return new Response(body, { status: response.status, headers: response.headers });
    };
    try {
      const nothing = await closedPort();
      const detecting = detectLocalProviders({
        clock,
        fetch: readingFetch,
        timeoutMs: 800,
        ports: [
          { id: 'nothing', name: 'Nothing', port: nothing },
          { id: 'web', name: 'Web app', port: portOf(notJson) },
          { id: 'stalled', name: 'Stalled', port: portOf(stalled) },
          { id: 'ollama', name: 'Ollama', port: local.port }
        ]
      });
      // Once the two servers that answer have answered, only the stalled probe is waiting.
      const ports = new Set([await answered.next(), await answered.next()]);
      assert.deepEqual(ports, new Set([local.port, portOf(notJson)]));
      await clock.advance(800);
      const found = await detecting;
      assert.deepEqual(found, [
        {
          id: 'ollama',
          name: 'Ollama',
          baseURL: `http://127.0.0.1:${local.port}/v1`,
          models: [{ name: 'llama3.2:3b' }, { name: 'qwen2.5:7b' }],
          defaultModel: 'llama3.2:3b'
        }
      ]);
      assert.equal(clock.pendingTimers, 0);
    } finally {
      stalled.closeAllConnections();
      await Promise.all([local.close(), new Promise((r) => notJson.close(r)), new Promise((r) => stalled.close(r))]);
    }
  });

  it('probes the four usual ports by default', async () => {
    const { defaultLocalPorts } = await import('../../../app/sampling/local-detection.js');
    assert.deepEqual(
      defaultLocalPorts.map((p) => p.port),
      [11434, 1234, 8080, 8000]
    );
  });
});

describe('ProviderRegistry.listModels (the models a save with none asked for)', () => {
  const base = { id: 'p', name: 'P', baseURL: 'http://127.0.0.1:11434/v1', models: [] };

  it('lists the names once each, the first as the default, keeping a default set by hand', async () => {
    const registry = new ProviderRegistry(new InMemoryKeyStore(), [base, { ...base, id: 'q', defaultModel: 'b' }]);
    const listed = await registry.listModels('p', base.baseURL, ['a', 'b', 'a', '']);
    assert.deepEqual(listed, { ...base, models: [{ name: 'a' }, { name: 'b' }], defaultModel: 'a', hasKey: false });
    assert.deepEqual(registry.get('p'), { ...base, models: [{ name: 'a' }, { name: 'b' }], defaultModel: 'a' });
    assert.equal((await registry.listModels('q', base.baseURL, ['a', 'b']))?.defaultModel, 'b');
  });

  it('does not make a model that answers no chat the default (OpenAI lists every model it has)', async () => {
    const registry = new ProviderRegistry(new InMemoryKeyStore(), [base, { ...base, id: 'odd' }]);
    const names = ['text-embedding-3-large', 'whisper-1', 'dall-e-3', 'tts-1', 'gpt-4o-mini', 'gpt-4o'];
    const listed = await registry.listModels('p', base.baseURL, names);
    assert.equal(listed?.defaultModel, 'gpt-4o-mini');
    assert.equal(listed?.models.length, 6, 'all listed, as the provider named them');
    // Only such models: the first, rather than none.
    assert.equal(
      (await registry.listModels('odd', base.baseURL, ['text-embedding-3-small']))?.defaultModel,
      'text-embedding-3-small'
    );
  });

  it('lists nothing on a provider changed since it was asked, nor when it named none', async () => {
    const registry = new ProviderRegistry(new InMemoryKeyStore(), [
      { ...base, models: [{ name: 'by-hand' }] },
      { ...base, id: 'moved', baseURL: 'http://127.0.0.1:1234/v1' },
      { ...base, id: 'empty' }
    ]);
    assert.equal(await registry.listModels('p', base.baseURL, ['a']), undefined, 'given models meanwhile');
    assert.equal(await registry.listModels('moved', base.baseURL, ['a']), undefined, 'moved meanwhile');
    assert.equal(await registry.listModels('gone', base.baseURL, ['a']), undefined, 'removed meanwhile');
    assert.equal(await registry.listModels('empty', base.baseURL, []), undefined, 'named none');
    assert.deepEqual(
      registry.list().map((p) => p.models),
      [[{ name: 'by-hand' }], [], []]
    );
  });
});
