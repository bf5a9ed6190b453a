import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { AssistantToolCall, Conversation } from '../../../app/contract/assistant.js';
import { InMemoryKeyStore } from '../../../app/sampling/key-store.js';
import { FakeOpenAIServer } from '../../support/fake-openai-server.js';
import {
  nextEvent,
  peerServer,
  startHostWith,
  type InMemoryHostFixture,
  type PeerServer
} from '../../support/host-fixture.js';
import { answered, echoServer, saveFakeProvider, settled } from '../../support/assistant-fixture.js';

/** A chat-completions message as the fake LLM server recorded it. */
interface WireMessage {
  role: string;
  tool_call_id?: string;
  content: unknown;
}

const MISSING_MESSAGE = `Invalid arguments for tool "echo": (arguments): must have required property 'message'`;

/** A server whose one tool, `fail`, answers every call with a JSON-RPC error. */
function failingServer(): PeerServer {
  const peer = peerServer('broken');
  peer.server.registerCapabilities({ tools: {} });
  peer.server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: 'fail', inputSchema: { type: 'object' as const, properties: {} } }]
  }));
  peer.server.setRequestHandler(CallToolRequestSchema, () => {
    throw new McpError(ErrorCode.InternalError, 'the disk is on fire');
  });
  return peer;
}

describe('assistant: tool calls whose arguments do not fit the schema (in-memory MCP server, fake LLM over HTTP)', () => {
  let fixture: InMemoryHostFixture;
  let llm: FakeOpenAIServer;

  // Each test on its own model and host: a reply one test left unread is not the next one's.
  beforeEach(async () => {
    llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    fixture = await startHostWith(
      { tools: echoServer('tools'), broken: failingServer() },
      { keyStore: new InMemoryKeyStore() }
    );
    await saveFakeProvider(fixture.host, llm.baseURL);
    for (const serverId of ['tools', 'broken'])
      await fixture.host.call('assistant.setPolicy', { serverId, policy: { mode: 'ask', alwaysAllow: [] } });
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
      serverIds: ['tools', 'broken']
    });
  }

  it('an invalid call is not asked about: the model reads why at its next request; a valid call beside it is asked', async () => {
    const host = fixture.host;
    const chat = await newChat();
    llm.enqueue(
      {
        kind: 'tool-calls',
        calls: [
          { id: 'bad', name: 'tools__echo', arguments: '{}' },
          { id: 'good', name: 'tools__echo', arguments: '{"message":"hi"}' }
        ]
      },
      { kind: 'text', tokens: ['Done.'] }
    );
    const asked: AssistantToolCall[] = [];
    const off = host.on('assistant.approval', (event) => {
      if (event.conversationId === chat.id) asked.push(event.toolCall);
    });
    const before = llm.chatRequests.length;
    await host.call('assistant.send', { conversationId: chat.id, text: 'Echo' });
    const waiting = await settled(host, chat.id, (c) => c.status === 'tools');
    const calls = waiting.messages.flatMap((m) => (m.role === 'assistant' ? m.toolCalls : []));
    assert.deepEqual(
      calls.map((call) => [call.id, call.state]),
      [
        ['bad', 'denied'],
        ['good', 'pending-approval']
      ]
    );
    const refusal = waiting.messages.find((m) => m.role === 'tool' && m.toolCallId === 'bad');
    assert.equal(refusal?.role === 'tool' && refusal.isError, true, 'its card shows why it was not run');
    assert.equal(refusal?.role === 'tool' && refusal.text.startsWith(MISSING_MESSAGE), true);

    const invalid = await host.dispatch('assistant.decide', {
      conversationId: chat.id,
      toolCallId: 'bad',
      decision: { action: 'approve' }
    });
    assert.equal(invalid.ok, false, 'the invalid call waits for no decision');

    await host.call('assistant.decide', {
      conversationId: chat.id,
      toolCallId: 'good',
      decision: { action: 'approve' }
    });
    await settled(host, chat.id, answered);
    off();
    assert.deepEqual(
      asked.map((call) => call.id),
      ['good']
    );
    const sent = llm.chatRequests[before + 1]!.body.messages as WireMessage[];
    const results = sent.filter((m) => m.role === 'tool');
    assert.deepEqual(
      results.map((m) => m.tool_call_id),
      ['bad', 'good']
    );
    assert.match(String(results[0]!.content), new RegExp(`^${MISSING_MESSAGE.replace(/[()]/g, '\\$&')}`));
    assert.equal(results[1]!.content, 'Echo: hi');

    const audit = await host.call('audit.read', { serverId: 'tools' });
    const refused = audit.find(
      (entry) => entry.type === 'assistant.tool-decision' && entry.detail?.toolCallId === 'bad'
    );
    assert.equal(refused?.detail?.decision, 'invalid-arguments');
    assert.equal(refused?.detail?.error, MISSING_MESSAGE);
    const ran = audit.find((entry) => entry.type === 'tool.call-ended' && entry.detail?.toolCallId === 'good');
    assert.equal(ran?.detail?.outcome, 'result');
  });

  it('an answer of invalid calls alone goes back to the model at once, with nobody asked', async () => {
    const host = fixture.host;
    const chat = await newChat();
    llm.enqueue(
      { kind: 'tool-calls', calls: [{ id: 'bad', name: 'tools__echo', arguments: '{}' }] },
      { kind: 'text', tokens: ['Sorry, retrying is up to you.'] }
    );
    const asked = nextEvent(host, 'assistant.approval', (event) => event.conversationId === chat.id);
    const before = llm.chatRequests.length;
    await host.call('assistant.send', { conversationId: chat.id, text: 'Echo' });
    const first = await Promise.race([
      settled(host, chat.id, answered).then(() => 'answered'),
      asked.then(() => 'asked for approval')
    ]);
    assert.equal(first, 'answered');
    const tool = (llm.chatRequests[before + 1]!.body.messages as WireMessage[]).find((m) => m.role === 'tool');
    assert.equal(tool?.tool_call_id, 'bad');
    assert.match(String(tool?.content), /must have required property 'message'/);
  });

  it('a call that fails leaves its outcome in the audit log', async () => {
    const host = fixture.host;
    const chat = await newChat();
    llm.enqueue(
      { kind: 'tool-calls', calls: [{ id: 'f1', name: 'broken__fail', arguments: '{}' }] },
      { kind: 'text', tokens: ['It failed.'] }
    );
    await host.call('assistant.send', { conversationId: chat.id, text: 'Fail' });
    await settled(host, chat.id, (c) => c.status === 'tools');
    await host.call('assistant.decide', { conversationId: chat.id, toolCallId: 'f1', decision: { action: 'approve' } });
    await settled(host, chat.id, answered);
    const audit = await host.call('audit.read', { serverId: 'broken' });
    const ended = audit.find((entry) => entry.type === 'tool.call-ended' && entry.detail?.toolCallId === 'f1');
    assert.equal(ended?.detail?.outcome, 'error');
    assert.match(String(ended?.detail?.error), /the disk is on fire/);
    assert.equal(ended?.detail?.tool, 'fail');
    assert.equal(ended?.detail?.conversationId, chat.id);
  });
});
