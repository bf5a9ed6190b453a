import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { AssistantToolCall, Conversation } from '../../../app/contract/assistant.js';
import { InMemoryKeyStore } from '../../../app/sampling/key-store.js';
import { FakeOpenAIServer } from '../../support/fake-openai-server.js';
import { startHostWith, type InMemoryHostFixture } from '../../support/host-fixture.js';
import { answered, echoServer, saveFakeProvider, settled } from '../../support/assistant-fixture.js';

/** A chat-completions message as the fake LLM server recorded it. */
interface WireMessage {
  role: string;
  tool_call_id?: string;
  content: unknown;
  tool_calls?: Array<{ id: string }>;
}

/** Every tool call of the conversation, in order. */
function callsOf(c: Conversation): AssistantToolCall[] {
  return c.messages.flatMap((m) => (m.role === 'assistant' ? m.toolCalls : []));
}

/** The text of the `tool` messages answering the call (what its card shows). */
function resultsOf(c: Conversation, toolCallId: string): string[] {
  return c.messages.flatMap((m) => (m.role === 'tool' && m.toolCallId === toolCallId ? [m.text] : []));
}

/** Every tool message of the history sent to the model answers a call of the assistant turn before it, once. */
function assertPaired(messages: WireMessage[]): void {
  let open = new Set<string>();
  const all: string[] = [];
  for (const message of messages) {
    if (message.role === 'assistant') {
      const ids = (message.tool_calls ?? []).map((call) => call.id);
      assert.equal(open.size, 0, 'every call of the turn before was answered');
      open = new Set(ids);
      all.push(...ids);
    } else if (message.role === 'tool') {
      assert.ok(open.delete(message.tool_call_id!), `${message.tool_call_id} answers a call of its turn, once`);
    }
  }
  assert.equal(open.size, 0, 'every call was answered');
  assert.equal(new Set(all).size, all.length, 'no two calls share an id');
}

describe('assistant: tool-call ids the provider reuses (in-memory MCP server, fake LLM over HTTP)', () => {
  let fixture: InMemoryHostFixture;
  let llm: FakeOpenAIServer;

  // Each test on its own model and host: a reply one test left unread is not the next one's.
  beforeEach(async () => {
    llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    fixture = await startHostWith({ tools: echoServer('tools') }, { keyStore: new InMemoryKeyStore() });
    await saveFakeProvider(fixture.host, llm.baseURL);
    await fixture.host.call('assistant.setPolicy', { serverId: 'tools', policy: { mode: 'ask', alwaysAllow: [] } });
  });
  afterEach(async () => {
    await fixture.dispose();
    await llm.close();
  });

  async function newChat(): Promise<Conversation> {
    return fixture.host.call('assistant.create', {
      title: 'Chat',
      providerId: 'fake',
      model: 'fake-small',
      serverIds: ['tools']
    });
  }

  /** Sends `text` and approves each of the `count` calls the model asks for; resolves once it has answered. */
  async function sendApproving(chat: Conversation, text: string, count: number): Promise<AssistantToolCall[]> {
    const host = fixture.host;
    const asked: AssistantToolCall[] = [];
    const all = new Promise<void>((resolve) => {
      const off = host.on('assistant.approval', (event) => {
        if (event.conversationId !== chat.id) return;
        asked.push(event.toolCall);
        if (asked.length === count) {
          off();
          resolve();
        }
      });
    });
    const answers = (await host.call('assistant.get', { conversationId: chat.id })).messages.length;
    await host.call('assistant.send', { conversationId: chat.id, text });
    await all;
    for (const call of asked)
      await host.call('assistant.decide', {
        conversationId: chat.id,
        toolCallId: call.id,
        decision: { action: 'approve' }
      });
    await settled(host, chat.id, (c) => answered(c) && c.messages.length > answers + 2);
    return asked;
  }

  it('a later turn reusing an earlier call’s id is approved, runs, and shows its own result', async () => {
    const host = fixture.host;
    const chat = await newChat();
    llm.enqueue(
      { kind: 'tool-calls', calls: [{ id: 'c1', name: 'tools__echo', arguments: '{"message":"squid"}' }] },
      { kind: 'text', tokens: ['Squid it is.'] },
      // The provider restarted: its ids begin again.
      { kind: 'tool-calls', calls: [{ id: 'c1', name: 'tools__echo', arguments: '{"message":"octopus"}' }] },
      { kind: 'text', tokens: ['Octopus it is.'] }
    );
    const [first] = await sendApproving(chat, 'Squid, please', 1);
    assert.equal(first!.id, 'c1', 'an id new to the conversation is kept');
    const before = llm.chatRequests.length;
    const [second] = await sendApproving(chat, 'Now octopus', 1);
    assert.notEqual(second!.id, 'c1', 'the reused id is replaced');
    assert.deepEqual(second!.arguments, { message: 'octopus' });

    const done = await host.call('assistant.get', { conversationId: chat.id });
    const calls = callsOf(done);
    assert.deepEqual(
      calls.map((call) => call.state),
      ['completed', 'completed']
    );
    assert.deepEqual(resultsOf(done, 'c1'), ['Echo: squid']);
    assert.deepEqual(resultsOf(done, second!.id), ['Echo: octopus'], 'the new call’s card shows its own result');

    const sent = llm.chatRequests[before + 1]!.body.messages as WireMessage[];
    assertPaired(sent);
    const secondResult = sent.find((m) => m.role === 'tool' && m.tool_call_id === second!.id);
    assert.equal(secondResult?.content, 'Echo: octopus');
  });

  it('two calls of one answer under one id stay two calls, each with its own result', async () => {
    const chat = await newChat();
    llm.enqueue(
      {
        kind: 'tool-calls',
        calls: [
          { id: 'call_0', name: 'tools__echo', arguments: '{"message":"one"}' },
          { id: 'call_0', name: 'tools__echo', arguments: '{"message":"two"}' }
        ]
      },
      { kind: 'text', tokens: ['Both done.'] }
    );
    const before = llm.chatRequests.length;
    const asked = await sendApproving(chat, 'Echo twice', 2);
    assert.equal(new Set(asked.map((call) => call.id)).size, 2, 'each call is asked under its own id');

    const done = await fixture.host.call('assistant.get', { conversationId: chat.id });
    const calls = callsOf(done);
    assert.deepEqual(
      calls.map((call) => resultsOf(done, call.id)),
      [['Echo: one'], ['Echo: two']]
    );
    const sent = llm.chatRequests[before + 1]!.body.messages as WireMessage[];
    assertPaired(sent);
    assert.deepEqual(
      sent.filter((m) => m.role === 'tool').map((m) => m.content),
      ['Echo: one', 'Echo: two']
    );
  });
});
