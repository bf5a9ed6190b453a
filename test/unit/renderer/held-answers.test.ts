import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import type { HostApiClient, HostEvent, HostEventPayload, InboxItem } from '../../../app/contract/host-api.js';
import { HeldAnswers, UNDO_WINDOW_MS, isHeldAction } from '../../../renderer/store/held-answers.js';
import { DeskStore } from '../../../renderer/store/desk-store.js';
import type { DeskSnapshot } from '../../../renderer/store/desk-state.js';

/** Lets the answers to the sends made so far come back (promises, not timers). */
const answered = () => new Promise<void>((resolve) => setImmediate(resolve));

const timers = {
  setTimeout: (callback: () => void, ms: number) => setTimeout(callback, ms),
  clearTimeout: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>)
};

const question = (id: string): InboxItem => ({
  id,
  kind: 'elicitation',
  serverId: 'a',
  serverName: 'Server a',
  createdAt: '2026-01-01T00:00:00.000Z',
  request: { mode: 'form', message: id, requestedSchema: { type: 'object', properties: {} } }
});

/** What a held answer says of its item, as the Inbox gives it. */
const about = (id: string, serverId = 'a') => ({
  id,
  serverId,
  serverName: `Server ${serverId}`,
  noun: 'question' as const,
  named: `Server ${serverId}’s question “${id}”`
});

