import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detailPairs } from '../../../renderer/audit/detail-pairs.js';

/** The pairs as the Audit log shows them: name, value, and whether the value is JSON. */
const shown = (detail: Record<string, unknown>) =>
  detailPairs(detail).map(({ name, value, json }) => [name, value, json] as const);

describe('an audit entry’s detail in words', () => {
  it('says a task’s ttl and the ttl its server asked for as durations, not milliseconds', () => {
    assert.deepEqual(shown({ kind: 'elicitation', ttl: 600_000, requestedTtl: 600_000 }), [
      ['kind', 'question', false],
      ['kept for', '10 min', false],
      ['asked for', '10 min', false]
    ]);
    // No ttl asked for: the log keeps null, the screen says nothing of it.
    assert.deepEqual(shown({ ttl: 90_000, requestedTtl: null }), [
      ['kept for', '1 min 30 s', false],
      ['asked for', '—', false]
    ]);
    assert.deepEqual(shown({ bytes: 2048, retryAfterMs: 5_000 }), [
      ['bytes', '2048', false],
      ['retry after', '5 s', false]
    ]);
  });

  it('says a connection’s protocol and server program in words, not as the era or JSON', () => {
    assert.deepEqual(
      shown({ status: 'ready', era: 'legacy', serverInfo: { name: 'mcp-servers/everything', version: '2.0.0' } }),
      [
        ['status', 'ready', false],
        ['speaks', 'MCP 2025-11-25 or earlier', false],
        ['server program', 'mcp-servers/everything 2.0.0', false]
      ]
    );
    // With the version kept, the era it implies is not said again.
    assert.deepEqual(shown({ status: 'ready', protocolVersion: '2025-06-18', era: 'legacy' }), [
      ['status', 'ready', false],
      ['speaks', 'MCP 2025-06-18', false]
    ]);
  });

  it('keeps JSON only for what is data, and says flags as yes or no', () => {
    assert.deepEqual(shown({ tool: 'echo', arguments: { message: 'hi' }, outcome: 'result' }), [
      ['tool', 'echo', false],
      ['arguments', '{"message":"hi"}', true],
      ['outcome', 'result', false]
    ]);
    assert.deepEqual(shown({ providerId: 'cloud', baseURL: 'https://x.example/v1', hasKey: true }), [
      ['provider id', 'cloud', false],
      ['base URL', 'https://x.example/v1', false],
      ['key stored', 'yes', false]
    ]);
    assert.deepEqual(shown({ alwaysAllow: ['echo'] }), [['always allowed', '["echo"]', true]]);
    // What a person changed of a model request or answer, and what kind of item, in words.
    assert.deepEqual(
      shown({ changed: ['messages', 'systemPrompt', 'model'] }).map(([, value, json]) => [value, json]),
      [['the messages, the system prompt and the model', false]]
    );
    assert.deepEqual(
      shown({ changed: ['content'] }).map(([, value]) => value),
      ['the answer']
    );
    assert.deepEqual(
      shown({ kind: 'elicitation' }).map(([, value]) => value),
      ['question']
    );
    assert.deepEqual(
      shown({ kind: 'sampling-review' }).map(([, value]) => value),
      ['model’s answer to review']
    );
  });

  it('does not list again what the entry’s sentence says, and names the fields that are code in words', () => {
    const of = (type: string, detail: Record<string, unknown>) =>
      detailPairs(detail, type).map(({ name, value }) => [name, value] as const);
    // "Disconnected" says its status; "You changed the server's name and command; it was named …" its fields.
    assert.deepEqual(of('server.state', { status: 'closed', reason: 'Disconnected by you' }), [
      ['reason', 'Disconnected by you']
    ]);
    assert.deepEqual(of('server.updated', { changed: ['name', 'transport.command'], previousName: 'Notes' }), []);
    // "You called the tool echo": the arguments stay, the tool and outcome go.
    assert.deepEqual(of('tool.called', { tool: 'echo', arguments: { message: 'hi' }, outcome: 'result' }), [
      ['arguments', '{"message":"hi"}']
    ]);
    assert.deepEqual(of('server.signed-in', { issuer: 'https://auth.example', browser: true }), [
      ['in the browser', 'yes']
    ]);
    assert.deepEqual(of('server.imported', { key: 'github', from: 'Claude Desktop', transport: 'stdio' }), [
      ['named there', 'github'],
      ['from', 'Claude Desktop'],
      ['transport', 'stdio']
    ]);
    assert.deepEqual(of('assistant.tool-decision', { tool: 'echo', decision: 'deny', toolCallId: 'call_1' }), [
      ['tool call id', 'call_1']
    ]);
    // Without the type (a caller that has none), every field is listed.
    assert.equal(detailPairs({ status: 'closed' }).length, 1);
  });

  it('leaves to the Task column what it says, and words the ids and files the log keeps', () => {
    const detail = { question: 'Who wrote Ivanhoe?', outboundId: 'o1', modelFile: '/models/tiny.gguf' };
    assert.deepEqual(
      detailPairs(detail, 'task.created', ['question']).map(({ name, value }) => [name, value]),
      [
        ['Taskdesk’s task id', 'o1'],
        ['model file', '/models/tiny.gguf']
      ]
    );
    assert.equal(detailPairs(detail, 'task.created')[0]?.name, 'question');
  });
});
