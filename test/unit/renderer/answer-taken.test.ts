import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type {
  HostApiClient,
  HostEvent,
  HostEventPayload,
  InboundTask,
  InboxItem
} from '../../../app/contract/host-api.js';
import { answerTaken } from '../../../renderer/inbox/answer-taken.js';
import { runLineSaid } from '../../../renderer/inbox/run-line.js';
import { DeskStore } from '../../../renderer/store/desk-store.js';
import type { AnsweredRun, DeskSnapshot } from '../../../renderer/store/desk-state.js';
import { asked, receivedEntry, receivedTask } from '../../support/received-sampling.js';

function approval(kind: InboxItem['kind'] = 'sampling-approval', extra: Partial<InboxItem> = {}): InboxItem {
  return {
    id: 't1',
    taskId: 't1',
    kind,
    serverId: 'a',
    serverName: 'Server a',
    createdAt: asked,
    request: { messages: [], maxTokens: 10 },
    draft: { providerId: 'p', providerName: 'P', model: 'm', reason: 'default' },
    ...extra
  };
}

const run = (extra: Partial<AnsweredRun> = {}): AnsweredRun => ({
  serverId: 'a',
  taskId: 't1',
  createdAt: asked,
  ended: 'Approved; m answered Server a.',
  ...extra
});

/** A store loaded with the given inbox; its client is never called. */
function loaded(inbox: InboxItem[], tasks: InboundTask[] = []): DeskStore {
  const store = new DeskStore({} as HostApiClient);
  const snapshot: DeskSnapshot = {
    servers: [],
    policies: {},
    inbox,
    tasks,
    outbound: [],
    providers: [],
    calls: [],
    conversations: []
  };
  store.dispatch({ type: 'sync-started', syncId: 1 });
  store.dispatch({ type: 'snapshot', syncId: 1, snapshot });
  return store;
}

const heard = <E extends HostEvent>(store: DeskStore, name: E, payload: HostEventPayload<E>) =>
  store.apply(name, payload);