describe('Inbox answers held for their undo window', () => {
  let sent: string[];
  let held: HeldAnswers;
  /** A send that records its item and resolves as the host would answer. */
  const sendOf =
    (id: string, refused = false) =>
    () => {
      sent.push(id);
      return refused ? Promise.reject(new Error('refused')) : Promise.resolve(true);
    };
  const hold = (id: string, action: 'decline' | 'cancel' | 'reject' = 'decline', refused = false, serverId = 'a') =>
    held.hold({ ...about(id, serverId), action, said: `Declined ${id}.` }, sendOf(id, refused));

  beforeEach(() => {
    mock.timers.enable({ apis: ['setTimeout'] });
    sent = [];
    held = new HeldAnswers(timers);
  });
  afterEach(() => mock.timers.reset());

  it('holds only the answers that throw a request away', () => {
    assert.deepEqual(['decline', 'cancel', 'reject', 'accept', 'approve', 'reply', 'submit'].filter(isHeldAction), [
      'decline',
      'cancel',
      'reject'
    ]);
  });

  it('sends nothing before the window ends, then sends once, and forgets it once the host answered', async () => {
    assert.equal(hold('q1'), true);
    assert.deepEqual(held.getSnapshot(), {
      q1: { ...about('q1'), action: 'decline', said: 'Declined q1.', phase: 'held' }
    });
    mock.timers.tick(UNDO_WINDOW_MS - 1);
    assert.deepEqual(sent, []);
    mock.timers.tick(1);
    assert.deepEqual(sent, ['q1']);
    // On its way: no undo any more, and the item stays held until the host answers.
    assert.equal(held.getSnapshot()['q1']?.phase, 'sending');
    assert.equal(held.undo('q1'), undefined);
    await answered();
    assert.deepEqual(held.getSnapshot(), {});
    mock.timers.tick(UNDO_WINDOW_MS * 10);
    assert.deepEqual(sent, ['q1']);
  });

  it('forgets an answer the host refused, so that its card shows again', async () => {
    hold('q1', 'cancel', true);
    mock.timers.tick(UNDO_WINDOW_MS);
    assert.deepEqual(sent, ['q1']);
    await answered();
    assert.deepEqual(held.getSnapshot(), {});
  });

  it('takes an answer back with Undo: it is never sent, and the item can be answered again', () => {
    hold('q1');
    mock.timers.tick(UNDO_WINDOW_MS - 1);
    assert.equal(held.undo('q1')?.id, 'q1');
    assert.deepEqual(held.getSnapshot(), {});
    mock.timers.tick(UNDO_WINDOW_MS * 10);
    assert.deepEqual(sent, []);
    assert.equal(hold('q1'), true);
    mock.timers.tick(UNDO_WINDOW_MS);
    assert.deepEqual(sent, ['q1']);
  });

  it('holds one answer an item: a second is refused while the first is held', () => {
    hold('q1');
    assert.equal(hold('q1', 'cancel'), false);
    assert.equal(held.getSnapshot()['q1']?.action, 'decline');
  });

  it('sends each of several at its own time, and Undo without an id takes back the newest still held', () => {
    hold('q1');
    mock.timers.tick(2_000);
    hold('q2', 'cancel');
    mock.timers.tick(1_000);
    hold('q3', 'reject');
    assert.equal(held.newest(), 'q3');
    assert.equal(held.undo()?.id, 'q3');
    assert.equal(held.newest(), 'q2');
    mock.timers.tick(UNDO_WINDOW_MS - 3_000);
    assert.deepEqual(sent, ['q1']);
    // q1 is on its way: the newest that can be taken back is q2.
    assert.equal(held.newest(), 'q2');
    mock.timers.tick(2_000);
    assert.deepEqual(sent, ['q1', 'q2']);
    assert.equal(held.undo(), undefined);
  });

  it('drops an answer whose item ended meanwhile: it is not sent', () => {
    hold('q1');
    hold('q2');
    held.dropUnless((id) => id !== 'q1');
    assert.deepEqual(Object.keys(held.getSnapshot()), ['q2']);
    mock.timers.tick(UNDO_WINDOW_MS);
    assert.deepEqual(sent, ['q2']);
  });

  it('says which it dropped unsent, and keeps the newest one dropped for u until another is held', async () => {
    hold('q1');
    hold('q2');
    mock.timers.tick(UNDO_WINDOW_MS);
    hold('q3', 'reject');
    // q1 and q2 are on their way: only q3 was dropped before it was sent.
    const dropped = held.dropUnless(() => false, true);
    assert.deepEqual(
      dropped.map((answer) => answer.id),
      ['q3']
    );
    assert.deepEqual(held.lastEnded(), {
      answer: { ...about('q3'), action: 'reject', said: 'Declined q3.', phase: 'held' },
      withdrawn: true
    });
    await answered();
    hold('q4');
    assert.equal(held.lastEnded(), undefined);
    // Not the newest: an older one dropped leaves nothing for u to explain.
    hold('q5');
    held.dropUnless((id) => id !== 'q4');
    assert.equal(held.lastEnded(), undefined);
  });

  it('sends a server’s held answers at once before it closes, the others at their time, and resolves once the host answered', async () => {
    hold('q1', 'decline', false, 'a');
    hold('q2', 'cancel', false, 'b');
    hold('q3', 'reject', false, 'a');
    held.undo('q3');
    let flushed = false;
    const flushing = held.flushServer('a').then(() => (flushed = true));
    assert.deepEqual(sent, ['q1']);
    assert.equal(held.getSnapshot()['q1']?.phase, 'sending');
    await flushing;
    assert.equal(flushed, true);
    assert.deepEqual(Object.keys(held.getSnapshot()), ['q2']);
    mock.timers.tick(UNDO_WINDOW_MS);
    assert.deepEqual(sent, ['q1', 'q2']);
    // Nothing of the server held: resolves at once.
    await held.flushServer('a');
    assert.deepEqual(sent, ['q1', 'q2']);
  });

  it('sends every answer still held at once on flush, and not again when their windows would have ended', () => {
    hold('q1');
    hold('q2');
    held.undo('q2');
    hold('q3', 'cancel');
    held.flush();
    assert.deepEqual(sent, ['q1', 'q3']);
    mock.timers.tick(UNDO_WINDOW_MS * 2);
    assert.deepEqual(sent, ['q1', 'q3']);
  });

  it('tells its listeners of each change', () => {
    let changes = 0;
    const stop = held.subscribe(() => (changes += 1));
    hold('q1');
    held.undo('q1');
    stop();
    hold('q2');
    assert.equal(changes, 2);
  });
});

