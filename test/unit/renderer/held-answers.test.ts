import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import type { HostApiClient, InboxItem } from '../../../app/contract/host-api.js';
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
  const hold = (id: string, action: 'decline' | 'cancel' | 'reject' = 'decline', refused = false) =>
    held.hold({ id, action, said: `Declined ${id}.` }, sendOf(id, refused));

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
    assert.deepEqual(held.getSnapshot(), { q1: { id: 'q1', action: 'decline', said: 'Declined q1.', phase: 'held' } });
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
    return store;
  }

  it('drops a held answer when its question is withdrawn or answered elsewhere, and keeps the others', () => {
    const store = loaded([question('q1'), question('q2'), question('q3')]);
    const sent: string[] = [];
    for (const id of ['q1', 'q2', 'q3'])
      store.held.hold({ id, action: 'decline', said: id }, () => {
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
});