describe('an answer the host took, and the events it crosses', () => {
  it('reply first: the approval goes at once, "… is running" shows, and the review that follows stays', () => {
    const item = approval();
    const store = loaded([item]);
    assert.equal(answerTaken(store, item, 'Approved; m is running.', run()), 'Approved; m is running.');
    assert.deepEqual(store.getState().inbox, []);
    assert.equal(store.getState().lastAnswered, 'Approved; m is running.');
    heard(store, 'inbox.removed', { id: 't1', why: 'answered' });
    heard(store, 'inbox.added', { item: approval('sampling-review') });
    assert.deepEqual(
      store.getState().inbox.map((known) => known.kind),
      ['sampling-review']
    );
    assert.equal(store.getState().lastAnswered, undefined, 'the model is done: its answer is to review');
  });

  it('events first: the review under the same id stays, and nothing says the model is running', () => {
    const item = approval();
    const store = loaded([item]);
    heard(store, 'inbox.removed', { id: 't1', why: 'answered' });
    heard(store, 'inbox.added', { item: approval('sampling-review') });
    assert.equal(answerTaken(store, item, 'Approved; m is running.', run()), undefined, 'nothing is announced');
    assert.deepEqual(
      store.getState().inbox.map((known) => known.kind),
      ['sampling-review'],
      'the reply does not take the review away'
    );
    assert.equal(store.getState().lastAnswered, undefined);
    assert.equal(store.getState().answeredRun, undefined);
  });

  it('a failed run: the request back under the same id stays, whichever comes first, and "… is running" ends', () => {
    const lastFailure = { message: 'Overloaded', providerId: 'p', providerName: 'P', model: 'm', at: asked };
    const back = approval('sampling-approval', { draft: { ...approval().draft!, lastFailure } });
    // Reply first.
    const item = approval();
    const store = loaded([item]);
    answerTaken(store, item, 'Approved; m is running.', run());
    heard(store, 'inbox.removed', { id: 't1', why: 'answered' });
    heard(store, 'inbox.added', { item: back });
    assert.deepEqual(store.getState().inbox, [back]);
    assert.equal(store.getState().lastAnswered, undefined, 'the card says the run failed');
    assert.equal(store.getState().answeredRun, undefined);
    // Events first.
    const crossed = loaded([item]);
    heard(crossed, 'inbox.removed', { id: 't1', why: 'answered' });
    heard(crossed, 'inbox.added', { item: back });
    assert.equal(answerTaken(crossed, item, 'Approved; m is running.', run()), undefined, 'nothing is announced');
    assert.deepEqual(crossed.getState().inbox, [back], 'the reply does not take the request away again');
    assert.equal(crossed.getState().answeredRun, undefined);
    // A try again answered: that reply takes the card it answered.
    assert.equal(answerTaken(crossed, back, 'Tried again; m is running.', run()), 'Tried again; m is running.');
    assert.deepEqual(crossed.getState().inbox, []);
  });

  it('events first, a request that was no task: its answer to review (an id of its own) came, and no "… is running" line stays', () => {
    const item = approval('sampling-approval', { id: 'r1', taskId: undefined });
    const store = loaded([item]);
    heard(store, 'inbox.removed', { id: 'r1', why: 'answered' });
    heard(store, 'inbox.added', { item: approval('sampling-review', { id: 'r2', taskId: undefined }) });
    answerTaken(store, item, 'Approved; m is running.', run({ taskId: undefined }));
    assert.equal(store.getState().lastAnswered, undefined, 'the model is done: its answer is to review');
    assert.equal(store.getState().answeredRun, undefined);
    assert.deepEqual(
      store.getState().inbox.map((known) => known.id),
      ['r2']
    );
  });

  it('events first, the run already over (no review): the line says the model answered', () => {
    const item = approval();
    const store = loaded([item], [receivedTask('working')]);
    heard(store, 'inbox.removed', { id: 't1', why: 'answered' });
    heard(store, 'task.changed', { taskId: 't1', task: receivedTask('completed') });
    answerTaken(store, item, 'Approved; m is running.', run());
    assert.equal(store.getState().lastAnswered, 'Approved; m answered Server a.');
    assert.equal(store.getState().answeredRun, undefined);
  });

  it('events first, a request that was no task already over: its History entry, heard before, ends the line', () => {
    const item = approval('sampling-approval', { id: 'r1', taskId: undefined });
    for (const [ended, said] of [
      [receivedEntry({}), 'Approved; m answered Server a.'],
      [receivedEntry({ status: 'failed' }), undefined]
    ] as const) {
      const store = loaded([item]);
      heard(store, 'inbox.removed', { id: 'r1', why: 'answered' });
      heard(store, 'history.changed', {
        entry: receivedEntry({ id: 'request:0', createdAt: '2026-12-01T08:59:00.000Z' })
      });
      heard(store, 'history.changed', { entry: ended });
      answerTaken(store, item, 'Approved; m is running.', run({ taskId: undefined }));
      assert.equal(store.getState().lastAnswered, said);
      assert.equal(store.getState().answeredRun, undefined);
    }
  });

  it('an answer with nothing after it: the card goes, whichever comes first', () => {
    const item = approval('elicitation', { id: 'q', taskId: undefined, draft: undefined });
    const early = loaded([item]);
    heard(early, 'inbox.removed', { id: 'q', why: 'answered' });
    answerTaken(early, item, 'Answer sent to Server a.');
    const late = loaded([item]);
    answerTaken(late, item, 'Answer sent to Server a.');
    for (const store of [early, late]) {
      assert.deepEqual(store.getState().inbox, []);
      assert.equal(store.getState().lastAnswered, 'Answer sent to Server a.');
    }
  });

  it('answered elsewhere (a task’s question in the Assistant’s chat): the card goes, the Inbox’s line says nothing', () => {
    const item = approval('elicitation', { id: 'q', draft: undefined });
    const store = loaded([item]);
    store.dispatch({ type: 'inbox-answered', text: 'Declined: Server a’s question.' });
    assert.equal(
      answerTaken(store, item, 'Answer sent to Server a.', undefined, 'elsewhere'),
      'Answer sent to Server a.'
    );
    assert.deepEqual(store.getState().inbox, []);
    // Nothing new is put on the line; what it said stays the Inbox's own, as the Inbox left it.
    assert.equal(store.getState().lastAnswered, 'Declined: Server a’s question.');
  });
});

