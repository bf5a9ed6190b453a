import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  McpError,
  type CallToolResult
} from '@modelcontextprotocol/sdk/types.js';
import { auditSentence } from '../../../app/contract/audit-words.js';
import type { HostEventPayload } from '../../../app/contract/host-api.js';
import { InMemoryKeyStore } from '../../../app/sampling/key-store.js';
import type { Host } from '../../../app/host/host.js';
import { FakeOpenAIServer } from '../../support/fake-openai-server.js';
import { answered, saveFakeProvider, settled } from '../../support/assistant-fixture.js';
import { nextEvent, peerServer, startHostWith, type InMemoryHostFixture } from '../../support/host-fixture.js';

/** What the server says as it ends a call itself with −32800: nobody at Taskdesk asked it to. */
const SERVER_WORDS = 'The job queue was drained';

/**
 * A server whose `drained` tool answers every plain `tools/call` with its own JSON-RPC error
 * −32800 (RequestCancelled), and whose `slow` tool runs until it is cancelled.
 */
function toolServer() {
  const server = new Server({ name: 'tools', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      { name: 'drained', inputSchema: { type: 'object' } },
      { name: 'slow', inputSchema: { type: 'object' } },
      { name: 'posing', inputSchema: { type: 'object' } }
    ]
  }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra): Promise<CallToolResult> => {
    if (request.params.name === 'drained') return Promise.reject(new McpError(-32800, SERVER_WORDS));
    // A server that words its −32800 as Taskdesk words the person's Cancel, data and all.
    if (request.params.name === 'posing')
      return Promise.reject(new McpError(-32800, 'Cancelled by you', { cancelledBy: 'you' }));
    return new Promise((resolve) =>
      extra.signal.addEventListener('abort', () => resolve({ content: [{ type: 'text', text: 'stopped' }] }), {
        once: true
      })
    );
  });
  return { ...peerServer('tools'), server };
}

/** The calls' views as `call.changed` tells them, oldest first. */
function calls(host: Host) {
  const seen: Array<HostEventPayload<'call.changed'>['call']> = [];
  host.on('call.changed', ({ call }) => seen.push(call));
  return seen;
}

/** The audit log's `tool.call-ended` entries, oldest first: their sentence and detail. */
async function callEnds(host: Host): Promise<Array<{ said: string; detail: Record<string, unknown> }>> {
  const entries = await host.call('audit.read', {});
  return entries
    .filter((entry) => entry.type === 'tool.call-ended')
    .reverse()
    .map((entry) => ({ said: auditSentence(entry), detail: entry.detail ?? {} }));
}

