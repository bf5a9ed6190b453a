import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CreateMessageRequestParamsSchema,
  type CreateMessageRequestParams,
  type SamplingMessage
} from '@modelcontextprotocol/sdk/types.js';
import { HostError, JsonRpcCode } from '../../../app/core/errors.js';
import { toChatCompletionRequest } from '../../../app/sampling/request-mapping.js';

const target = { model: 'm', tokenLimitParam: 'max_tokens' as const };

// Params go through the SDK's own schema first, so the shapes are what a server can send.
function params(input: Record<string, unknown>): CreateMessageRequestParams {
  return CreateMessageRequestParamsSchema.parse({ maxTokens: 100, ...input });
}

function rejects(messages: SamplingMessage[], pattern: RegExp): void {
  assert.throws(
    () => toChatCompletionRequest(params({ messages }), target),
    (error: unknown) =>
      error instanceof HostError && error.code === JsonRpcCode.InvalidParams && pattern.test(error.message)
  );
}

const toolUse = (id: string) => ({ type: 'tool_use', id, name: 'get_weather', input: { city: id } });
const toolResult = (id: string, text = `result ${id}`) => ({
  type: 'tool_result',
  toolUseId: id,
  content: [{ type: 'text', text }]
});

describe('toChatCompletionRequest', () => {
  it('maps the system prompt, text messages and the sampling knobs', () => {
    const request = toChatCompletionRequest(
      params({
        systemPrompt: 'Be brief.',
        messages: [
          { role: 'user', content: { type: 'text', text: 'Hi' } },
          { role: 'assistant', content: { type: 'text', text: 'Hello!' } },
          { role: 'user', content: [{ type: 'text', text: 'Capital of France?' }] }
        ],
        temperature: 0.2,
        stopSequences: ['\n\n', 'END'],
        includeContext: 'allServers',
        metadata: { trace: 'x' }
      }),
      target
    );
    assert.deepEqual(request, {
      model: 'm',
      stream: true,
      max_tokens: 100,
      temperature: 0.2,
      stop: ['\n\n', 'END'],
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello!' },
        { role: 'user', content: 'Capital of France?' }
      ]
    });
  });

  it('uses max_completion_tokens when the provider wants it', () => {
    const request = toChatCompletionRequest(
      params({ messages: [{ role: 'user', content: { type: 'text', text: 'x' } }] }),
      {
        model: 'gpt-4o',
        tokenLimitParam: 'max_completion_tokens'
      }
    );
    assert.equal(request.max_completion_tokens, 100);
    assert.equal(request.max_tokens, undefined);
  });

  it('sends images as data URLs and wav/mp3 audio as input_audio', () => {
    const request = toChatCompletionRequest(
      params({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is in these?' },
              { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
              { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
              { type: 'audio', data: 'SUQz', mimeType: 'audio/mpeg' }
            ]
          }
        ]
      }),
      target
    );
    assert.deepEqual(request.messages[0], {
      role: 'user',
      content: [
        { type: 'text', text: 'What is in these?' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
        { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
        { type: 'input_audio', input_audio: { data: 'SUQz', format: 'mp3' } }
      ]
    });
  });

  it('rejects audio types chat completions cannot take, and media in assistant turns', () => {
    rejects(
      [{ role: 'user', content: { type: 'audio', data: 'AAAA', mimeType: 'audio/ogg' } }],
      /audio\/ogg is not supported/
    );
    rejects(
      [{ role: 'assistant', content: { type: 'image', data: 'AAAA', mimeType: 'image/png' } }],
      /only text and tool_use in assistant/
    );
  });

  it('maps tools, tool choice, tool_use and tool_result both ways round a loop', () => {
    const request = toChatCompletionRequest(
      params({
        messages: [
          { role: 'user', content: { type: 'text', text: 'Weather in Paris and London?' } },
          { role: 'assistant', content: [{ type: 'text', text: 'Checking.' }, toolUse('call_1'), toolUse('call_2')] },
          {
            role: 'user',
            content: [
              toolResult('call_1', '18°C'),
              { type: 'tool_result', toolUseId: 'call_2', content: [], structuredContent: { temp: 15 }, isError: true }
            ]
          }
        ],
        tools: [
          {
            name: 'get_weather',
            description: 'Weather for a city',
            inputSchema: { type: 'object', properties: { city: { type: 'string' } } }
          }
        ],
        toolChoice: { mode: 'required' }
      }),
      target
    );
    assert.deepEqual(request.tools, [
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Weather for a city',
          parameters: { type: 'object', properties: { city: { type: 'string' } } }
        }
      }
    ]);
    assert.equal(request.tool_choice, 'required');
    assert.deepEqual(request.messages.slice(1), [
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"call_1"}' } },
          { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"call_2"}' } }
        ]
      },
      { role: 'tool', tool_call_id: 'call_1', content: '18°C' },
      { role: 'tool', tool_call_id: 'call_2', content: 'Tool error: {"temp":15}' }
    ]);
  });

  it('maps each tool choice mode and leaves tool_choice out without tools', () => {
    const messages = [{ role: 'user', content: { type: 'text', text: 'x' } }];
    const tools = [{ name: 't', inputSchema: { type: 'object' } }];
    for (const mode of ['auto', 'required', 'none'] as const) {
      assert.equal(
        toChatCompletionRequest(params({ messages, tools, toolChoice: { mode } }), target).tool_choice,
        mode
      );
    }
    const noTools = toChatCompletionRequest(params({ messages, toolChoice: { mode: 'required' } }), target);
    assert.equal(noTools.tool_choice, undefined);
    assert.equal(noTools.tools, undefined);
  });

  it('names media in tool results instead of dropping them silently', () => {
    const request = toChatCompletionRequest(
      params({
        messages: [
          { role: 'user', content: { type: 'text', text: 'x' } },
          { role: 'assistant', content: toolUse('a') },
          {
            role: 'user',
            content: {
              type: 'tool_result',
              toolUseId: 'a',
              content: [
                { type: 'text', text: 'see picture' },
                { type: 'image', data: 'AAAA', mimeType: 'image/png' },
                { type: 'resource', resource: { uri: 'file:///a.txt', text: 'file text' } },
                { type: 'resource_link', uri: 'file:///b.bin', name: 'b' }
              ]
            }
          }
        ]
      }),
      target
    );
    assert.deepEqual(request.messages[2], {
      role: 'tool',
      tool_call_id: 'a',
      content:
        'see picture\n[image (image/png) not included: tool messages carry text only]\nfile text\n[resource: file:///b.bin]'
    });
  });
});