describe('"Approved; … is running." ends with the run', () => {
  it('a task’s run: says the model answered when the task completes, and goes when it fails', () => {
    for (const [status, said] of [
      ['completed', 'Approved; m answered Server a.'],
      ['failed', undefined],
      ['cancelled', undefined]
    ] as const) {
      const store = loaded([], [receivedTask('working')]);
      store.dispatch({ type: 'inbox-answered', text: 'Approved; m is running.', run: run() });
      heard(store, 'task.changed', {
        taskId: 't2',
        task: receivedTask('completed', 't2')
      });
      assert.equal(store.getState().lastAnswered, 'Approved; m is running.', 'another task’s end changes nothing');
      heard(store, 'task.changed', { taskId: 't1', task: receivedTask('working') });
      assert.equal(store.getState().lastAnswered, 'Approved; m is running.');
      heard(store, 'task.changed', { taskId: 't1', task: receivedTask(status) });
      assert.equal(store.getState().lastAnswered, said, status);
      assert.equal(store.getState().answeredRun, undefined);
    }
  });

  it('a request that was no task: ends with its History entry (same server, asked at the same time)', () => {
    const plain = run({ taskId: undefined });
    const store = loaded([]);
    store.dispatch({ type: 'inbox-answered', text: 'Approved; m is running.', run: plain });
    heard(store, 'history.changed', { entry: receivedEntry({ createdAt: '2026-12-01T09:00:05.000Z' }) });
    heard(store, 'history.changed', { entry: receivedEntry({ serverId: 'b' }) });
    heard(store, 'history.changed', { entry: receivedEntry({ kind: 'elicitation' }) });
    heard(store, 'history.changed', { entry: receivedEntry({ taskId: 't9' }) });
    assert.equal(store.getState().lastAnswered, 'Approved; m is running.', 'other requests’ entries change nothing');
    heard(store, 'history.changed', { entry: receivedEntry({}) });
    assert.equal(store.getState().lastAnswered, 'Approved; m answered Server a.');

    for (const failed of [receivedEntry({ status: 'failed' }), receivedEntry({ status: 'failed', rejected: true })]) {
      const again = loaded([]);
      again.dispatch({ type: 'inbox-answered', text: 'Approved; m is running.', run: plain });
      heard(again, 'history.changed', { entry: failed });
      assert.equal(again.getState().lastAnswered, undefined, 'a failed run has its own notice');
    }
  });

  it('the next answer, or leaving the Inbox, ends the line as before', () => {
    const store = loaded([]);
    store.dispatch({ type: 'inbox-answered', text: 'Approved; m is running.', run: run() });
    store.dispatch({ type: 'inbox-answered', text: undefined });
    heard(store, 'task.changed', { taskId: 't1', task: receivedTask('completed') });
    assert.equal(store.getState().lastAnswered, undefined);
  });
});