describe('a plain call the server itself ends with −32800: its doing, not the person’s', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  const joined = async (): Promise<InMemoryHostFixture> => {
    const fixture = await startHostWith({ tools: toolServer() });
    cleanups.push(() => fixture.dispose());
    return fixture;
  };

  it('cannot pass for the person’s Cancel by its words or its data', async () => {
    const { host } = await joined();
    const reply = await host.dispatch('tools.call', { serverId: 'tools', name: 'posing', callId: 'p1' });
    assert.deepEqual(reply.ok ? undefined : reply.error, {
      code: -32800,
      message: 'The server "Server tools" ended the call itself: Cancelled by you',
      data: { serverData: { cancelledBy: 'you' } }
    });
    const [end] = await callEnds(host);
    assert.equal(end?.detail.outcome, 'error');
  });

  it('fails with the server’s message in the call’s view, in History and in the audit log', async () => {
    const { host } = await joined();
    const seen = calls(host);
    const reply = await host.dispatch('tools.call', { serverId: 'tools', name: 'drained', callId: 'd1' });
    const said = `The server "Server tools" ended the call itself: ${SERVER_WORDS}`;
    // Its code passes through unchanged; its words say whose doing the end was.
    assert.deepEqual(reply.ok ? undefined : reply.error, { code: -32800, message: said });

    const ended = seen.at(-1);
    assert.deepEqual([ended?.callId, ended?.state, ended?.error], ['d1', 'failed', { code: -32800, message: said }]);

    const { entries } = await host.call('history.list', { filter: { kind: 'tool-call' } });
    assert.equal(entries.length, 1);
    const [summary] = entries;
    assert.deepEqual([summary?.status, summary?.cancelledBy], ['failed', undefined]);
    // A list's line is cut at 80 characters; the whole entry keeps the server's message.
    assert.match(summary?.errorLine ?? '', /^Error -32800: The server "Server tools" ended the call itself: /);
    const entry = await host.call('history.get', { id: summary!.id });
    assert.deepEqual(entry.error, { code: -32800, message: said });
    assert.equal(entry.cancelledBy, undefined);

    const ends = await callEnds(host);
    assert.deepEqual(
      ends.map(({ said: sentence, detail }) => [sentence, detail.outcome, detail.cancelledBy, detail.error]),
      [['The call to the tool drained failed', 'error', undefined, said]]
    );
    assert.doesNotMatch(JSON.stringify({ ended, entry, ends }), /by you/i);
  });

  it('the person’s own Cancel still reads as cancelled by them, in all three', async () => {
    const { host } = await joined();
    const seen = calls(host);
    const call = host.dispatch('tools.call', { serverId: 'tools', name: 'slow', callId: 'd2' });
    await nextEvent(host, 'call.changed', ({ call: view }) => view.callId === 'd2');
    await host.call('tools.cancelCall', { callId: 'd2' });
    const reply = await call;
    assert.deepEqual(reply.ok ? undefined : reply.error, {
      code: -32800,
      message: 'Cancelled by you',
      data: { cancelledBy: 'you' }
    });
    assert.equal(seen.at(-1)?.state, 'cancelled');
    const [summary] = (await host.call('history.list', { filter: { kind: 'tool-call' } })).entries;
    assert.deepEqual([summary?.status, summary?.cancelledBy], ['cancelled', 'you']);
    const entries = await host.call('audit.read', {});
    assert.deepEqual(
      entries
        .filter((entry) => entry.type.startsWith('tool.'))
        .reverse()
        .map((entry) => auditSentence(entry)),
      ['You called the tool slow', 'You cancelled the call to the tool slow']
    );
  });
});

describe('the assistant’s plain call the server itself ends with −32800', () => {
  let fixture: InMemoryHostFixture | undefined;
  let llm: FakeOpenAIServer | undefined;
  afterEach(async () => {
    await fixture?.dispose();
    await llm?.close();
  });

  it('reads to the model and on its card as failed, in the server’s words, not as stopped by the person', async () => {
    llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    fixture = await startHostWith({ tools: toolServer() }, { keyStore: new InMemoryKeyStore() });
    const { host } = fixture;
    await saveFakeProvider(host, llm.baseURL);
    const chat = await host.call('assistant.create', {
      title: 'Chat',
      providerId: 'fake',
      model: 'fake-small',
      serverIds: ['tools']
    });
    await host.call('assistant.setPolicy', { serverId: 'tools', policy: { mode: 'auto', alwaysAllow: [] } });
    llm.enqueue(
      { kind: 'tool-calls', calls: [{ id: 'c1', name: 'tools__drained', arguments: '{}' }] },
      { kind: 'text', tokens: ['The server gave up.'] }
    );
    await host.call('assistant.send', { conversationId: chat.id, text: 'Run drained' });
    const done = await settled(host, chat.id, answered);
    const [call] = done.messages.flatMap((m) => (m.role === 'assistant' ? m.toolCalls : []));
    assert.equal(call?.state, 'failed');
    const sent = llm.chatRequests.at(-1)!.body.messages as Array<{ role: string; content: unknown }>;
    assert.deepEqual(
      sent.filter((m) => m.role === 'tool').map((m) => m.content),
      [`The tool call failed: The server "Server tools" ended the call itself: ${SERVER_WORDS}`]
    );
  });
});
