import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CreateMessageRequestParamsSchema,
  CreateMessageResultSchema,
  CreateMessageResultWithToolsSchema
} from '@modelcontextprotocol/sdk/types.js';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { MalformedCompletionError, stopReasonOf, toCreateMessageResult } from '../../../app/sampling/result-mapping.js';
import { StreamAccumulator, type AccumulatedCompletion } from '../../../app/sampling/stream-accumulator.js';

function chunk(
  delta: Record<string, unknown>,
  finish: string | null = null,
  extra: Record<string, unknown> = {}
): ChatCompletionChunk {
  return {
    id: 'c',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'served-model-1',
    choices: [{ index: 0, delta, finish_reason: finish, ...extra }]
  } as ChatCompletionChunk;
}

const plain = CreateMessageRequestParamsSchema.parse({ messages: [], maxTokens: 10, stopSequences: ['END'] });
const withTools = CreateMessageRequestParamsSchema.parse({
  messages: [],
  maxTokens: 10,
  tools: [{ name: 'get_weather', inputSchema: { type: 'object' } }]
});

function completion(overrides: Partial<AccumulatedCompletion>): AccumulatedCompletion {
  return { text: '', toolCalls: [], finishReason: 'stop', model: 'm', matchedStop: undefined, deltas: 0, ...overrides };
}

describe('StreamAccumulator', () => {
  it('joins text and tool-call fragments, and keeps the served model and finish reason', () => {
    const acc = new StreamAccumulator();
    assert.equal(acc.add(chunk({ role: 'assistant', content: '' })), '');
    assert.equal(acc.add(chunk({ content: 'Let me ' })), 'Let me ');
    acc.add(chunk({ content: 'check.' }));
    acc.add(
      chunk({
        tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'get_', arguments: '{"ci' } }]
      })
    );
    acc.add(
      chunk({
        tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'get_weather', arguments: '{}' } }]
      })
    );
    acc.add(chunk({ tool_calls: [{ index: 0, function: { name: 'weather', arguments: 'ty":"Paris"}' } }] }));
    acc.add(chunk({}, 'tool_calls'));
    const result = acc.result();
    assert.equal(result.text, 'Let me check.');
    assert.equal(result.model, 'served-model-1');
    assert.equal(result.finishReason, 'tool_calls');
    assert.deepEqual(result.toolCalls, [
      { id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { id: 'call_b', name: 'get_weather', arguments: '{}' }
    ]);
    assert.equal(result.deltas, 5);
  });

  it('records the stop string vLLM reports', () => {
    const acc = new StreamAccumulator();
    acc.add(chunk({}, 'stop', { stop_reason: 'END' }));
    assert.equal(acc.result().matchedStop, 'END');
  });
});

describe('stopReasonOf', () => {
  it('maps every finish reason', () => {
    assert.equal(stopReasonOf(completion({ finishReason: 'stop' }), ['END']), 'endTurn');
    assert.equal(stopReasonOf(completion({ finishReason: 'stop', matchedStop: 'END' }), ['END']), 'stopSequence');
    // A stop_reason that is not one of our stop sequences (vLLM reports EOS token ids too).
    assert.equal(stopReasonOf(completion({ finishReason: 'stop', matchedStop: '</s>' }), ['END']), 'endTurn');
    assert.equal(stopReasonOf(completion({ finishReason: 'length' })), 'maxTokens');
    assert.equal(stopReasonOf(completion({ finishReason: 'tool_calls' })), 'toolUse');
    assert.equal(stopReasonOf(completion({ finishReason: 'function_call' })), 'toolUse');
    assert.equal(stopReasonOf(completion({ finishReason: 'content_filter' })), 'contentFilter');
    assert.equal(stopReasonOf(completion({ finishReason: 'eos' })), 'eos');
    assert.equal(stopReasonOf(completion({ finishReason: null })), undefined);
  });

  it('says toolUse whenever there are tool calls (Ollama sends them with stop)', () => {
    assert.equal(
      stopReasonOf(completion({ finishReason: 'stop', toolCalls: [{ id: 'a', name: 'n', arguments: '{}' }] })),
      'toolUse'
    );
  });
});

describe('toCreateMessageResult', () => {
  it('returns one text block with the served model', () => {
    const result = toCreateMessageResult(completion({ text: 'Paris.', model: 'served' }), plain, 'asked');
    assert.deepEqual(result, {
      role: 'assistant',
      model: 'served',
      stopReason: 'endTurn',
      content: { type: 'text', text: 'Paris.' }
    });
    CreateMessageResultSchema.parse(result);
  });

  it('falls back to the requested model when the provider names none', () => {
    assert.equal(toCreateMessageResult(completion({ model: undefined }), plain, 'asked').model, 'asked');
  });

  it('returns text then tool_use blocks, with parsed input', () => {
    const result = toCreateMessageResult(
      completion({
        text: 'Checking.',
        finishReason: 'tool_calls',
        toolCalls: [
          { id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' },
          { id: '', name: 'get_weather', arguments: '' }
        ]
      }),
      withTools,
      'asked'
    );
    assert.deepEqual(result.content, [
      { type: 'text', text: 'Checking.' },
      { type: 'tool_use', id: 'call_a', name: 'get_weather', input: { city: 'Paris' } },
      { type: 'tool_use', id: 'call_2', name: 'get_weather', input: {} }
    ]);
    assert.equal(result.stopReason, 'toolUse');
    CreateMessageResultWithToolsSchema.parse(result);
  });

  it('refuses malformed tool calls', () => {
    const bad = (args: string) => completion({ toolCalls: [{ id: 'a', name: 'get_weather', arguments: args }] });
    assert.throws(() => toCreateMessageResult(bad('{"city":'), withTools, 'm'), MalformedCompletionError);
    assert.throws(() => toCreateMessageResult(bad('[1]'), withTools, 'm'), /not a JSON object/);
    assert.throws(() => toCreateMessageResult(bad('{}'), plain, 'm'), /offered none/);
  });
});
