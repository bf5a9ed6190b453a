import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { functionNames } from '../../../app/assistant/tool-names.js';
import { toChatMessages, toolResultForModel } from '../../../app/assistant/chat-messages.js';

const VALID = /^[a-zA-Z0-9_-]{1,64}$/;

describe('assistant function names', () => {
  it('are server__tool when that is valid, and valid, unique and stable otherwise', () => {
    const tools = [
      { serverId: 'files', toolName: 'read' },
      { serverId: 'my.server', toolName: 'read file' },
      { serverId: 'a', toolName: 'b__c' },
      { serverId: 'a__b', toolName: 'c' },
      { serverId: 'long', toolName: 'x'.repeat(80) },
      { serverId: 'long', toolName: `${'x'.repeat(80)}y` }
    ];
    const names = functionNames(tools);
    assert.equal(names[0]!.functionName, 'files__read');
    for (const { functionName } of names) assert.match(functionName, VALID);
    assert.equal(new Set(names.map((n) => n.functionName)).size, tools.length, 'no two tools share a name');
    assert.deepEqual(functionNames(tools), names, 'the same tools get the same names next time');
    assert.deepEqual(
      names.map(({ serverId, toolName }) => ({ serverId, toolName })),
      tools
    );
  });
});

describe('assistant result mapping', () => {
  it('reads text, resources, links, structured content and errors for the model, images aside', () => {
    const mapped = toolResultForModel({
      content: [
        { type: 'text', text: 'Found it' },
        { type: 'resource', resource: { uri: 'file:///a.txt', text: 'hello' } },
        { type: 'resource', resource: { uri: 'file:///b.bin', mimeType: 'application/octet-stream', blob: 'AA==' } },
        { type: 'resource_link', uri: 'file:///c.txt', name: 'c' },
        { type: 'image', mimeType: 'image/png', data: 'AAA' },
        { type: 'audio', mimeType: 'audio/wav', data: 'AAA' }
      ]
    });
    assert.equal(
      mapped.text,
      [
        'Found it',
        '[resource file:///a.txt]\nhello',
        '[binary resource: file:///b.bin (application/octet-stream)]',
        '[resource link: file:///c.txt (c)]',
        '[image 1 (image/png)]',
        '[audio (audio/wav) not included: the model cannot take audio from a tool]'
      ].join('\n')
    );
    assert.deepEqual(mapped.images, [{ mimeType: 'image/png', data: 'AAA' }]);
    assert.equal(toolResultForModel({ content: [], structuredContent: { n: 1 } }).text, '{"n":1}');
    assert.equal(toolResultForModel({ content: [{ type: 'text', text: 'no' }], isError: true }).text, 'Tool error: no');
  });

  it('orders tool messages as the calls, names images when the model takes none, and leaves errors out', () => {
    const base = {
      id: 'x',
      createdAt: '',
      updatedAt: '',
      status: 'idle' as const,
      title: 't',
      providerId: 'p',
      model: 'm',
      serverIds: [],
      maxToolRounds: 10
    };
    const at = '2026-01-01T00:00:00.000Z';
    const messages = [
      { id: '1', at, role: 'user' as const, text: 'hi' },
      {
        id: '2',
        at,
        role: 'assistant' as const,
        text: '',
        toolCalls: [
          { id: 'a', functionName: 's__a', rawArguments: '{}', state: 'completed' as const },
          { id: 'b', functionName: 's__b', rawArguments: '{}', state: 'completed' as const }
        ]
      },
      {
        id: '3',
        at,
        role: 'tool' as const,
        toolCallId: 'b',
        text: 'B',
        images: [{ mimeType: 'image/png', data: 'Z' }]
      },
      { id: '4', at, role: 'tool' as const, toolCallId: 'a', text: 'A' },
      { id: '5', at, role: 'error' as const, kind: 'auth', message: 'bad key', retryable: true }
    ];
    const withImages = toChatMessages({ ...base, imageInput: true, systemPrompt: 'S', messages });
    assert.deepEqual(
      withImages.map((m) => m.role),
      ['system', 'user', 'assistant', 'tool', 'tool', 'user']
    );
    assert.deepEqual(
      withImages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id),
      ['a', 'b']
    );
    const textOnly = toChatMessages({ ...base, imageInput: false, messages });
    assert.deepEqual(
      textOnly.map((m) => m.role),
      ['user', 'assistant', 'tool', 'tool']
    );
  });
});
