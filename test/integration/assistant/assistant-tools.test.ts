import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { AssistantMessage, Conversation } from '../../../app/contract/assistant.js';
import { InMemoryKeyStore } from '../../../app/sampling/key-store.js';
import { FakeOpenAIServer } from '../../support/fake-openai-server.js';
import { nextEvent, peerServer, startHostWith, type InMemoryHostFixture } from '../../support/host-fixture.js';
import { answered, saveFakeProvider, settled } from '../../support/assistant-fixture.js';

/** A chat-completions message as the fake LLM server recorded it. */
interface WireMessage {
  role: string;
  tool_call_id?: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the recorded JSON, asserted field by field
  content: any;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
}

/** An MCP server with `echo`, an image tool and a tool that runs until it is cancelled. */
function toolServer() {
  const mcp = new McpServer({ name: 'tools', version: '1.0.0' }, { capabilities: { tools: {} } });
  let markAborted!: () => void;
  let markStarted!: () => void;
  const seen = {
    echo: [] as string[],
    waitStarted: new Promise<void>((resolve) => (markStarted = resolve)),
    waitAborted: new Promise<void>((resolve) => (markAborted = resolve))
  };
  mcp.registerTool(
    'echo',
    { description: 'Echoes a message', inputSchema: { message: z.string() } },
    async ({ message }) => {
      seen.echo.push(message);
      return { content: [{ type: 'text', text: `Echo: ${message}` }] };
    }
  );
  mcp.registerTool('picture', { inputSchema: {} }, async () => ({
    content: [
      { type: 'text', text: 'A red dot' },
      { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' }
    ],
    structuredContent: { colour: 'red' }
  }));
  mcp.registerPrompt('review', { description: 'Review a file', argsSchema: { file: z.string() } }, ({ file }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `Please review ${file}.` } }]
  }));
  mcp.registerResource('notes', 'notes://today', { mimeType: 'text/plain' }, (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'Buy milk.' }]
  }));
  mcp.registerTool(
    'wait',
    { inputSchema: {} },
    (_args, extra) =>
      new Promise((resolve) => {
        markStarted();
        extra.signal.addEventListener('abort', () => {
          markAborted();
          resolve({ content: [{ type: 'text', text: 'aborted' }] });
        });
      })
  );
  return { mcp, seen };
}

