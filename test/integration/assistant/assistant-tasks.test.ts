import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { InMemoryKeyStore } from '../../../app/sampling/key-store.js';
import { FakeOpenAIServer } from '../../support/fake-openai-server.js';
import { nextEvent, peerServer, startHostWith, type InMemoryHostFixture } from '../../support/host-fixture.js';
import { ManualClock } from '../../support/manual-clock.js';
import { createTaskToolServer } from '../../support/task-tool-server.js';
import { answered, saveFakeProvider, settled } from '../../support/assistant-fixture.js';

interface WireMessage {
  role: string;
  tool_call_id?: string;
  content: unknown;
}

describe('assistant: tool calls that run as tasks (in-memory task servers, fake LLM over HTTP)', () => {
  let fixture: InMemoryHostFixture;
  let llm: FakeOpenAIServer;
  // The servers' work runs on this clock; the host polls on real time at the tasks' 50 ms pollInterval.
  const work = new ManualClock();
  const interim = createTaskToolServer({
    clock: work,
    pollInterval: 50,
    immediateResponse: 'Started; the result comes later.'
  });
  const quiet = createTaskToolServer({ clock: work, pollInterval: 50 });
  const stubborn = createTaskToolServer({ clock: work, pollInterval: 50, cancel: false });

  before(async () => {
    llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    fixture = await startHostWith(
      {
        interim: { ...peerServer('interim'), server: interim.server.server },
        quiet: { ...peerServer('quiet'), server: quiet.server.server },
        stubborn: { ...peerServer('stubborn'), server: stubborn.server.server }
      },
      { keyStore: new InMemoryKeyStore() }
    );
    await saveFakeProvider(fixture.host, llm.baseURL);
    for (const serverId of ['interim', 'quiet', 'stubborn'])
      await fixture.host.call('assistant.setPolicy', { serverId, policy: { mode: 'auto', alwaysAllow: [] } });
  });
  after(async () => {
    await fixture.dispose();
    await llm.close();
  });

  const chat = (serverIds: string[]) =>
    fixture.host.call('assistant.create', { title: 'Tasks', providerId: 'fake', model: 'fake-small', serverIds });

  it('gives the immediate response to the model at once, and when the task completes the conversation goes on by itself', async () => {
    const host = fixture.host;
    const c = await chat(['interim']);
    const before = llm.chatRequests.length;
    llm.enqueue(
      {
        kind: 'tool-calls',
        calls: [{ id: 't1', name: 'interim__work-required', arguments: '{"durationMs":1000,"label":"report"}' }]
      },
      { kind: 'text', tokens: ['I started it', ' and will tell you.'] },
      { kind: 'text', tokens: ['The report is done.'] }
    );
    await host.call('assistant.send', { conversationId: c.id, text: 'Make the report' });
    const waiting = await settled(host, c.id, answered);
    const call = waiting.messages.flatMap((m) => (m.role === 'assistant' ? m.toolCalls : []))[0]!;
    assert.equal(call.state, 'task');
    assert.ok(call.outboundId);
    const second = llm.chatRequests[before + 1]!.body.messages as WireMessage[];
    assert.deepEqual(
      second.find((m) => m.role === 'tool'),
      {
        role: 'tool',
        tool_call_id: 't1',
        content: 'Started; the result comes later.'
      }
    );

    const completed = nextEvent(host, 'outbound.changed', (e) => e.type === 'changed' && e.task.outcome !== undefined);
    await work.advance(1000);
    await completed;
    const done = await settled(host, c.id, (x) => answered(x) && x.messages.length > waiting.messages.length);
    assert.equal(llm.chatRequests.length, before + 3, 'the model was asked to go on without the person typing');
    const third = llm.chatRequests[before + 2]!.body.messages as WireMessage[];
    const notice = third.at(-1)!;
    assert.equal(notice.role, 'user');
    assert.match(String(notice.content), /tool call t1 .* has ended\. Its result:\ndone: report/s);
    const last = done.messages.at(-1)!;
    assert.equal(last.role === 'assistant' && last.text, 'The report is done.');
    assert.equal(done.messages.flatMap((m) => (m.role === 'assistant' ? m.toolCalls : []))[0]?.state, 'completed');
  });

  it('refuses to send a message again while a tool call after it still runs as a task; once it ended, sends it', async () => {
    const host = fixture.host;
    const c = await chat(['interim']);
    llm.enqueue(
      {
        kind: 'tool-calls',
        calls: [{ id: 'rs1', name: 'interim__work-required', arguments: '{"durationMs":1000,"label":"resend"}' }]
      },
      { kind: 'text', tokens: ['Started it.'] },
      { kind: 'text', tokens: ['It is done.'] }
    );
    await host.call('assistant.send', { conversationId: c.id, text: 'Start the job' });
    const waiting = await settled(host, c.id, answered);
    const refused = await host.dispatch('assistant.resend', {
      conversationId: c.id,
      messageId: waiting.messages[0]!.id,
      text: 'Start another job'
    });
    assert.deepEqual(refused.ok ? undefined : refused.error, {
      code: -32600,
      message:
        'A tool call after this message (work-required) still runs as a task: cancel it on its card, or wait for its result, before sending the message again.'
    });
    assert.equal((await host.call('assistant.get', { conversationId: c.id })).messages.length, waiting.messages.length);
    const completed = nextEvent(host, 'outbound.changed', (e) => e.type === 'changed' && e.task.outcome !== undefined);
    await work.advance(1000);
    await completed;
    await settled(host, c.id, (x) => answered(x) && x.messages.length > waiting.messages.length);
    llm.enqueue({ kind: 'text', tokens: ['Another then.'] });
    await host.call('assistant.resend', {
      conversationId: c.id,
      messageId: waiting.messages[0]!.id,
      text: 'Start another job'
    });
    const again = await settled(host, c.id, (x) => answered(x) && x.messages.length === 2);
    assert.deepEqual(
      again.messages.map((m) => m.role),
      ['user', 'assistant']
    );
  });

  it('without an immediate response the model waits for the task, then reads its result as the tool result', async () => {
    const host = fixture.host;
    const c = await chat(['quiet']);
    const before = llm.chatRequests.length;
    llm.enqueue(
      { kind: 'tool-calls', calls: [{ id: 'q1', name: 'quiet__fail-tool', arguments: '{"durationMs":500}' }] },
      { kind: 'text', tokens: ['The job failed: disk full.'] }
    );
    const started = nextEvent(host, 'outbound.changed', (e) => e.type === 'changed' && e.task.toolName === 'fail-tool');
    await host.call('assistant.send', { conversationId: c.id, text: 'Run the job' });
    await started;
    const running = await settled(host, c.id, (x) =>
      x.messages.some((m) => m.role === 'assistant' && m.toolCalls[0]?.state === 'task')
    );
    assert.equal(running.status, 'tools');
    const refused = await host.dispatch('assistant.send', { conversationId: c.id, text: 'Are you there?' });
    assert.equal(refused.ok, false, 'a message while the model waits for a tool is refused, not lost');
    assert.equal(llm.chatRequests.length, before + 1);
    await work.advance(500);
    await settled(host, c.id, answered);
    const tool = (llm.chatRequests[before + 1]!.body.messages as WireMessage[]).find((m) => m.role === 'tool')!;
    assert.equal(tool.tool_call_id, 'q1');
    assert.equal(tool.content, 'Tool error: disk full');
  });

  it('Stop during a running task cancels it with tasks/cancel and the model is not asked again', async () => {
    const host = fixture.host;
    const c = await chat(['quiet']);
    const before = llm.chatRequests.length;
    llm.enqueue({ kind: 'tool-calls', calls: [{ id: 's1', name: 'quiet__slow', arguments: '{"durationMs":600000}' }] });
    await host.call('assistant.send', { conversationId: c.id, text: 'Slow job' });
    const running = await settled(host, c.id, (x) =>
      x.messages.some((m) => m.role === 'assistant' && m.toolCalls[0]?.state === 'task')
    );
    const outboundId = running.messages.flatMap((m) => (m.role === 'assistant' ? m.toolCalls : []))[0]!.outboundId!;
    const stopped = await host.call('assistant.stop', { conversationId: c.id });
    assert.equal(stopped.status, 'idle');
    assert.equal((await host.call('outbound.get', { outboundId })).state, 'cancelled');
    const tool = stopped.messages.find((m) => m.role === 'tool');
    assert.match(tool?.role === 'tool' ? tool.text : '', /task was cancelled/);
    assert.equal(llm.chatRequests.length, before + 1);
  });

  it('Stop on a task its server cannot cancel: the call says so (cancelFailed), and the task is still followed as running', async () => {
    const host = fixture.host;
    const c = await chat(['stubborn']);
    llm.enqueue({
      kind: 'tool-calls',
      calls: [{ id: 'u1', name: 'stubborn__slow', arguments: '{"durationMs":600000}' }]
    });
    await host.call('assistant.send', { conversationId: c.id, text: 'Slow job' });
    await settled(host, c.id, (x) =>
      x.messages.some((m) => m.role === 'assistant' && m.toolCalls[0]?.state === 'task')
    );
    const stopped = await host.call('assistant.stop', { conversationId: c.id });
    const call = stopped.messages.flatMap((m) => (m.role === 'assistant' ? m.toolCalls : []))[0]!;
    assert.deepEqual([call.state, call.cancelFailed], ['cancelled', true]);
    const tool = stopped.messages.find((m) => m.role === 'tool');
    assert.match(tool?.role === 'tool' ? tool.text : '', /task could not be cancelled/);
    assert.equal((await host.call('outbound.get', { outboundId: call.outboundId! })).state, 'working');
    // Its questions still wait on the person: the list counts this task among the conversation's.
    const summary = (await host.call('assistant.list', {})).find((s) => s.id === c.id);
    assert.deepEqual(summary?.runningTasks, [call.outboundId]);
  });
});
