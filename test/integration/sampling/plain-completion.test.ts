import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CreateMessageResultWithToolsSchema } from '@modelcontextprotocol/sdk/types.js';
import { FakeOpenAIServer } from '../../support/fake-openai-server.js';
import { makeContext, makeRunner, samplingParams, SECRET_KEY } from './harness.js';

/** Some local OpenAI-compatible servers answer `stream: true` with one JSON completion. */
describe('a provider that answers a streamed request with a plain JSON completion', { timeout: 15_000 }, () => {
  let server: FakeOpenAIServer;
  before(async () => {
    server = await FakeOpenAIServer.start({ apiKey: SECRET_KEY, models: ['fake-small'] });
  });
  after(() => server.close());

  it('is read as the answer, with its finish reason, model and partial text', async () => {
    server.enqueue({
      kind: 'text',
      tokens: ['Plain', ' answer.'],
      model: 'fake-small-2026',
      finishReason: 'length',
      plain: true
    });
    const { runner, partials } = await makeRunner(server, { apiKey: SECRET_KEY });
    const before = server.chatRequests.length;
    const outcome = await runner.run(samplingParams(), makeContext().context);
    assert.equal(server.chatRequests[before]!.body.stream, true, 'the request still asked for a stream');
    assert.deepEqual(outcome, {
      type: 'result',
      result: {
        role: 'assistant',
        model: 'fake-small-2026',
        stopReason: 'maxTokens',
        content: { type: 'text', text: 'Plain answer.' }
      }
    });
    assert.equal(partials.items.at(-1)?.text, 'Plain answer.');
    assert.equal(partials.items.at(-1)?.done, true);
  });

  it('keeps tool calls', async () => {
    server.enqueue({
      kind: 'tool-calls',
      calls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' }],
      plain: true
    });
    const { runner } = await makeRunner(server, { apiKey: SECRET_KEY });
    const tool = { name: 'get_weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } };
    const outcome = await runner.run(samplingParams({ tools: [tool] }), makeContext().context);
    assert.equal(outcome.type, 'result');
    if (outcome.type !== 'result') return;
    CreateMessageResultWithToolsSchema.parse(outcome.result);
    assert.equal(outcome.result.stopReason, 'toolUse');
    assert.deepEqual(outcome.result.content, [
      { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Oslo' } }
    ]);
  });

  it('still fails as dropped when a streamed answer really ends without finishing', async () => {
    server.enqueue({ kind: 'drop', tokens: ['Half'] });
    const { runner } = await makeRunner(server, { apiKey: SECRET_KEY });
    const outcome = await runner.run(samplingParams(), makeContext().context);
    assert.equal(outcome.type, 'error');
    assert.match(outcome.type === 'error' ? outcome.error.message : '', /dropped before the model finished/);
  });
});