describe('the Desk store’s held answers', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout'] }));
  afterEach(() => mock.timers.reset());

  /** A store loaded with `inbox`, whose timers are the test's; its client is never called. */
  function loaded(inbox: InboxItem[]): DeskStore {
    const store = new DeskStore({} as HostApiClient, timers);
    loadInto(store, inbox);
    return store;
  }

  /** A store that hears the host's events as `emit` sends them, loaded with `inbox`; what it says goes to `said`. */
  function listening(inbox: InboxItem[], said: string[]) {
    const handlers = new Map<string, (payload: unknown) => void>();
    const client = {
      on: (event: string, handler: (payload: unknown) => void) => {
        handlers.set(event, handler);
        return () => undefined;
      }
    } as unknown as HostApiClient;
    const store = new DeskStore(client, { ...timers, announce: (text) => said.push(text) });
    store.listen();
    loadInto(store, inbox);
    const emit = <E extends HostEvent>(event: E, payload: HostEventPayload<E>) => handlers.get(event)!(payload);
    return { store, emit };
  }

  function loadInto(store: DeskStore, inbox: InboxItem[]): void {
    const snapshot: DeskSnapshot = {
      servers: [],
      policies: {},
      inbox,
      tasks: [],
      outbound: [],
      providers: [],
      calls: [],
      conversations: []
    };
    store.dispatch({ type: 'sync-started', syncId: 1 });
    store.dispatch({ type: 'snapshot', syncId: 1, snapshot });
  }

  it('drops a held answer when its question is withdrawn or answered elsewhere, and keeps the others', () => {
    const store = loaded([question('q1'), question('q2'), question('q3')]);
    const sent: string[] = [];
    for (const id of ['q1', 'q2', 'q3'])
      store.held.hold({ ...about(id), action: 'decline', said: id }, () => {
        sent.push(id);
        return Promise.resolve(true);
      });
    store.apply('inbox.removed', { id: 'q1', why: 'withdrawn' });
    // Answered in another window (an expiry comes the same way, as withdrawn).
    store.apply('inbox.removed', { id: 'q2', why: 'answered' });
    assert.deepEqual(Object.keys(store.held.getSnapshot()), ['q3']);
    mock.timers.tick(UNDO_WINDOW_MS);
    assert.deepEqual(sent, ['q3']);
  });

  it('says a question withdrawn while its answer was held was answered, and not sent, in the notice and aloud', () => {
    const said: string[] = [];
    const sampling: InboxItem = { ...question('q3'), kind: 'sampling-approval', request: { messages: [] } };
    const { store, emit } = listening([question('q1'), question('q2'), sampling], said);
    const noop = () => Promise.resolve(true);
    store.held.hold({ ...about('q1'), action: 'decline', said: 'q1' }, noop);
    store.held.hold({ ...about('q3'), noun: 'model request', action: 'reject', said: 'q3' }, noop);
    // Heard as the host says it: q1 and q3 while held, q2 with nothing held.
    for (const id of ['q1', 'q2', 'q3']) emit('inbox.removed', { id, why: 'withdrawn' });
    assert.deepEqual(said, [
      'Server a withdrew its question “q1” while your Decline waited to be sent: it was not sent.',
      'Server a withdrew its question “q2”.',
      'Server a withdrew its request for a model reply while your Reject waited to be sent: it was not sent.'
    ]);
    assert.deepEqual(
      store.getState().withdrawn.map((notice) => [notice.id, notice.heldAnswer]),
      [
        ['q1', 'Decline'],
        ['q2', undefined],
        ['q3', 'Reject']
      ]
    );
    assert.deepEqual(store.held.getSnapshot(), {});
    assert.equal(store.held.lastEnded()?.answer.id, 'q3');
    assert.equal(store.held.lastEnded()?.withdrawn, true);
  });

  it('keeps the reason for u: a question answered elsewhere was not withdrawn by its server', () => {
    const store = loaded([question('q1')]);
    store.held.hold({ ...about('q1'), action: 'cancel', said: 'q1' }, () => Promise.resolve(true));
    store.apply('inbox.removed', { id: 'q1', why: 'answered' });
    assert.equal(store.held.lastEnded()?.withdrawn, false);
    assert.deepEqual(store.getState().withdrawn, []);
  });
});