describe('tool use and result balance (-32602)', () => {
  const ask = { role: 'user' as const, content: { type: 'text' as const, text: 'go' } };

  it('rejects a result for an id that was never used', () => {
    rejects(
      [
        ask,
        { role: 'assistant', content: toolUse('a') } as SamplingMessage,
        { role: 'user', content: toolResult('b') } as SamplingMessage
      ],
      /unknown toolUseId "b"/
    );
  });

  it('rejects a missing result', () => {
    rejects(
      [
        ask,
        { role: 'assistant', content: [toolUse('a'), toolUse('b')] } as SamplingMessage,
        { role: 'user', content: toolResult('a') } as SamplingMessage
      ],
      /no tool_result for tool_use id\(s\) "b"/
    );
  });

  it('rejects a tool_use followed by something other than its results', () => {
    rejects(
      [ask, { role: 'assistant', content: toolUse('a') } as SamplingMessage, ask],
      /must be answered by tool_result/
    );
    rejects([ask, { role: 'assistant', content: toolUse('a') } as SamplingMessage], /have no tool_result/);
  });

  it('rejects results mixed with other content, duplicates, and blocks in the wrong role', () => {
    rejects(
      [
        ask,
        { role: 'assistant', content: toolUse('a') } as SamplingMessage,
        { role: 'user', content: [toolResult('a'), { type: 'text', text: 'and' }] } as SamplingMessage
      ],
      /only tool_result blocks/
    );
    rejects(
      [
        ask,
        { role: 'assistant', content: toolUse('a') } as SamplingMessage,
        { role: 'user', content: [toolResult('a'), toolResult('a')] } as SamplingMessage
      ],
      /more than one tool_result for toolUseId "a"/
    );
    rejects([{ role: 'user', content: toolUse('a') } as SamplingMessage], /only allowed in assistant/);
    rejects([ask, { role: 'assistant', content: toolResult('a') } as SamplingMessage], /only allowed in user/);
    rejects(
      [ask, { role: 'assistant', content: [toolUse('a'), toolUse('a')] } as SamplingMessage],
      /duplicate tool_use id "a"/
    );
    rejects([{ role: 'user', content: toolResult('a') } as SamplingMessage], /unknown toolUseId "a"/);
  });
});
