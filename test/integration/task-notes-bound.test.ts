import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { CreateMessageResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { lastRanRequest } from '../../app/contract/request-changes.js';
import { NOTES_KEPT } from '../../app/receiver/task-record.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { saveFakeProvider } from '../support/assistant-fixture.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';
import { nextEvent, peerServer, startHostWith } from '../support/host-fixture.js';
import { editedRequest } from '../support/received-sampling.js';

describe("a received task's notes stay bounded however often its model run is tried again", () => {
  const cleanups: Array<() => unknown> = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('a person tries a failing run 60 times, changing the request each time: the notes keep what is read of them', async () => {
    // Every model call fails at once (a request the provider will not take), so each approval comes back.
    const llm = await FakeOpenAIServer.start({
      models: ['fake-small'],
      respond: () => ({ kind: 'error', status: 400, message: 'This model cannot take that request.' })
    });
    cleanups.push(() => llm.close());
    const a = peerServer();
    const fixture = await startHostWith({ a }, { keyStore: new InMemoryKeyStore() });
    cleanups.push(() => fixture.dispose());
    const { host } = fixture;
    await saveFakeProvider(host, llm.baseURL);
    await host.call('sampling.setPolicy', { serverId: 'a', policy: { mode: 'ask', reviewCompletion: false } });

    const { asked } = editedRequest;
    const edited = (n: number) => ({
      ...asked,
      messages: [{ role: 'user', content: { type: 'text', text: `Try ${n}: a limerick about queues` } }]
    });
    let approval = nextEvent(host, 'inbox.added', (p) => p.item.kind === 'sampling-approval');
    const created = await a.server.request(
      { method: 'sampling/createMessage', params: { ...asked, task: { ttl: 600_000 } } },
      CreateTaskResultSchema
    );
    const { taskId } = created.task;
    const TRIES = 60;
    for (let n = 1; n <= TRIES; n++) {
      const { item } = await approval;
      assert.equal(item.taskId, taskId);
      if (n > 1) assert.match(item.draft!.lastFailure!.message, /cannot take that request/);
      approval = nextEvent(host, 'inbox.added', (p) => p.item.kind === 'sampling-approval');
      await host.call('inbox.answer', { id: item.id, answer: { action: 'approve', params: edited(n) } });
    }
    // The 61st time, the person writes the answer.
    const { item } = await approval;
    await host.call('inbox.answer', { id: item.id, answer: { action: 'reply', text: 'A queue, by hand.' } });
    const result = await a.server.request({ method: 'tasks/result', params: { taskId } }, CreateMessageResultSchema);
    assert.deepEqual(result.content, { type: 'text', text: 'A queue, by hand.' });

    const { notes } = await host.call('tasks.get', { taskId });
    assert.ok(notes.length <= NOTES_KEPT, `${notes.length} notes`);
    // What reads the notes still finds it: the request as it last ran, that a person approved, who answered.
    assert.deepEqual(lastRanRequest(notes), edited(TRIES));
    assert.ok(notes.some((note) => note.phase === 'awaiting-approval'));
    // The last answer is the reply the person wrote (each approval before it left a note too).
    assert.deepEqual(
      notes.findLast((note) => 'answeredBy' in note),
      { answeredBy: 'user', action: 'reply' }
    );
    // Then that its result is kept for the server, and when the server fetched it.
    assert.deepEqual(notes.at(-2), { resultKept: true });
    assert.equal(typeof notes.at(-1)?.resultFetchedAt, 'string');
    // The first failure kept, and the latest.
    const failedAt = notes.flatMap((note) => (note.lastFailure ? [(note.lastFailure as { at: string }).at] : []));
    assert.ok(failedAt.length >= 2);
    assert.deepEqual(failedAt, [...failedAt].sort(), 'in order');
    // History shows the request that ran last beside the one the server sent.
    const page = await host.call('history.list', { filter: { kind: 'sampling' } });
    assert.equal(page.entries[0]?.edited, true);
    assert.equal(llm.chatRequests.length, TRIES);
  });
});
