import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { CreateMessageResultSchema, CreateMessageResultWithToolsSchema } from '@modelcontextprotocol/sdk/types.js';
import { ManualClock } from '../../support/manual-clock.js';
import { HostError, JsonRpcCode } from '../../../app/core/errors.js';
import { FakeOpenAIServer } from '../../support/fake-openai-server.js';
import { makeContext, makeRunner, samplingParams, SECRET_KEY, textOf } from './harness.js';

const weatherTool = {
  name: 'get_weather',
  description: 'Current weather for a city',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }
};

function errorOf(outcome: { type: string; error?: { code: number; message: string; data?: unknown } }) {
  assert.equal(outcome.type, 'error', `expected an error outcome, got ${JSON.stringify(outcome)}`);
  return outcome.error!;
}

/** A port nothing listens on: bound once, then released. */
async function closedPort(): Promise<number> {
  const probe = http.createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('LlmSamplingRunner over the real openai SDK and HTTP', { timeout: 15_000 }, () => {
  let server: FakeOpenAIServer;
  before(async () => {
    server = await FakeOpenAIServer.start({
      apiKey: SECRET_KEY,
      models: ['fake-small', 'fake-large'],
      strictModels: true
    });
  });
  after(() => server.close());

  it('streams a text answer, maps the request, and reports the model actually used', async () => {
    server.enqueue({ kind: 'text', tokens: ['The capital', ' is', ' Paris.'], model: 'fake-small-2026-01' });
    const { runner, partials } = await makeRunner(server, { apiKey: SECRET_KEY });
    const { context, notes } = makeContext();
    const before = server.chatRequests.length;
    const outcome = await runner.run(
      samplingParams({
        systemPrompt: 'Answer briefly.',
        temperature: 0.3,
        stopSequences: ['\n\n'],
        includeContext: 'thisServer'
      }),
      context
    );

    assert.deepEqual(outcome, {
      type: 'result',
      result: {
        role: 'assistant',
        model: 'fake-small-2026-01',
        stopReason: 'endTurn',
        content: { type: 'text', text: 'The capital is Paris.' }
      }
    });
    CreateMessageResultSchema.parse(outcome.type === 'result' ? outcome.result : undefined);
    const request = server.chatRequests[before]!;
    assert.equal(request.authorization, `Bearer ${SECRET_KEY}`);
    assert.deepEqual(request.body, {
      model: 'fake-small',
      stream: true,
      max_tokens: 64,
      temperature: 0.3,
      stop: ['\n\n'],
      messages: [
        { role: 'system', content: 'Answer briefly.' },
        { role: 'user', content: 'What is the capital of France?' }
      ]
    });
    assert.deepEqual(
      partials.items.map((p) => [p.delta, p.text, p.done ?? false]),
      [
        ['The capital', 'The capital', false],
        [' is', 'The capital is', false],
        [' Paris.', 'The capital is Paris.', false],
        ['', 'The capital is Paris.', true]
      ],
      'the last update marks the end of the stream with all its text'
    );
    const { streamId } = partials.items[0]!;
    assert.deepEqual(partials.items[0], {
      serverId: 'srv-1',
      taskId: 'task-1',
      streamId,
      providerId: 'fake',
      model: 'fake-small',
      text: 'The capital',
      delta: 'The capital'
    });
    assert.ok(
      partials.items.every((p) => p.streamId === streamId),
      'one stream id for the whole stream'
    );
    assert.equal(notes.items[0]!['model'], 'fake-small');
    assert.equal(notes.items[0]!['provider'], 'Fake LLM');
    assert.match(String(notes.items[0]!['reason']), /default model of Fake LLM/);
  });

  it('maps each finish reason to a stopReason', async () => {
    const { runner } = await makeRunner(server, { apiKey: SECRET_KEY });
    const cases: Array<[Parameters<FakeOpenAIServer['enqueue']>[0], string]> = [
      [{ kind: 'text', tokens: ['a'], finishReason: 'length' }, 'maxTokens'],
      [{ kind: 'text', tokens: ['a'], finishReason: 'stop', stopReason: 'END' }, 'stopSequence'],
      [{ kind: 'text', tokens: ['a'], finishReason: 'content_filter' }, 'contentFilter'],
      [{ kind: 'text', tokens: ['a'], finishReason: 'stop' }, 'endTurn']
    ];
    for (const [reply, expected] of cases) {
      server.enqueue(reply);
      const outcome = await runner.run(samplingParams({ stopSequences: ['END'] }), makeContext().context);
      assert.equal(outcome.type === 'result' && outcome.result.stopReason, expected, JSON.stringify(reply));
    }
  });

  it('sends image and audio content as the provider expects', async () => {
    const { runner } = await makeRunner(server, { apiKey: SECRET_KEY });
    const before = server.chatRequests.length;
    const outcome = await runner.run(
      samplingParams({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
              { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
              { type: 'text', text: 'Describe both.' }
            ]
          }
        ]
      }),
      makeContext().context
    );
    assert.equal(outcome.type, 'result');
    assert.deepEqual(server.chatRequests[before]!.body.messages, [
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
          { type: 'text', text: 'Describe both.' }
        ]
      }
    ]);
  });

  it('runs a tool loop: tool calls become tool_use, tool_result goes back as tool messages', async () => {
    const { runner } = await makeRunner(server, { apiKey: SECRET_KEY });
    server.enqueue(
      {
        kind: 'tool-calls',
        calls: [
          { id: 'call_paris', name: 'get_weather', arguments: '{"city":"Paris"}' },
          { id: 'call_london', name: 'get_weather', arguments: '{"city":"London"}' }
        ]
      },
      { kind: 'text', tokens: ['Paris is warmer.'] }
    );
    const before = server.chatRequests.length;
    const first = await runner.run(
      samplingParams({ tools: [weatherTool], toolChoice: { mode: 'required' } }),
      makeContext().context
    );
    assert.equal(first.type, 'result');
    if (first.type !== 'result') return;
    CreateMessageResultWithToolsSchema.parse(first.result);
    assert.equal(first.result.stopReason, 'toolUse');
    assert.deepEqual(first.result.content, [
      { type: 'tool_use', id: 'call_paris', name: 'get_weather', input: { city: 'Paris' } },
      { type: 'tool_use', id: 'call_london', name: 'get_weather', input: { city: 'London' } }
    ]);
    const firstBody = server.chatRequests[before]!.body;
    assert.equal(firstBody.tool_choice, 'required');
    assert.deepEqual(firstBody.tools, [
      {
        type: 'function',
        function: { name: 'get_weather', description: weatherTool.description, parameters: weatherTool.inputSchema }
      }
    ]);

    const second = await runner.run(
      samplingParams({
        tools: [weatherTool],
        messages: [
          { role: 'user', content: { type: 'text', text: 'Weather in Paris and London?' } },
          { role: 'assistant', content: first.result.content },
          {
            role: 'user',
            content: [
              { type: 'tool_result', toolUseId: 'call_paris', content: [{ type: 'text', text: '18°C' }] },
              { type: 'tool_result', toolUseId: 'call_london', content: [{ type: 'text', text: '15°C' }] }
            ]
          }
        ]
      }),
      makeContext().context
    );
    assert.equal(second.type === 'result' && second.result.stopReason, 'endTurn');
    assert.deepEqual(second.type === 'result' && second.result.content, { type: 'text', text: 'Paris is warmer.' });
    const secondBody = server.chatRequests[before + 1]!.body;
    assert.deepEqual(secondBody.messages.slice(1), [
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_paris', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'call_london', type: 'function', function: { name: 'get_weather', arguments: '{"city":"London"}' } }
        ]
      },
      { role: 'tool', tool_call_id: 'call_paris', content: '18°C' },
      { role: 'tool', tool_call_id: 'call_london', content: '15°C' }
    ]);
  });

  it('answers unbalanced tool ids with -32602 and calls no model', async () => {
    const { runner } = await makeRunner(server, { apiKey: SECRET_KEY });
    const before = server.requests.length;
    const outcome = await runner.run(
      samplingParams({
        tools: [weatherTool],
        messages: [
          { role: 'user', content: { type: 'text', text: 'Weather?' } },
          {
            role: 'assistant',
            content: { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } }
          },
          { role: 'user', content: { type: 'tool_result', toolUseId: 'call_2', content: [] } }
        ]
      }),
      makeContext().context
    );
    const error = errorOf(outcome);
    assert.equal(error.code, -32602);
    assert.match(error.message, /unknown toolUseId "call_2"/);
    assert.equal(server.requests.length, before);
  });

  it('reports a bad key (401) clearly and never echoes the key', async () => {
    const wrongKey = 'sk-wrong-0123456789WRONGKEY';
    const { runner } = await makeRunner(server, { apiKey: wrongKey });
    const { context, notes } = makeContext();
    const outcome = await runner.run(samplingParams(), context);
    const error = errorOf(outcome);
    assert.equal(error.code, -32603);
    assert.match(error.message, /Fake LLM \(127\.0\.0\.1:\d+\) rejected the API key \(401\)/);
    assert.deepEqual(error.data, { kind: 'auth', providerId: 'fake', model: 'fake-small', status: 401 });
    const everything = JSON.stringify([outcome, notes.items]);
    assert.ok(!everything.includes(wrongKey) && !everything.includes('WRONGKEY'), everything);
  });

  it('reports an unknown model (404) with the provider and model', async () => {
    const { runner } = await makeRunner(server, { apiKey: SECRET_KEY, provider: { defaultModel: 'no-such-model' } });
    const error = errorOf(await runner.run(samplingParams(), makeContext().context));
    assert.match(
      error.message,
      /does not know model "no-such-model" \(404\): The model `no-such-model` does not exist/
    );
    assert.equal((error.data as { kind: string }).kind, 'model-not-found');
  });

  it('honours retry-after on 429 using the clock', async () => {
    const clock = new ManualClock();
    const { runner, retries } = await makeRunner(server, { apiKey: SECRET_KEY, clock });
    server.enqueue(
      { kind: 'error', status: 429, message: 'Rate limit reached', headers: { 'retry-after': '2' } },
      { kind: 'text', tokens: ['ok'] }
    );
    const before = server.chatRequests.length;
    const { context, notes } = makeContext();
    const running = runner.run(samplingParams(), context);
    const notice = await retries.next();
    assert.equal(notice.waitMs, 2000);
    assert.equal(notice.failure.kind, 'rate-limited');
    await clock.advance(1999);
    assert.equal(server.chatRequests.length, before + 1, 'retried before retry-after passed');
    await clock.advance(1);
    const outcome = await running;
    assert.equal(textOf(outcome), 'ok');
    assert.equal(server.chatRequests.length, before + 2);
    assert.ok(notes.items.some((n) => n['retry'] === 1 && n['waitMs'] === 2000));
  });

  it('stops waiting to retry when the task is cancelled', async () => {
    const clock = new ManualClock();
    const { runner, retries } = await makeRunner(server, { apiKey: SECRET_KEY, clock });
    server.enqueue({ kind: 'error', status: 429, headers: { 'retry-after': '5' } });
    const before = server.chatRequests.length;
    const { context, controller } = makeContext();
    const running = runner.run(samplingParams(), context);
    await retries.next();
    controller.abort();
    assert.deepEqual(errorOf(await running), { code: -32800, message: 'The model run was cancelled.' });
    await clock.advance(5_000);
    assert.equal(server.chatRequests.length, before + 1, 'no retry after cancellation');
    assert.equal(clock.pendingTimers, 0);
  });

  it('gives up after a bounded number of 429s and says so', async () => {
    const { runner } = await makeRunner(server, { apiKey: SECRET_KEY });
    const limited = {
      kind: 'error' as const,
      status: 429,
      message: 'Rate limit reached',
      headers: { 'retry-after': '0' }
    };
    server.enqueue(limited, limited, limited);
    const before = server.chatRequests.length;
    const error = errorOf(await runner.run(samplingParams(), makeContext().context));
    assert.equal(server.chatRequests.length, before + 3, 'one call and two retries');
    assert.match(error.message, /rate limiting requests \(429\): Rate limit reached/);
  });

  it('does not wait longer than the cap: a long retry-after fails at once', async () => {
    const { runner } = await makeRunner(server, { apiKey: SECRET_KEY });
    server.enqueue({ kind: 'error', status: 429, headers: { 'retry-after': '3600' } });
    const before = server.chatRequests.length;
    const error = errorOf(await runner.run(samplingParams(), makeContext().context));
    assert.equal(server.chatRequests.length, before + 1);
    assert.match(error.message, /asks to wait 3600 s/);
  });

  it('retries a 500 and succeeds, and fails clearly after bounded 500s', async () => {
    const { runner, retries } = await makeRunner(server, { apiKey: SECRET_KEY });
    server.enqueue({ kind: 'error', status: 500, message: 'boom' }, { kind: 'text', tokens: ['recovered'] });
    const ok = await runner.run(samplingParams(), makeContext().context);
    assert.equal(textOf(ok), 'recovered');
    assert.equal(retries.items.length, 1);

    const failing = { kind: 'error' as const, status: 503, message: 'overloaded' };
    server.enqueue(failing, failing, failing);
    const before = server.chatRequests.length;
    const error = errorOf(await runner.run(samplingParams(), makeContext().context));
    assert.equal(server.chatRequests.length, before + 3);
    assert.match(error.message, /had a server error \(503\): overloaded/);
  });

  it('times out a provider that sends nothing, on the clock, and closes the connection', async () => {
    const clock = new ManualClock();
    const { runner } = await makeRunner(server, { apiKey: SECRET_KEY, clock, firstByteTimeoutMs: 30_000 });
    server.enqueue({ kind: 'hold', headers: false });
    const running = runner.run(samplingParams(), makeContext().context);
    const held = await server.nextHeld();
    await clock.advance(29_999);
    await clock.advance(1);
    const error = errorOf(await running);
    assert.match(error.message, /did not answer within 30 s/);
    assert.equal((error.data as { kind: string }).kind, 'timeout');
    await held.closed;
    assert.equal(held.closedByClient, true);
  });

  it('times out a stream that goes silent mid-answer', async () => {
    const clock = new ManualClock();
    const { runner, partials } = await makeRunner(server, { apiKey: SECRET_KEY, clock, idleTimeoutMs: 5_000 });
    server.enqueue({ kind: 'hold' });
    const running = runner.run(samplingParams(), makeContext().context);
    const held = await server.nextHeld();
    held.push('Once upon');
    await partials.next();
    await clock.advance(5_000);
    const error = errorOf(await running);
    assert.match(error.message, /did not answer within 5 s/);
    await held.closed;
  });

  it('reports an unreachable server', async () => {
    const port = await closedPort();
    const { runner } = await makeRunner(server, { provider: { baseURL: `http://127.0.0.1:${port}/v1` } });
    const error = errorOf(await runner.run(samplingParams(), makeContext().context));
    assert.equal(error.code, -32603);
    assert.equal(
      error.message,
      `Could not connect to Fake LLM (127.0.0.1:${port}). Is the server running and the base URL right?`
    );
  });

  it('reports a connection dropped mid-stream, after the partial text it got', async () => {
    const { runner, partials } = await makeRunner(server, { apiKey: SECRET_KEY });
    server.enqueue({ kind: 'drop', tokens: ['Half', ' an'] });
    const error = errorOf(await runner.run(samplingParams(), makeContext().context));
    assert.match(error.message, /The connection to Fake LLM \(127\.0\.0\.1:\d+\) dropped before the model finished/);
    assert.deepEqual(
      partials.items.map((p) => [p.delta, p.done ?? false]),
      [
        ['Half', false],
        [' an', false],
        ['', true]
      ],
      'a failed stream ends with a done update too'
    );
  });

  it('cancels mid-stream: the signal closes the HTTP request and the outcome is an error', async () => {
    const { runner, partials } = await makeRunner(server, { apiKey: SECRET_KEY });
    server.enqueue({ kind: 'hold' });
    const { context, controller } = makeContext();
    const running = runner.run(samplingParams(), context);
    const held = await server.nextHeld();
    held.push('Start');
    await partials.next();
    controller.abort();
    const error = errorOf(await running);
    assert.deepEqual(error, { code: -32800, message: 'The model run was cancelled.' });
    await held.closed;
    assert.equal(held.closedByClient, true, 'the server should see the client close the connection');
  });

  it('does not call the provider when already cancelled', async () => {
    const { runner } = await makeRunner(server, { apiKey: SECRET_KEY });
    const { context, controller } = makeContext();
    // The receiver aborts with its own error, which says why; it is passed through.
    controller.abort(new HostError(JsonRpcCode.RequestCancelled, 'Task task-1 expired'));
    const before = server.requests.length;
    assert.deepEqual(errorOf(await runner.run(samplingParams(), context)), {
      code: -32800,
      message: 'Task task-1 expired'
    });
    assert.equal(server.requests.length, before);
  });

  it('throttles progress to one notification per interval on the clock', async () => {
    const clock = new ManualClock();
    const { runner, partials } = await makeRunner(server, { apiKey: SECRET_KEY, clock, progressIntervalMs: 250 });
    server.enqueue({ kind: 'hold' });
    const { context, progress } = makeContext();
    const running = runner.run(samplingParams({ maxTokens: 100 }), context);
    const held = await server.nextHeld();
    held.push('a');
    await partials.next();
    held.push('b');
    await partials.next();
    held.push('c');
    await partials.next();
    assert.equal(progress.items.length, 1, 'only the first token within 250 ms is reported');
    await clock.advance(250);
    held.push('d');
    await partials.next();
    held.finish();
    const outcome = await running;
    assert.equal(textOf(outcome), 'abcd');
    assert.deepEqual(progress.items, [
      { progress: 1, total: 100, message: 'Generating with fake-small' },
      { progress: 4, total: 100, message: 'Generating with fake-small' }
    ]);
  });

  it('fails clearly when no provider is configured', async () => {
    const { runner, registry } = await makeRunner(server);
    await registry.remove('fake');
    const error = errorOf(await runner.run(samplingParams(), makeContext().context));
    assert.match(error.message, /No LLM provider lists a model to run this request: add one under LLM providers/);
    // What a server is told instead (`failureForServer`).
    assert.deepEqual(error.data, { kind: 'no-model' });
  });
});

describe('LlmSamplingRunner with a keyless local provider', { timeout: 15_000 }, () => {
  it('sends no Authorization header', async () => {
    const local = await FakeOpenAIServer.start();
    try {
      const { runner } = await makeRunner(local);
      const outcome = await runner.run(samplingParams(), makeContext().context);
      assert.equal(outcome.type, 'result');
      assert.equal(local.chatRequests[0]!.authorization, undefined);
    } finally {
      await local.close();
    }
  });
});