describe('an approval whose run ended before its reply came', () => {
  /** A store that hears the host's events as the page does, and what it said. */
  function listening(inbox: InboxItem[]) {
    const listeners = new Map<string, (payload: unknown) => void>();
    const client = {
      on: (event: string, listener: (payload: unknown) => void) => {
        listeners.set(event, listener);
        return () => undefined;
      }
    } as unknown as HostApiClient;
    const spoken: string[] = [];
    const store = new DeskStore(client, { announce: (message) => spoken.push(message) });
    store.listen();
    store.dispatch({ type: 'sync-started', syncId: 1 });
    store.dispatch({
      type: 'snapshot',
      syncId: 1,
      snapshot: {
        servers: [],
        policies: {},
        inbox,
        tasks: [],
        outbound: [],
        providers: [],
        calls: [],
        conversations: []
      }
    });
    const hear = <E extends HostEvent>(event: E, payload: HostEventPayload<E>) => listeners.get(event)!(payload);
    return { store, spoken, hear };
  }
  const words = { reviewed: 'Approved; m answered: review its answer.' };

  it('is said as its answer to review arrives, before the arrival; the reply then says nothing', () => {
    for (const taskId of ['t1', undefined]) {
      const item = approval('sampling-approval', { id: taskId ?? 'r1', taskId });
      const { store, spoken, hear } = listening([item]);
      const replied = store.approving({ serverId: 'a', taskId, createdAt: asked, ...words });
      hear('inbox.removed', { id: item.id, why: 'answered' });
      hear('inbox.added', { item: approval('sampling-review', { id: taskId ?? 'r2', taskId }) });
      assert.equal(spoken[0], 'Approved; m answered: review its answer.', String(taskId));
      assert.match(spoken[1] ?? '', /^New in the inbox: /);
      assert.equal(replied(), true, 'said already: the reply says nothing');
    }
  });

  it('a failed run: said as its request comes back, with why, not as a new request; not another server’s', () => {
    const lastFailure = { message: 'Overloaded', providerId: 'p', providerName: 'P', model: 'm', at: asked };
    const failedWords = 'The model run for Server a failed: Overloaded.';
    const item = approval();
    const { store, spoken, hear } = listening([item]);
    const replied = store.approving({ serverId: 'a', taskId: 't1', createdAt: asked, ...words });
    hear('inbox.removed', { id: 't1', why: 'answered' });
    hear('inbox.added', { item: approval('sampling-review', { id: 'x', taskId: 'x', serverId: 'b' }) });
    assert.equal(spoken.filter((said) => said.startsWith('Approved')).length, 0, 'another request’s review');
    hear('inbox.added', { item: approval('sampling-approval', { draft: { ...item.draft!, lastFailure } }) });
    assert.equal(spoken.at(-1), failedWords);
    assert.equal(spoken.filter((said) => said.startsWith('Approved')).length, 0, 'said once, with why');
    assert.equal(replied(), true, 'said already: the reply says nothing');

    // The reply first (the walk's case: the run took a while): the failure is said all the same.
    const late = listening([item]);
    const lateReply = late.store.approving({ serverId: 'a', taskId: 't1', createdAt: asked, ...words });
    assert.equal(lateReply(), false, 'the reply first: it says the approval');
    late.hear('inbox.removed', { id: 't1', why: 'answered' });
    late.hear('inbox.added', { item: approval('sampling-approval', { draft: { ...item.draft!, lastFailure } }) });
    assert.deepEqual(late.spoken, [failedWords]);

    // Stopped by the person: their Stop said so; the request back is no news.
    const stopped = listening([item]);
    stopped.hear('inbox.removed', { id: 't1', why: 'answered' });
    stopped.hear('inbox.added', {
      item: approval('sampling-approval', {
        draft: { ...item.draft!, lastFailure: { ...lastFailure, message: 'Stopped by you.', stopped: true } }
      })
    });
    assert.deepEqual(stopped.spoken, []);
  });
});

describe('what the Inbox says of an approval as its reply comes', () => {
  const running = 'Approved; m is running.';

  it('says the run while it runs, and the model’s answer once it answered', () => {
    const item = approval();
    const store = loaded([item], [receivedTask('working')]);
    answerTaken(store, item, running, run());
    assert.equal(runLineSaid(store.getState(), running), running);

    const ended = loaded([item], [receivedTask('working')]);
    heard(ended, 'inbox.removed', { id: 't1', why: 'answered' });
    heard(ended, 'task.changed', { taskId: 't1', task: receivedTask('completed') });
    answerTaken(ended, item, running, run());
    assert.equal(runLineSaid(ended.getState(), running), 'Approved; m answered Server a.');
  });

  it('says nothing of a run that ended otherwise before the reply came: no line shows, and it does not run', () => {
    for (const status of ['cancelled', 'failed'] as const) {
      const item = approval();
      const store = loaded([item], [receivedTask('working')]);
      heard(store, 'inbox.removed', { id: 't1', why: 'answered' });
      heard(store, 'task.changed', { taskId: 't1', task: receivedTask(status) });
      answerTaken(store, item, running, run());
      assert.equal(store.getState().lastAnswered, undefined, `${status}: no line`);
      assert.equal(runLineSaid(store.getState(), running), undefined, status);
    }
    // A request that was no task: History's entry, heard before the reply, says it was not answered.
    const item = approval('sampling-approval', { id: 'r1', taskId: undefined });
    const store = loaded([item]);
    heard(store, 'inbox.removed', { id: 'r1', why: 'answered' });
    heard(store, 'history.changed', { entry: receivedEntry({ status: 'failed' }) });
    answerTaken(store, item, running, run({ taskId: undefined }));
    assert.equal(store.getState().lastAnswered, undefined);
    assert.equal(runLineSaid(store.getState(), running), undefined, 'History’s failed entry');
  });
});
