import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { AuditEntry } from '../../../app/contract/host-api.js';
import { InMemoryKeyStore } from '../../../app/sampling/key-store.js';
import { FakeOpenAIServer } from '../../support/fake-openai-server.js';
import { nextEvent, peerServer, startHostWith, type InMemoryHostFixture } from '../../support/host-fixture.js';
import { ManualClock } from '../../support/manual-clock.js';
import { createTaskToolServer } from '../../support/task-tool-server.js';
import { answered, echoServer, saveFakeProvider, settled } from '../../support/assistant-fixture.js';

/** A server whose one tool, `wait`, runs until it is cancelled. */
function waitingServer() {
  const mcp = new McpServer({ name: 'waiting', version: '1.0.0' }, { capabilities: { tools: {} } });
  let markStarted!: () => void;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  mcp.registerTool(
    'wait',
    { inputSchema: {} },
    (_args, extra) =>
      new Promise((resolve) => {
        markStarted();
        extra.signal.addEventListener('abort', () => resolve({ content: [{ type: 'text', text: 'aborted' }] }));
      })
  );
  return { mcp, started };
}

describe('assistant: how each tool call ended, in the audit log (in-memory MCP servers, fake LLM over HTTP)', () => {
  let fixture: InMemoryHostFixture;
  let llm: FakeOpenAIServer;
  let waiting: ReturnType<typeof waitingServer>;
  const work = new ManualClock();

  // Each test on its own host: the audit entries read are this test's alone.
  beforeEach(async () => {
    llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    waiting = waitingServer();
    const quiet = createTaskToolServer({ clock: work, pollInterval: 50 });
    fixture = await startHostWith(
      {
        waiting: { ...peerServer('waiting'), server: waiting.mcp.server },
        quiet: { ...peerServer('quiet'), server: quiet.server.server },
        tools: echoServer('tools')
      },
      { keyStore: new InMemoryKeyStore() }
    );
    await saveFakeProvider(fixture.host, llm.baseURL);
    for (const serverId of ['waiting', 'quiet', 'tools'])
      await fixture.host.call('assistant.setPolicy', { serverId, policy: { mode: 'auto', alwaysAllow: [] } });
  });
  afterEach(async () => {
    await fixture.dispose();
    await llm.close();
  });

  const chat = (serverIds: string[]) =>
    fixture.host.call('assistant.create', { title: 'Audit', providerId: 'fake', model: 'fake-small', serverIds });

  /** The server's name as the person configured it. */
  const nameOf = async (serverId: string) =>
    (await fixture.host.call('servers.list', {})).find((server) => server.id === serverId)!.name;

  /** What says how calls to the server ended (each test makes one call on a server). */
  const endsOf = async (serverId: string): Promise<AuditEntry[]> =>
    (await fixture.host.call('audit.read', { serverId })).filter(
      (entry) => entry.type === 'tool.call-ended' || entry.type === 'tool.call-cancelled'
    );

  it('Stop during a running call leaves one end entry: cancelled by you, with the server’s name', async () => {
    const host = fixture.host;
    const c = await chat(['waiting']);
    llm.enqueue({ kind: 'tool-calls', calls: [{ id: 'w1', name: 'waiting__wait', arguments: '{}' }] });
    await host.call('assistant.send', { conversationId: c.id, text: 'Wait' });
    await waiting.started;
    // The requestor's own end of the call, which Stop causes: what it rejects with is heard too.
    const ended = nextEvent(
      host,
      'call.changed',
      (event) => event.call.toolName === 'wait' && event.call.state !== 'running'
    );
    const stopped = await host.call('assistant.stop', { conversationId: c.id });
    const call = stopped.messages.flatMap((m) => (m.role === 'assistant' ? m.toolCalls : []))[0]!;
    assert.equal(call.state, 'cancelled');
    assert.equal((await ended).call.state, 'cancelled');
    const ends = await endsOf('waiting');
    assert.equal(ends.length, 1, JSON.stringify(ends));
    assert.equal(ends[0]!.type, 'tool.call-ended');
    assert.equal(ends[0]!.detail?.outcome, 'cancelled');
    assert.equal(ends[0]!.detail?.cancelledBy, 'you');
    assert.equal(ends[0]!.detail?.toolCallId, 'w1');
    assert.equal(ends[0]!.serverName, await nameOf('waiting'));
  });

  it('a call that became a task: its end entry has the task’s id', async () => {
    const host = fixture.host;
    const c = await chat(['quiet']);
    llm.enqueue(
      { kind: 'tool-calls', calls: [{ id: 's1', name: 'quiet__slow', arguments: '{"durationMs":600000}' }] },
      { kind: 'text', tokens: ['Started.'] }
    );
    await host.call('assistant.send', { conversationId: c.id, text: 'Slow job' });
    const running = await settled(host, c.id, (x) =>
      x.messages.some((m) => m.role === 'assistant' && m.toolCalls[0]?.state === 'task')
    );
    const outboundId = running.messages.flatMap((m) => (m.role === 'assistant' ? m.toolCalls : []))[0]!.outboundId!;
    const task = await host.call('outbound.get', { outboundId });
    const ends = await endsOf('quiet');
    assert.equal(ends.length, 1, JSON.stringify(ends));
    assert.equal(ends[0]!.detail?.outcome, 'task');
    assert.equal(ends[0]!.taskId, task.taskId);
    assert.equal(ends[0]!.serverName, await nameOf('quiet'));
    await host.call('assistant.stop', { conversationId: c.id });
  });

  it('a call that answered: its end entry has the server’s name', async () => {
    const host = fixture.host;
    const c = await chat(['tools']);
    llm.enqueue(
      { kind: 'tool-calls', calls: [{ id: 'e1', name: 'tools__echo', arguments: '{"message":"hi"}' }] },
      { kind: 'text', tokens: ['Done.'] }
    );
    await host.call('assistant.send', { conversationId: c.id, text: 'Echo' });
    await settled(host, c.id, answered);
    const ends = await endsOf('tools');
    assert.equal(ends.length, 1, JSON.stringify(ends));
    assert.equal(ends[0]!.detail?.outcome, 'result');
    assert.equal(ends[0]!.serverName, await nameOf('tools'));
  });
});