describe('assistant: chat with tool calls (in-memory MCP server, fake LLM over HTTP)', () => {
  let fixture: InMemoryHostFixture;
  let llm: FakeOpenAIServer;
  const tools = toolServer();

  before(async () => {
    llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    fixture = await startHostWith(
      { tools: { ...peerServer('tools'), server: tools.mcp.server } },
      { keyStore: new InMemoryKeyStore() }
    );
    await saveFakeProvider(fixture.host, llm.baseURL);
  });
  after(async () => {
    await fixture.dispose();
    await llm.close();
  });

  async function newChat(extra: Record<string, unknown> = {}) {
    return fixture.host.call('assistant.create', {
      title: 'Chat',
      providerId: 'fake',
      model: 'fake-small',
      serverIds: ['tools'],
      ...extra
    });
  }

  it('asks before echo, runs it with the edited arguments, gives the result to the model and streams its answer', async () => {
    const host = fixture.host;
    const chat = await newChat({ systemPrompt: 'Be brief.' });
    const before = llm.chatRequests.length;
    llm.enqueue(
      { kind: 'tool-calls', calls: [{ id: 'call_echo', name: 'tools__echo', arguments: '{"message":"hi"}' }] },
      { kind: 'text', tokens: ['The', ' tool', ' said', ' edited.'] }
    );
    const partials: string[] = [];
    const off = host.on('assistant.partial', (update) => {
      if (update.conversationId === chat.id) partials.push(`${update.done ? 'done:' : ''}${update.text}`);
    });
    const approval = nextEvent(host, 'assistant.approval', (event) => event.conversationId === chat.id);
    await host.call('assistant.send', { conversationId: chat.id, text: 'Say hi through the tool' });
    const { toolCall } = await approval;
    assert.equal(toolCall.state, 'pending-approval');
    assert.equal(toolCall.serverId, 'tools');
    assert.equal(toolCall.toolName, 'echo');
    assert.deepEqual(toolCall.arguments, { message: 'hi' });
    assert.equal(tools.seen.echo.length, 0, 'nothing runs before the person decides');

    const offered = llm.chatRequests[before]!.body;
    assert.equal(offered.messages[0].role, 'system');
    const echo = offered.tools.find((tool: { function: { name: string } }) => tool.function.name === 'tools__echo');
    assert.ok(echo, 'echo is offered as tools__echo');
    assert.equal(echo.function.parameters.properties.message.type, 'string');

    const bad = await host.dispatch('assistant.decide', {
      conversationId: chat.id,
      toolCallId: 'call_echo',
      decision: { action: 'approve', arguments: { message: 42 } }
    });
    assert.equal(bad.ok, false, 'edited arguments are checked against the schema');
    if (!bad.ok) assert.equal(bad.error.code, -32602);

    await host.call('assistant.decide', {
      conversationId: chat.id,
      toolCallId: 'call_echo',
      decision: { action: 'approve', arguments: { message: 'edited' } }
    });
    const done = await settled(host, chat.id, answered);
    off();
    assert.deepEqual(tools.seen.echo, ['edited']);
    const next = llm.chatRequests[before + 1]!.body.messages as WireMessage[];
    const assistantTurn = next.find((m) => m.role === 'assistant');
    assert.equal(assistantTurn?.tool_calls?.[0]?.id, 'call_echo');
    // The model's own call stays as it wrote it; its result says what the person changed.
    assert.equal(assistantTurn?.tool_calls?.[0]?.function.arguments, '{"message":"hi"}');
    assert.deepEqual(
      next.find((m) => m.role === 'tool'),
      {
        role: 'tool',
        tool_call_id: 'call_echo',
        content:
          'The user edited the arguments before approving this call; it was made with {"message":"edited"}.\n\nEcho: edited'
      }
    );
    const last = done.messages.at(-1)!;
    assert.equal(last.role === 'assistant' && last.text, 'The tool said edited.');
    assert.equal(partials.at(-1), 'done:The tool said edited.');
    const decisions = await host.call('audit.read', { serverId: 'tools' });
    const decision = decisions.find(
      (entry) => entry.type === 'assistant.tool-decision' && entry.detail?.toolCallId === 'call_echo'
    );
    assert.equal(decision?.detail?.decision, 'approve');
    assert.equal(decision?.detail?.edited, true);
  });

  it('each answer names the model that wrote it, also once the conversation has moved to another', async () => {
    const host = fixture.host;
    const chat = await newChat();
    llm.enqueue({ kind: 'text', tokens: ['Small here.'] }, { kind: 'text', tokens: ['Large here.'] });
    await host.call('assistant.send', { conversationId: chat.id, text: 'Who are you?' });
    await settled(host, chat.id, answered);
    await host.call('assistant.update', { conversationId: chat.id, model: 'fake-large' });
    await host.call('assistant.send', { conversationId: chat.id, text: 'And now?' });
    const done = await settled(host, chat.id, (c) => answered(c) && c.messages.length === 4);
    assert.deepEqual(
      done.messages.flatMap((m) => (m.role === 'assistant' ? [[m.model, m.text]] : [])),
      [
        ['fake-small', 'Small here.'],
        ['fake-large', 'Large here.']
      ]
    );
  });

  it('"always allow" runs later calls of that tool without asking', async () => {
    const host = fixture.host;
    const chat = await newChat();
    llm.enqueue(
      { kind: 'tool-calls', calls: [{ id: 'a1', name: 'tools__echo', arguments: '{"message":"one"}' }] },
      { kind: 'text', tokens: ['ok'] },
      { kind: 'tool-calls', calls: [{ id: 'a2', name: 'tools__echo', arguments: '{"message":"two"}' }] },
      { kind: 'text', tokens: ['ok again'] }
    );
    const approval = nextEvent(host, 'assistant.approval', (event) => event.conversationId === chat.id);
    await host.call('assistant.send', { conversationId: chat.id, text: 'first' });
    await approval;
    await host.call('assistant.decide', { conversationId: chat.id, toolCallId: 'a1', decision: { action: 'always' } });
    await settled(host, chat.id, answered);
    assert.deepEqual((await host.call('assistant.getPolicy', { serverId: 'tools' })).alwaysAllow, ['echo']);
    await host.call('assistant.send', { conversationId: chat.id, text: 'second' });
    const done = await settled(host, chat.id, (c) => answered(c) && c.messages.length > 5);
    assert.ok(done.messages.some((m) => m.role === 'tool' && m.text === 'Echo: two'));
    await host.call('assistant.setPolicy', { serverId: 'tools', policy: { mode: 'ask', alwaysAllow: [] } });
  });

  it('under "refuse" the model reads a refusal and no call is made', async () => {
    const host = fixture.host;
    await host.call('assistant.setPolicy', { serverId: 'tools', policy: { mode: 'refuse', alwaysAllow: [] } });
    const chat = await newChat();
    const before = llm.chatRequests.length;
    const echoed = tools.seen.echo.length;
    llm.enqueue(
      { kind: 'tool-calls', calls: [{ id: 'call_r', name: 'tools__echo', arguments: '{"message":"no"}' }] },
      { kind: 'text', tokens: ['I may not use that tool.'] }
    );
    await host.call('assistant.send', { conversationId: chat.id, text: 'Try it' });
    await settled(host, chat.id, answered);
    assert.equal(tools.seen.echo.length, echoed);
    const tool = (llm.chatRequests[before + 1]!.body.messages as WireMessage[]).find((m) => m.role === 'tool')!;
    assert.equal(tool.tool_call_id, 'call_r');
    assert.match(tool.content, /refuse/);
    const audit = await host.call('audit.read', { serverId: 'tools' });
    assert.ok(
      audit.some((entry) => entry.detail?.toolCallId === 'call_r' && entry.detail.decision === 'refused-by-policy')
    );
    await host.call('assistant.setPolicy', { serverId: 'tools', policy: { mode: 'auto', alwaysAllow: [] } });
  });

  it('a denied call goes back to the model as a refusal it can read', async () => {
    const host = fixture.host;
    await host.call('assistant.setPolicy', { serverId: 'tools', policy: { mode: 'ask', alwaysAllow: [] } });
    const chat = await newChat();
    const before = llm.chatRequests.length;
    llm.enqueue(
      { kind: 'tool-calls', calls: [{ id: 'call_d', name: 'tools__echo', arguments: '{"message":"x"}' }] },
      { kind: 'text', tokens: ['Understood.'] }
    );
    const approval = nextEvent(host, 'assistant.approval', (event) => event.conversationId === chat.id);
    await host.call('assistant.send', { conversationId: chat.id, text: 'Try it' });
    await approval;
    await host.call('assistant.decide', {
      conversationId: chat.id,
      toolCallId: 'call_d',
      decision: { action: 'deny', reason: 'not now' }
    });
    await settled(host, chat.id, answered);
    const tool = (llm.chatRequests[before + 1]!.body.messages as WireMessage[]).find((m) => m.role === 'tool')!;
    assert.equal(tool.content, 'The user denied this tool call (their reason: not now). It was not made.');
    await host.call('assistant.setPolicy', { serverId: 'tools', policy: { mode: 'auto', alwaysAllow: [] } });
  });

  it('maps images and structured content of a result, and names an unknown tool or bad JSON as failed results', async () => {
    const host = fixture.host;
    await host.call('assistant.setPolicy', { serverId: 'tools', policy: { mode: 'auto', alwaysAllow: [] } });
    const chat = await newChat();
    const before = llm.chatRequests.length;
    llm.enqueue(
      {
        kind: 'tool-calls',
        calls: [
          { id: 'p1', name: 'tools__picture', arguments: '{}' },
          { id: 'p2', name: 'tools__nothing', arguments: '{}' },
          { id: 'p3', name: 'tools__echo', arguments: '{"message":' }
        ]
      },
      { kind: 'text', tokens: ['A red dot.'] }
    );
    await host.call('assistant.send', { conversationId: chat.id, text: 'Show me' });
    await settled(host, chat.id, answered);
    const messages = llm.chatRequests[before + 1]!.body.messages as WireMessage[];
    const results = messages.filter((m) => m.role === 'tool');
    assert.deepEqual(
      results.map((m) => m.tool_call_id),
      ['p1', 'p2', 'p3']
    );
    assert.match(results[0]!.content, /A red dot/);
    assert.match(results[1]!.content, /no tool named "tools__nothing"/);
    assert.match(results[2]!.content, /not a JSON object/);
    const images = messages.at(-1)!;
    assert.equal(images.role, 'user');
    assert.equal(images.content[1].type, 'image_url');
    assert.equal(images.content[1].image_url.url, 'data:image/png;base64,iVBORw0KGgo=');
  });

  it('stops after the tool-round limit, and retry goes on', async () => {
    const host = fixture.host;
    const chat = await newChat({ maxToolRounds: 1 });
    const before = llm.chatRequests.length;
    llm.enqueue(
      { kind: 'tool-calls', calls: [{ id: 'l1', name: 'tools__echo', arguments: '{"message":"1"}' }] },
      { kind: 'tool-calls', calls: [{ id: 'l2', name: 'tools__echo', arguments: '{"message":"2"}' }] }
    );
    await host.call('assistant.send', { conversationId: chat.id, text: 'Loop' });
    const stopped = await settled(host, chat.id, (c) => c.status === 'failed');
    const last = stopped.messages.at(-1)!;
    assert.equal(last.role === 'error' && last.kind, 'tool-limit');
    assert.equal(llm.chatRequests.length, before + 2);
    llm.enqueue({ kind: 'text', tokens: ['Done looping.'] });
    await host.call('assistant.update', { conversationId: chat.id, maxToolRounds: 5 });
    await host.call('assistant.retry', { conversationId: chat.id });
    const done = await settled(host, chat.id, answered);
    assert.ok(!done.messages.some((m) => m.role === 'error'));
  });

  it('a provider failure becomes a message with what to do, and retry asks again', async () => {
    const host = fixture.host;
    const chat = await newChat({ serverIds: [] });
    llm.enqueue({ kind: 'error', status: 429, message: 'slow down' }, { kind: 'text', tokens: ['Back.'] });
    await host.call('assistant.send', { conversationId: chat.id, text: 'Hello' });
    const failed = await settled(host, chat.id, (c) => c.status === 'failed');
    const last = failed.messages.at(-1)!;
    assert.equal(last.role, 'error');
    if (last.role === 'error') {
      assert.equal(last.kind, 'rate-limited');
      assert.match(last.message, /429.*Retry/s);
    }
    await host.call('assistant.retry', { conversationId: chat.id });
    const done = await settled(host, chat.id, answered);
    assert.equal(done.messages.filter((m) => m.role === 'user').length, 1);
  });

  it('a rejected key says once what to do', async () => {
    const host = fixture.host;
    const chat = await newChat({ serverIds: [] });
    llm.enqueue({ kind: 'error', status: 401, message: 'bad key' });
    await host.call('assistant.send', { conversationId: chat.id, text: 'Hello' });
    const failed = await settled(host, chat.id, (c) => c.status === 'failed');
    const last = failed.messages.at(-1)!;
    assert.match(
      last.role === 'error' ? last.message : '',
      /^Fake LLM \(127\.0\.0\.1:\d+\) rejected the API key \(401\)\. Check the key in the provider settings\. Once it is right, retry\.$/
    );
  });

  it('a failure after a retry counts only the tries that failed the same way', async () => {
    const host = fixture.host;
    const chat = await newChat({ serverIds: [] });
    const lastError = (c: Conversation): Extract<AssistantMessage, { role: 'error' }> => {
      const last = c.messages.at(-1);
      assert.ok(last?.role === 'error', `the last message is a failure, not ${last?.role}`);
      return last;
    };
    llm.enqueue(
      { kind: 'error', status: 429, message: 'slow down' },
      { kind: 'error', status: 401, message: 'bad key' },
      { kind: 'error', status: 401, message: 'bad key' }
    );
    await host.call('assistant.send', { conversationId: chat.id, text: 'Hello' });
    const first = lastError(await settled(host, chat.id, (c) => c.status === 'failed'));
    assert.equal(first.kind, 'rate-limited');
    // Tried again: the key is refused this time, a failure of its own, met once so far.
    await host.call('assistant.retry', { conversationId: chat.id });
    const second = lastError(
      await settled(host, chat.id, (c) => c.status === 'failed' && c.messages.at(-1)?.id !== first.id)
    );
    assert.equal(second.kind, 'auth');
    assert.equal(second.tries, undefined, 'the 401 was met once: the 429 before it is not counted');
    await host.call('assistant.retry', { conversationId: chat.id });
    const third = lastError(
      await settled(host, chat.id, (c) => c.status === 'failed' && c.messages.at(-1)?.id !== second.id)
    );
    assert.equal(third.kind, 'auth');
    assert.equal(third.tries, 2, 'the key was refused twice in a row');
  });

  it('Stop during streaming closes the model request and keeps what had streamed in', async () => {
    const host = fixture.host;
    const chat = await newChat({ serverIds: [] });
    llm.enqueue({ kind: 'hold' });
    await host.call('assistant.send', { conversationId: chat.id, text: 'Tell me a story' });
    const held = await llm.nextHeld();
    const partial = nextEvent(
      host,
      'assistant.partial',
      (update) => update.conversationId === chat.id && update.text === 'Once'
    );
    held.push('Once');
    await partial;
    const stopped = await host.call('assistant.stop', { conversationId: chat.id });
    await held.closed;
    assert.equal(held.closedByClient, true);
    const done = await settled(host, chat.id, (c) => c.status === 'idle' && c.messages.at(-1)?.role === 'assistant');
    assert.ok(stopped.status === 'idle');
    const last = done.messages.at(-1)!;
    assert.equal(last.role === 'assistant' && last.stopped, true);
    assert.equal(last.role === 'assistant' && last.text, 'Once');
  });

  it('Stop before the model has answered closes the model request', async () => {
    const host = fixture.host;
    const chat = await newChat({ serverIds: [] });
    llm.enqueue({ kind: 'hold', headers: false });
    await host.call('assistant.send', { conversationId: chat.id, text: 'Tell me a story' });
    const held = await llm.nextHeld();
    await host.call('assistant.stop', { conversationId: chat.id });
    await held.closed;
    assert.equal(held.closedByClient, true);
    const done = await settled(host, chat.id, (c) => c.status === 'idle' && c.messages.at(-1)?.role === 'assistant');
    // Nothing had streamed in: the answer is kept empty, marked stopped, for the chat to show it stopped.
    const last = done.messages.at(-1);
    assert.ok(last?.role === 'assistant' && last.stopped === true && last.text === '');
  });

  it('Stop during a plain tool call sends notifications/cancelled to the server', async () => {
    const host = fixture.host;
    const chat = await newChat();
    const before = llm.chatRequests.length;
    await host.call('assistant.setPolicy', { serverId: 'tools', policy: { mode: 'auto', alwaysAllow: [] } });
    llm.enqueue({ kind: 'tool-calls', calls: [{ id: 'w1', name: 'tools__wait', arguments: '{}' }] });
    const running = nextEvent(
      host,
      'call.changed',
      (event) => event.call.toolName === 'wait' && event.call.state === 'running'
    );
    await host.call('assistant.send', { conversationId: chat.id, text: 'Wait' });
    await running;
    await tools.seen.waitStarted;
    const ended = nextEvent(
      host,
      'call.changed',
      (event) => event.call.toolName === 'wait' && event.call.state !== 'running'
    );
    const stopped = await host.call('assistant.stop', { conversationId: chat.id });
    assert.equal((await ended).call.state, 'cancelled');
    assert.equal(stopped.status, 'idle');
    const tool = stopped.messages.find((m) => m.role === 'tool')!;
    assert.match(tool?.role === 'tool' ? tool.text : '', /stopped/);
    // The SDK server aborts the handler's signal when notifications/cancelled arrives.
    await tools.seen.waitAborted;
    assert.equal(llm.chatRequests.length, before + 1, 'the model is not asked to go on after Stop');
  });

  it('tools.cancelCall on the assistant’s plain call ends that call alone: the model reads that the person stopped it and goes on', async () => {
    const host = fixture.host;
    const chat = await newChat();
    await host.call('assistant.setPolicy', { serverId: 'tools', policy: { mode: 'auto', alwaysAllow: [] } });
    llm.enqueue(
      {
        kind: 'tool-calls',
        calls: [
          { id: 'c1', name: 'tools__wait', arguments: '{}' },
          { id: 'c2', name: 'tools__echo', arguments: '{"message":"still here"}' }
        ]
      },
      { kind: 'text', tokens: ['Understood, it was stopped.'] }
    );
    const running = nextEvent(
      host,
      'call.changed',
      (event) => event.call.toolName === 'wait' && event.call.state === 'running'
    );
    await host.call('assistant.send', { conversationId: chat.id, text: 'Wait, and echo' });
    const { callId } = (await running).call;
    const ended = nextEvent(
      host,
      'call.changed',
      (event) => event.call.callId === callId && event.call.state !== 'running'
    );
    await host.call('tools.cancelCall', { callId });
    assert.equal((await ended).call.state, 'cancelled');
    const done = await settled(host, chat.id, answered);
    const calls = done.messages.flatMap((m) => (m.role === 'assistant' ? m.toolCalls : []));
    assert.deepEqual(
      calls.map((call) => [call.id, call.state, call.callId === callId]),
      [
        ['c1', 'cancelled', true],
        ['c2', 'completed', false]
      ]
    );
    const sent = llm.chatRequests.at(-1)!.body.messages as WireMessage[];
    assert.deepEqual(
      sent.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id, m.content]),
      [
        ['c1', 'The person stopped this call.'],
        ['c2', 'Echo: still here']
      ]
    );
    const last = done.messages.at(-1);
    assert.equal(last?.role === 'assistant' && last.text, 'Understood, it was stopped.');
  });

  it('adds a prompt and a resource of a server to a message', async () => {
    const host = fixture.host;
    const sources = await host.call('assistant.sources', { serverId: 'tools' });
    assert.deepEqual(sources.prompts, [
      { name: 'review', description: 'Review a file', arguments: [{ name: 'file', required: true }] }
    ]);
    assert.deepEqual(sources.resources, [{ uri: 'notes://today', name: 'notes', mimeType: 'text/plain' }]);
    const chat = await newChat({ serverIds: [] });
    const before = llm.chatRequests.length;
    llm.enqueue({ kind: 'text', tokens: ['Reviewed.'] });
    const bad = await host.dispatch('assistant.send', {
      conversationId: chat.id,
      text: 'Look',
      sources: [{ type: 'resource', serverId: 'tools', uri: 'notes://nothing' }]
    });
    assert.equal(bad.ok, false, 'a source that cannot be fetched refuses the message');
    assert.equal((await host.call('assistant.get', { conversationId: chat.id })).messages.length, 0);
    await host.call('assistant.send', {
      conversationId: chat.id,
      text: 'Look at these',
      sources: [
        // Named as the picker showed them: by the titles it gave (fetched by name and URI).
        {
          type: 'prompt',
          serverId: 'tools',
          name: 'review',
          title: ' Code\n  review ',
          arguments: { file: 'main.ts' }
        },
        { type: 'resource', serverId: 'tools', uri: 'notes://today', title: 'Today' }
      ]
    });
    await settled(host, chat.id, answered);
    const user = (llm.chatRequests[before]!.body.messages as WireMessage[]).find((m) => m.role === 'user')!;
    assert.deepEqual(user.content, [
      { type: 'text', text: 'Look at these' },
      {
        type: 'text',
        text: '[From prompt "Code review" of Server tools, with file = main.ts]\nuser: Please review main.ts.'
      },
      {
        type: 'text',
        text: '[From resource "Today" (notes://today) of Server tools]\n[resource notes://today]\nBuy milk.'
      }
    ]);
  });

  it('sends the last message again, changed or as it was: what followed it leaves the conversation and the model reads only the new turn', async () => {
    const host = fixture.host;
    const chat = await newChat({ serverIds: ['tools'] });
    const policy = await host.call('assistant.getPolicy', { serverId: 'tools' });
    await host.call('assistant.setPolicy', { serverId: 'tools', policy: { mode: 'auto', alwaysAllow: [] } });
    try {
      llm.enqueue(
        { kind: 'tool-calls', calls: [{ id: 'r1', name: 'tools__echo', arguments: '{"message":"one"}' }] },
        { kind: 'text', tokens: ['Echoed one.'] }
      );
      await host.call('assistant.send', {
        conversationId: chat.id,
        text: 'Echo one',
        sources: [{ type: 'resource', serverId: 'tools', uri: 'notes://today', title: 'Today' }]
      });
      const first = await settled(host, chat.id, answered);
      assert.deepEqual(
        first.messages.map((m) => m.role),
        ['user', 'assistant', 'tool', 'assistant']
      );
      // Changed: the old turn goes, the new message keeps the resource, and the model reads it alone.
      const before = llm.chatRequests.length;
      llm.enqueue({ kind: 'text', tokens: ['Two it is.'] });
      const resent = await host.call('assistant.resend', {
        conversationId: chat.id,
        messageId: first.messages[0]!.id,
        text: 'Echo two'
      });
      assert.equal(resent.status, 'generating');
      const second = await settled(host, chat.id, answered);
      assert.deepEqual(
        second.messages.map((m) => (m.role === 'user' || m.role === 'assistant' ? `${m.role}: ${m.text}` : m.role)),
        ['user: Echo two', 'assistant: Two it is.']
      );
      const user = second.messages[0]!;
      assert.equal(
        user.role === 'user' && user.sources?.[0]?.label,
        first.messages[0]!.role === 'user' && first.messages[0]!.sources?.[0]?.label
      );
      assert.notEqual(user.id, first.messages[0]!.id);
      const wire = llm.chatRequests[before]!.body.messages as WireMessage[];
      assert.deepEqual(
        wire.map((m) => m.role),
        ['user']
      );
      assert.equal(wire[0]!.content[0].text, 'Echo two');
      assert.match(wire[0]!.content[1].text, /Buy milk\./);
      // As it was: asked again with the same words.
      llm.enqueue({ kind: 'text', tokens: ['Two, again.'] });
      await host.call('assistant.resend', { conversationId: chat.id, messageId: user.id });
      const third = await settled(
        host,
        chat.id,
        (c) =>
          answered(c) && c.messages.at(-1)?.role === 'assistant' && c.messages.at(-1)!.id !== second.messages.at(-1)!.id
      );
      assert.deepEqual(
        third.messages.map((m) => (m.role === 'user' || m.role === 'assistant' ? `${m.role}: ${m.text}` : m.role)),
        ['user: Echo two', 'assistant: Two, again.']
      );
      // Refused: a message that is not the person's last, or not theirs, and while the model answers.
      llm.enqueue({ kind: 'text', tokens: ['Three.'] });
      await host.call('assistant.send', { conversationId: chat.id, text: 'Now three' });
      const fourth = await settled(host, chat.id, (c) => answered(c) && c.messages.length === 4);
      const earlier = await host.dispatch('assistant.resend', {
        conversationId: chat.id,
        messageId: fourth.messages[0]!.id
      });
      assert.deepEqual(earlier.ok ? undefined : earlier.error.message, 'Only your last message can be sent again.');
      const answer = await host.dispatch('assistant.resend', {
        conversationId: chat.id,
        messageId: fourth.messages[1]!.id
      });
      assert.equal(answer.ok ? undefined : answer.error.code, -32602);
      llm.enqueue({ kind: 'hold' });
      await host.call('assistant.resend', { conversationId: chat.id, messageId: fourth.messages[2]!.id });
      const held = await llm.nextHeld();
      const busy = await host.dispatch('assistant.resend', {
        conversationId: chat.id,
        messageId: fourth.messages[2]!.id
      });
      assert.match(busy.ok ? '' : busy.error.message, /^The conversation is busy/);
      held.push('Three again.');
      held.finish();
      const last = await settled(host, chat.id, answered);
      assert.deepEqual(
        last.messages.map((m) => (m.role === 'user' || m.role === 'assistant' ? `${m.role}: ${m.text}` : m.role)),
        ['user: Echo two', 'assistant: Two, again.', 'user: Now three', 'assistant: Three again.']
      );
    } finally {
      await host.call('assistant.setPolicy', { serverId: 'tools', policy });
    }
  });

  it('lists, searches, renames and deletes conversations', async () => {
    const host = fixture.host;
    const a = await host.call('assistant.create', {
      title: 'Quarterly report',
      providerId: 'fake',
      model: 'fake-small'
    });
    // Created in a later millisecond: two made in the same one have no order by time (the list then
    // orders them by id), and this test made them a millisecond apart or less now and then.
    while (new Date().toISOString() <= a.createdAt) await new Promise((resolve) => setImmediate(resolve));
    await host.call('assistant.create', { title: 'Holiday plans', providerId: 'fake', model: 'fake-small' });
    assert.deepEqual(
      (await host.call('assistant.list', { query: 'quarterly' })).map((c) => c.id),
      [a.id]
    );
    const order = (await host.call('assistant.list', {})).map((c) => c.id);
    assert.ok(order.indexOf(a.id) > 0, 'the older conversation is below the newer one');
    await host.call('assistant.update', { conversationId: a.id, title: 'The year’s report', systemPrompt: null });
    // The Desk's ’, found by the ' a person types (and the other way round).
    assert.equal((await host.call('assistant.list', { query: "year's" }))[0]?.id, a.id);
    assert.equal((await host.call('assistant.list', { query: 'YEAR’S REPORT' }))[0]?.id, a.id);
    // A rename is no activity: the conversation keeps its place in the list (it went to the top).
    assert.deepEqual(
      (await host.call('assistant.list', {})).map((c) => c.id),
      order
    );
    assert.equal((await host.call('assistant.list', { query: 'quarterly' })).length, 0);
    const removed = nextEvent(
      host,
      'assistant.changed',
      (event) => event.conversationId === a.id && !event.conversation
    );
    await host.call('assistant.delete', { conversationId: a.id });
    await removed;
    assert.equal((await host.dispatch('assistant.get', { conversationId: a.id })).ok, false);
    const unknown = await host.dispatch('assistant.create', { providerId: 'nope', model: 'm' });
    assert.equal(unknown.ok, false);
  });
});
