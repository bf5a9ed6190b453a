import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { HostEventPayload } from '../../../app/contract/host-api.js';
import { InMemoryKeyStore } from '../../../app/sampling/key-store.js';
import { FakeOpenAIServer } from '../../support/fake-openai-server.js';
import { nextEvent, peerServer, startHostWith, type InMemoryHostFixture } from '../../support/host-fixture.js';
import { ManualClock } from '../../support/manual-clock.js';
import { createTaskToolServer } from '../../support/task-tool-server.js';
import { answered, echoServer, saveFakeProvider, settled } from '../../support/assistant-fixture.js';

/**
 * A tool call the assistant makes says which conversation it was made for, on the running call,
 * on the task it becomes and in History; one the person makes on the Tools screen says nothing.
 */
describe('assistant: where its tool calls came from (in-memory servers, fake LLM over HTTP)', () => {
  let fixture: InMemoryHostFixture;
  let llm: FakeOpenAIServer;
  const work = new ManualClock();
  const tasks = createTaskToolServer({ clock: work, pollInterval: 50 });
  const calls: Array<HostEventPayload<'call.changed'>['call']> = [];

  before(async () => {
    llm = await FakeOpenAIServer.start({ models: ['fake-small'] });
    fixture = await startHostWith(
      { tools: echoServer('tools'), tasks: { ...peerServer('tasks'), server: tasks.server.server } },
      { keyStore: new InMemoryKeyStore() }
    );
    await saveFakeProvider(fixture.host, llm.baseURL);
    for (const serverId of ['tools', 'tasks'])
      await fixture.host.call('assistant.setPolicy', { serverId, policy: { mode: 'auto', alwaysAllow: [] } });
    fixture.host.on('call.changed', ({ call }) => calls.push(call));
  });
  after(async () => {
    await fixture.dispose();
    await llm.close();
  });

  const chat = (serverIds: string[]) =>
    fixture.host.call('assistant.create', { title: 'Origins', providerId: 'fake', model: 'fake-small', serverIds });

  it('a plain call: its running view and its History entry name the conversation; the person’s call does not', async () => {
    const host = fixture.host;
    const c = await chat(['tools']);
    llm.enqueue(
      { kind: 'tool-calls', calls: [{ id: 'e1', name: 'tools__echo', arguments: '{"message":"from chat"}' }] },
      { kind: 'text', tokens: ['Done.'] }
    );
    await host.call('assistant.send', { conversationId: c.id, text: 'Echo something' });
    const done = await settled(host, c.id, answered);
    const call = done.messages.flatMap((m) => (m.role === 'assistant' ? m.toolCalls : []))[0]!;
    assert.equal(call.state, 'completed');
    const seen = calls.filter((view) => view.callId === call.callId);
    assert.ok(seen.length >= 2, 'announced as it started and as it ended');
    // The call named too (the Assistant's own id for it), for a link that lands on it.
    const origin = { kind: 'assistant', conversationId: c.id, callId: call.callId };
    for (const view of seen) assert.deepEqual(view.origin, origin);

    await host.call('tools.call', { serverId: 'tools', name: 'echo', arguments: { message: 'by hand' } });
    const page = await host.call('history.list', { filter: { serverId: 'tools' } });
    const fromChat = page.entries.filter((entry) => entry.origin !== undefined);
    const byHand = page.entries.filter((entry) => entry.origin === undefined);
    assert.equal(fromChat.length, 1);
    assert.equal(byHand.length, 1);
    assert.deepEqual(fromChat[0]!.origin, origin);
    const entry = await host.call('history.get', { id: fromChat[0]!.id });
    assert.deepEqual(entry.origin, origin);
    assert.deepEqual(entry.request, { name: 'echo', arguments: { message: 'from chat' } });
    assert.equal((await host.call('history.get', { id: byHand[0]!.id })).origin, undefined);
  });

  it('a call that became a task: the task and its History entry name the conversation', async () => {
    const host = fixture.host;
    const c = await chat(['tasks']);
    llm.enqueue(
      {
        kind: 'tool-calls',
        calls: [{ id: 't1', name: 'tasks__work-required', arguments: '{"durationMs":1000,"label":"report"}' }]
      },
      { kind: 'text', tokens: ['Started.'] },
      { kind: 'text', tokens: ['It is done.'] }
    );
    await host.call('assistant.send', { conversationId: c.id, text: 'Make the report' });
    const waiting = await settled(host, c.id, (x) =>
      x.messages.some((m) => m.role === 'assistant' && m.toolCalls[0]?.state === 'task')
    );
    const taskCall = waiting.messages.flatMap((m) => (m.role === 'assistant' ? m.toolCalls : []))[0]!;
    const outboundId = taskCall.outboundId!;
    const origin = { kind: 'assistant', conversationId: c.id, callId: taskCall.callId };
    assert.deepEqual((await host.call('outbound.get', { outboundId })).origin, origin);
    assert.deepEqual((await host.call('outbound.list', {})).find((t) => t.outboundId === outboundId)?.origin, origin);

    const completed = nextEvent(
      host,
      'outbound.changed',
      (e) => e.type === 'changed' && e.task.outboundId === outboundId && e.task.outcome !== undefined
    );
    await work.advance(1000);
    const ended = await completed;
    assert.deepEqual(ended.type === 'changed' && ended.task.origin, origin, 'its events carry it');
    const entry = await host.call('history.get', { id: `requested:${outboundId}` });
    assert.equal(entry.status, 'completed');
    assert.deepEqual(entry.origin, origin);

    // The person's own task says nothing of where it came from.
    const byHand = await host.call('tools.call', {
      serverId: 'tasks',
      name: 'work-required',
      arguments: { durationMs: 1000 }
    });
    assert.equal(byHand.type, 'task');
    if (byHand.type === 'task') {
      assert.equal(byHand.task.origin, undefined);
      assert.equal((await host.call('history.get', { id: `requested:${byHand.task.outboundId}` })).origin, undefined);
    }
  });
});
