import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type {
  HostApiClient,
  HostEvent,
  HostEventPayload,
  HostMethod,
  HostResult,
  InboundTask,
  InboxItem
} from '../../../app/contract/host-api.js';
import type { HistorySummary } from '../../../app/contract/history.js';
import { Announcer } from '../../../renderer/shell/announcer.js';
import { DeskStore, QUIET_STREAM_MS } from '../../../renderer/store/desk-store.js';
import { asked, receivedEntry, receivedTask } from '../../support/received-sampling.js';

function item(id: string): InboxItem {
  return {
    id,
    kind: 'elicitation',
    serverId: 'a',
    serverName: 'Server a',
    createdAt: '2026-12-01T09:00:00.000Z',
    request: { mode: 'form', message: id }
  };
}

/**
 * A host API client whose lists are what the test says and whose `inbox.list` answers only when
 * the test lets it: events can be sent while a snapshot is on its way. `lists` answers the others
 * the test gives.
 */
function fakeClient(inbox: () => InboxItem[], lists: { [M in HostMethod]?: () => unknown } = {}) {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const held: Array<() => void> = [];
  const results: { [M in HostMethod]?: () => unknown } = {
    'servers.list': () => [],
    'tasks.list': () => [],
    'outbound.list': () => [],
    'providers.list': () => [],
    'tools.runningCalls': () => [],
    'assistant.list': () => [],
    'exchanges.list': () => [],
    ...lists
  };
  const client: HostApiClient = {
    call<M extends HostMethod>(method: M): Promise<HostResult<M>> {
      if (method === 'inbox.list') return new Promise((resolve) => held.push(() => resolve(inbox() as HostResult<M>)));
      const result = results[method];
      return result ? Promise.resolve(result() as HostResult<M>) : Promise.reject(new Error(`no ${method}`));
    },
    on<E extends HostEvent>(event: E, listener: (payload: HostEventPayload<E>) => void) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener as (payload: unknown) => void);
      return () => void set.delete(listener as (payload: unknown) => void);
    }
  };
  return {
    client,
    emit<E extends HostEvent>(event: E, payload: HostEventPayload<E>) {
      for (const listener of listeners.get(event) ?? []) listener(payload);
    },
    /** Lets the oldest held `inbox.list` answer. */
    release: () => held.shift()?.(),
    listening: (event: HostEvent) => listeners.get(event)?.size ?? 0
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the Desk store', () => {
  it('says what the person had typed is kept only when the withdrawn notice keeps it', async () => {
    const host = fakeClient(() => [item('typed'), item('mine'), item('blank'), item('Write one word.')]);
    const announced: string[] = [];
    const store = new DeskStore(host.client, { announce: (message) => announced.push(message) });
    store.listen();
    const refresh = store.refresh();
    host.release();
    await refresh;
    store.dispatch({ type: 'inbox-draft', id: 'typed', text: 'North' });
    store.dispatch({ type: 'inbox-draft', id: 'mine', text: 'South' });
    host.emit('inbox.removed', { id: 'typed', why: 'withdrawn' });
    // The person's own act withdrew it: no notice keeps the text, and none is said to.
    host.emit('inbox.removed', { id: 'mine', why: 'withdrawn', byYou: true });
    host.emit('inbox.removed', { id: 'blank', why: 'withdrawn' });
    // A question that ends with a full stop ends the sentence: no second one after the quote.
    host.emit('inbox.removed', { id: 'Write one word.', why: 'withdrawn' });
    assert.deepEqual(announced, [
      'Server a withdrew its question “typed”. What you had written is kept in its notice.',
      'Server a withdrew its question “mine”.',
      'Server a withdrew its question “blank”.',
      'Server a withdrew its question “Write one word.”'
    ]);
  });

  it('listens to every host event and folds those heard during a fetch over its answer', async () => {
    let pending = [item('q0'), item('q1')];
    const host = fakeClient(() => pending);
    const announced: string[] = [];
    const store = new DeskStore(host.client, { announce: (message) => announced.push(message) });
    store.listen();
    assert.equal(host.listening('servers.changed'), 1);
    let notified = 0;
    store.subscribe(() => (notified += 1));

    const refresh = store.refresh();
    host.emit('inbox.added', { item: item('q2') });
    host.emit('inbox.removed', { id: 'q0', why: 'withdrawn' });
    // The host's list was read before those events.
    host.release();
    await refresh;
    assert.deepEqual(
      store.getState().inbox.map((i) => i.id),
      ['q1', 'q2']
    );
    assert.equal(store.getState().ready, true);
    assert.ok(notified > 0);
    assert.deepEqual(announced, ['New in the inbox: a question from Server a.']);

    // A reconnect: the lists are read again.
    pending = [item('q1'), item('q2'), item('q3')];
    const again = store.refresh();
    host.release();
    await again;
    assert.deepEqual(
      store.getState().inbox.map((i) => i.id),
      ['q1', 'q2', 'q3']
    );
    store.close();
    assert.equal(host.listening('servers.changed'), 0);
  });

  it('says the arrivals heard before the live region takes them as one line that counts them', async () => {
    const host = fakeClient(() => []);
    const announcer = new Announcer();
    const store = new DeskStore(host.client, { announce: announcer.announce });
    store.listen();
    const refresh = store.refresh();
    host.release();
    await refresh;
    const from = (id: string, serverName: string, kind: InboxItem['kind'] = 'elicitation'): InboxItem => ({
      ...item(id),
      kind,
      serverId: serverName,
      serverName
    });

    host.emit('inbox.added', { item: from('q1', 'Server asker') });
    host.emit('inbox.added', { item: from('q2', 'Server asker') });
    // Heard again (a snapshot and its event): counted once.
    host.emit('inbox.added', { item: from('q2', 'Server asker') });
    assert.equal(announcer.take(), 'New in the inbox: 2 questions from Server asker.');

    host.emit('inbox.added', { item: from('q3', 'Server asker') });
    host.emit('inbox.added', { item: from('m1', 'Server p', 'sampling') });
    assert.equal(announcer.take(), 'New in the inbox: a question from Server asker and a model request from Server p.');

    // A model's answer to review is no request of the server's: said as what it is.
    host.emit('inbox.added', { item: from('r1', 'Server p', 'sampling-review') });
    assert.equal(announcer.take(), 'New in the inbox: a model answer to review from Server p.');
    host.emit('inbox.added', { item: from('r2', 'Server p', 'sampling-review') });
    host.emit('inbox.added', { item: from('r3', 'Server p', 'sampling-review') });
    host.emit('inbox.added', { item: from('m3', 'Server p', 'sampling-approval') });
    assert.equal(announcer.take(), 'New in the inbox: a model request and 2 model answers to review from Server p.');

    // Taken in another frame: a line of its own, as before.
    host.emit('inbox.added', { item: from('q4', 'Server asker') });
    assert.equal(announcer.take(), 'New in the inbox: a question from Server asker.');

    // Many servers: counted, not each named.
    for (const [id, server, kind] of [
      ['q5', 'A'],
      ['q6', 'B'],
      ['m2', 'C', 'sampling-approval'],
      ['q7', 'A'],
      ['q8', 'C']
    ] as const)
      host.emit('inbox.added', { item: from(id, server, kind) });
    assert.equal(announcer.take(), 'New in the inbox: 4 questions and a model request from 3 servers.');

    // Other messages of the frame between them (a server that withdraws and asks again) do not
    // split them: all of the frame's arrivals are one sentence, in the place of the last.
    host.emit('inbox.added', { item: from('q9', 'Server asker') });
    host.emit('inbox.removed', { id: 'q1', why: 'withdrawn' });
    host.emit('inbox.added', { item: from('q10', 'Server asker') });
    announcer.announce('Task cancelled.');
    host.emit('inbox.added', { item: from('q11', 'Server asker') });
    assert.equal(
      announcer.take(),
      'Server asker withdrew its question “q1”. Task cancelled. New in the inbox: 3 questions from Server asker.'
    );

    // The approval first, then what came of it: an approval whose answer to review arrives before
    // its reply is said before that arrival, even with another arrival earlier in the frame.
    const replied = store.approving({
      serverId: 'Server p',
      createdAt: '2026-12-01T09:00:00.000Z',
      reviewed: 'Approved; m answered: review its answer.'
    });
    host.emit('inbox.added', { item: from('q12', 'Server asker') });
    host.emit('inbox.added', { item: from('r4', 'Server p', 'sampling-review') });
    assert.equal(
      announcer.take(),
      'Approved; m answered: review its answer. New in the inbox: a question from Server asker and a model answer to review from Server p.'
    );
    assert.equal(replied(), true);
  });

  it('says requests that waited for a reply and now wait for approval (a provider was added) as those, not as new', async () => {
    const sampling = (id: string, serverName: string, kind: InboxItem['kind'] = 'sampling'): InboxItem => ({
      ...item(id),
      kind,
      serverId: serverName,
      serverName,
      request: { messages: [{ role: 'user', content: { type: 'text', text: id } }], maxTokens: 9 }
    });
    const waiting = [1, 2, 3, 4, 5].map((n) => sampling(`w${n}`, 'Weather Station'));
    waiting.push(sampling('m1', 'Mail Helper'));
    const host = fakeClient(() => waiting);
    const announcer = new Announcer();
    const store = new DeskStore(host.client, { announce: announcer.announce });
    store.listen();
    const refresh = store.refresh();
    host.release();
    await refresh;

    // The host hands each over, and its approval card comes under the same id.
    for (const { id, serverName } of waiting) {
      host.emit('inbox.removed', { id, why: 'answered', handedOver: true });
      host.emit('inbox.added', { item: sampling(id, serverName, 'sampling-approval') });
    }
    assert.equal(announcer.take(), '6 waiting model requests now need your approval.');
    assert.deepEqual(
      store.getState().inbox.map((known) => known.kind),
      Array(6).fill('sampling-approval')
    );

    // One alone names its server; a request new meanwhile is said as new.
    host.emit('inbox.removed', { id: 'w1', why: 'answered' });
    host.emit('inbox.added', { item: sampling('w1', 'Weather Station', 'sampling-approval') });
    assert.equal(announcer.take(), 'New in the inbox: a model request from Weather Station.', 'not handed over');
    const late = sampling('late', 'Mail Helper');
    host.emit('inbox.added', { item: late });
    assert.equal(announcer.take(), 'New in the inbox: a model request from Mail Helper.');
    host.emit('inbox.removed', { id: 'late', why: 'answered', handedOver: true });
    host.emit('inbox.added', { item: sampling('late', 'Mail Helper', 'sampling-approval') });
    host.emit('inbox.added', { item: sampling('new', 'Weather Station', 'sampling-approval') });
    assert.equal(
      announcer.take(),
      'The waiting model request from Mail Helper now needs your approval. New in the inbox: a model request from Weather Station.'
    );
  });

  it('says why it could not load, and keeps what it had', async () => {
    const host = fakeClient(() => [item('q0')]);
    const store = new DeskStore(host.client);
    store.listen();
    const first = store.refresh();
    host.release();
    await first;
    const failing = new DeskStore({ ...host.client, call: () => Promise.reject(new Error('gone')) });
    await failing.refresh();
    assert.equal(failing.getState().problem, 'Could not load from Taskdesk: gone');
    assert.equal(failing.getState().ready, false);
    assert.deepEqual(
      store.getState().inbox.map((i) => i.id),
      ['q0']
    );
  });

  it('lets a stream that is not a task go once it has been quiet, on an injected timer', async () => {
    const host = fakeClient(() => []);
    const timers: Array<{ callback: () => void; ms: number; cleared: boolean }> = [];
    const store = new DeskStore(host.client, {
      setTimeout: (callback, ms) => timers.push({ callback, ms, cleared: false }) - 1,
      clearTimeout: (handle) => void (timers[handle as number]!.cleared = true)
    });
    store.listen();
    const refresh = store.refresh();
    host.release();
    await refresh;
    await settle();
    const partial = { serverId: 'a', streamId: 's1', providerId: 'p', model: 'm', text: 'Hi' };
    host.emit('sampling.partial', partial);
    host.emit('sampling.partial', { ...partial, text: 'Hi there' });
    assert.equal(store.getState().live.s1?.text, 'Hi there');
    assert.deepEqual(
      timers.map((t) => [t.ms, t.cleared]),
      [
        [QUIET_STREAM_MS, true],
        [QUIET_STREAM_MS, false]
      ]
    );
    timers[1]!.callback();
    assert.equal(store.getState().live.s1, undefined);
  });

  it('after a reconnect, the "… is running" line says what became of the run while the page heard nothing', async () => {
    let tasks: InboundTask[] = [];
    let ended: HistorySummary[] = [];
    const host = fakeClient(() => [], {
      'tasks.list': () => tasks,
      'history.list': () => ({ entries: ended, total: ended.length })
    });
    const store = new DeskStore(host.client);
    store.listen();
    const resync = async () => {
      const refresh = store.refresh();
      host.release();
      await refresh;
    };
    await resync();
    const approved = (taskId?: string) =>
      store.dispatch({
        type: 'inbox-answered',
        text: 'Approved; m is running.',
        run: { serverId: 'a', ...(taskId && { taskId }), createdAt: asked, ended: 'Approved; m answered Server a.' }
      });

    // A request that was no task: its History entry, missed while offline, is read on the resync.
    approved();
    await resync();
    assert.equal(store.getState().lastAnswered, 'Approved; m is running.', 'nothing says it ended yet');
    ended = [receivedEntry()];
    await resync();
    assert.equal(store.getState().lastAnswered, 'Approved; m answered Server a.');
    assert.equal(store.getState().answeredRun, undefined);

    // A task's run: the task the snapshot holds says it ended (failed: its own notice says why).
    ended = [];
    tasks = [receivedTask('working')];
    await resync();
    approved('t1');
    await resync();
    assert.equal(store.getState().lastAnswered, 'Approved; m is running.', 'its task still works');
    tasks = [receivedTask('failed')];
    await resync();
    assert.equal(store.getState().lastAnswered, undefined);
    assert.equal(store.getState().answeredRun, undefined);
  });

  it('after a reconnect, asks History why a card being written in went, and says it in the notice', async () => {
    const stopped = 'Taskdesk stopped before it was answered; the server was not answered';
    const sampling: InboxItem = {
      ...item('model'),
      kind: 'sampling',
      serverId: 'b',
      serverName: 'Server b',
      request: { messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 9 }
    };
    let inbox = [item('closed'), sampling, item('blank'), item('kept')];
    const filters: unknown[] = [];
    let history = (): unknown => ({
      entries: [
        // Cancelled by Taskdesk's close, with the words History keeps for it.
        receivedEntry({
          id: 'request:q',
          kind: 'elicitation',
          createdAt: item('closed').createdAt,
          status: 'cancelled',
          cancelledBy: 'taskdesk',
          statusMessage: stopped
        }),
        // Another server's: not this card's.
        receivedEntry({ id: 'request:other', kind: 'elicitation', serverId: 'c', status: 'cancelled' })
      ],
      total: 2
    });
    const host = fakeClient(() => inbox, {
      'history.list': () => history(),
      'servers.list': () => [],
      'tasks.list': () => []
    });
    const wrapped: HostApiClient = {
      ...host.client,
      call: ((method: HostMethod, params: { filter?: unknown }) => {
        if (method === 'history.list') filters.push(params.filter);
        return host.client.call(method, params as never);
      }) as HostApiClient['call']
    };
    const store = new DeskStore(wrapped);
    store.listen();
    const resync = async () => {
      const refresh = store.refresh();
      host.release();
      await refresh;
    };
    await resync();
    assert.deepEqual(filters, [], 'nothing went: History is not read');
    store.dispatch({ type: 'inbox-draft', id: 'closed', text: 'Region: North' });
    store.dispatch({ type: 'inbox-draft', id: 'model', text: 'Hi there' });
    store.dispatch({ type: 'inbox-draft', id: 'kept', text: 'Still here' });

    // Taskdesk restarted while the page heard nothing: three cards went, two of them written in.
    inbox = [item('kept')];
    await resync();
    assert.deepEqual(filters, [
      { direction: 'received', serverId: 'a', kind: 'elicitation' },
      { direction: 'received', serverId: 'b', kind: 'sampling' }
    ]);
    const notices = store.getState().withdrawn;
    assert.deepEqual(
      notices.map((notice) => [notice.id, notice.reason, notice.offline, notice.draft]),
      [
        ['closed', stopped, undefined, 'Region: North'],
        // History has nothing of it (yet): said to have gone, not why.
        ['model', undefined, true, 'Hi there']
      ]
    );

    // History cannot be read: the notice says only that it went.
    inbox = [item('kept'), item('later')];
    await resync();
    store.dispatch({ type: 'inbox-draft', id: 'later', text: 'Soon' });
    history = () => Promise.reject(new Error('History is closed'));
    inbox = [item('kept')];
    await resync();
    assert.deepEqual(
      store
        .getState()
        .withdrawn.map((notice) => [notice.id, notice.offline, notice.draft])
        .at(-1),
      ['later', true, 'Soon']
    );
  });

  it('tells the host which answers it holds, one call after another, as they are held, taken back and sent', async () => {
    const host = fakeClient(() => []);
    // Each `inbox.hold` answers when the test says: the next waits for it.
    const holds: Array<{ params: unknown; answer: () => void }> = [];
    const client: HostApiClient = {
      ...host.client,
      call: ((method: HostMethod, params: unknown) => {
        if (method !== 'inbox.hold') return host.client.call(method, params as never);
        return new Promise<unknown>((resolve) => holds.push({ params, answer: () => resolve({ ok: true }) }));
      }) as HostApiClient['call']
    };
    const timers: Array<() => void> = [];
    const store = new DeskStore(client, {
      setTimeout: (callback) => timers.push(callback) - 1,
      clearTimeout: () => undefined
    });
    const sent: string[] = [];
    const held = (id: string) => ({
      id,
      serverId: 'a',
      serverName: 'Server a',
      noun: 'question' as const,
      named: id,
      action: 'decline' as const,
      said: `Declined ${id}.`
    });
    assert.equal(
      store.held.hold(held('one'), async () => void sent.push('one')),
      true
    );
    store.held.undo('one');
    await settle();
    // The Undo waits for the hold to reach the host: it never overtakes it.
    assert.deepEqual(
      holds.map((call) => call.params),
      [{ id: 'one', held: true }]
    );
    holds[0]!.answer();
    await settle();
    assert.deepEqual(
      holds.map((call) => call.params),
      [
        { id: 'one', held: true },
        { id: 'one', held: false }
      ]
    );
    holds[1]!.answer();

    // Held again, its window ends and it is sent: its hold ends with it.
    store.held.hold(held('one'), async () => void sent.push('one'));
    timers.at(-1)!();
    await settle();
    holds.at(-1)!.answer();
    await settle();
    assert.deepEqual(sent, ['one']);
    assert.deepEqual(
      holds.slice(2).map((call) => call.params),
      [
        { id: 'one', held: true },
        { id: 'one', held: false }
      ]
    );
  });
});
