import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HistorySummary, InboxItem, OutboundTaskView } from '../../../app/contract/host-api.js';
import type { HeldAnswer } from '../../../renderer/store/held-answers.js';
import { requestedItem, toolTaskWaitsOnYou, waitingTasks, waitsOnYou } from '../../../renderer/tasks/task-items.js';
import { taskQuestions } from '../../../renderer/components/waiting-questions.js';
import { toolTaskWait, toolTaskWaitSnapshot } from '../../../renderer/tools/task-wait-state.js';
import { sameLastCalls } from '../../../renderer/tools/same-last-calls.js';

const at = '2026-06-01T00:00:00.000Z';

function requested(extra: Partial<OutboundTaskView> = {}): OutboundTaskView {
  return {
    outboundId: 'o1',
    serverId: 'a',
    serverName: 'Server a',
    toolName: 'slow',
    arguments: {},
    requestedTtl: null,
    createdAt: at,
    updatedAt: at,
    taskId: 't-o1',
    state: 'input_required',
    task: { taskId: 't-o1', status: 'input_required', createdAt: at, lastUpdatedAt: at, ttl: null },
    expiresAt: null,
    progress: { count: 0, history: [] },
    ...extra
  };
}

const item = (extra: Partial<InboxItem>): InboxItem => ({
  id: 'q1',
  kind: 'elicitation',
  serverId: 'a',
  serverName: 'Server a',
  createdAt: at,
  request: {},
  relatedTaskId: 't-o1',
  ...extra
});

const heldOf = (id: string, phase: HeldAnswer['phase'] = 'held'): HeldAnswer => ({
  id,
  serverId: 'a',
  serverName: 'Server a',
  noun: 'question',
  named: 'Server a’s question',
  action: 'decline',
  said: 'Declined Server a’s question.',
  phase
});

describe('where a tool task stands with the person, for its card, its form line and its Last called line', () => {
  it('decides as the Tasks row does: waits, the question to link to, the held answer', () => {
    const task = requested();
    const tasks = [task, requested({ cancelRequestedAt: at }), requested({ state: 'completed' }), undefined];
    const inboxes = [
      [],
      [item({})],
      [item({ relatedCall: true })],
      [item({ serverId: 'b' })],
      [item({ id: 'q0', relatedTaskId: 't-other' }), item({}), item({ id: 'q2' })]
    ];
    const helds: Array<Record<string, HeldAnswer>> = [{}, { q1: heldOf('q1') }, { q1: heldOf('q1'), q2: heldOf('q2') }];
    for (const t of tasks)
      for (const inbox of inboxes)
        for (const held of helds) {
          const wait = toolTaskWait(t, inbox, held);
          const live = t !== undefined && t.state === 'input_required' && t.cancelRequestedAt === undefined;
          const open = inbox.filter((one) => !(one.id in held));
          const questions = live ? taskQuestions(t, inbox) : [];
          assert.equal(wait.waits, live && toolTaskWaitsOnYou(t, open));
          if (live) assert.equal(wait.waits, waitsOnYou(requestedItem(t), waitingTasks(open)), 'as the row');
          assert.equal(
            wait.question,
            questions.find((one) => !(one.id in held))
          );
          const heldQuestion = questions.find((one) => one.id in held);
          assert.equal(wait.held, heldQuestion && held[heldQuestion.id]);
        }
  });

  it('gives the very same value across Inbox and held-answer changes that are not its task’s, and a new one when its own change', () => {
    const task = requested();
    const snapshot = toolTaskWaitSnapshot(task);
    const own = item({});
    const first = snapshot([own], {});
    assert.deepEqual(first, { waits: true, question: own, held: undefined });
    // Another server's question, another task's, a plain request's: the same object, so React renders nothing again.
    const others = [
      item({ id: 'x1', serverId: 'b' }),
      item({ id: 'x2', relatedTaskId: 't-other' }),
      item({ id: 'x3', relatedTaskId: undefined })
    ];
    assert.equal(snapshot([own, ...others], {}), first);
    assert.equal(snapshot([...others, own], {}), first);
    assert.equal(snapshot([own, others[0]!], { x1: heldOf('x1') }), first, 'another item’s Decline held');
    // Its own question declined and held: a new value, then the same while it stays held.
    const held = { q1: heldOf('q1') };
    const declined = snapshot([own], held);
    assert.notEqual(declined, first);
    assert.deepEqual(declined, { waits: false, question: undefined, held: held.q1 });
    assert.equal(snapshot([own, ...others], { ...held }), declined);
    // Undone: waiting again.
    assert.deepEqual(snapshot([own], {}), first);
    // A task that cannot wait (none, ended, being cancelled) gives one value whatever the Inbox holds.
    for (const none of [undefined, requested({ state: 'completed' }), requested({ cancelRequestedAt: at })]) {
      const empty = toolTaskWaitSnapshot(none);
      assert.equal(empty([own], {}), empty([own, ...others], held));
      assert.equal(empty([], {}), toolTaskWait(none, [own], {}), 'the same object for every such task');
    }
  });
});

describe('a tool task’s wait, read again on a store change that is not the Inbox’s', () => {
  it('goes over the Inbox only when the Inbox or the held answers are new objects', () => {
    const snapshot = toolTaskWaitSnapshot(requested());
    let passes = 0;
    // An Inbox that counts the passes over it.
    const counted = (items: InboxItem[]): InboxItem[] =>
      new Proxy(items, {
        get(target, key, receiver) {
          if (key === Symbol.iterator) passes += 1;
          return Reflect.get(target, key, receiver) as unknown;
        }
      });
    const inbox = counted([item({})]);
    const held = {};
    const first = snapshot(inbox, held);
    // A streamed token of a model's reply changes the store but not these: no pass, the same value.
    for (let token = 0; token < 50; token++) assert.equal(snapshot(inbox, held), first);
    assert.equal(passes, 1);
    snapshot(counted([item({})]), held);
    assert.equal(passes, 2, 'a new Inbox is gone over');
    snapshot(inbox, {});
    assert.equal(passes, 3, 'new held answers too');
  });
});

describe('the last call of each tool, read again', () => {
  const entry = (extra: Partial<HistorySummary>): HistorySummary => ({
    id: 'requested:o1',
    direction: 'requested',
    kind: 'tool-call',
    serverId: 'a',
    serverName: 'Server a',
    title: 'Tool call: slow',
    status: 'working',
    createdAt: at,
    updatedAt: at,
    ...extra
  });

  it('keeps the map and its entries while nothing in them changed, so the tools’ lines do not render again', () => {
    const before = new Map([
      ['Tool call: slow', entry({})],
      ['Tool call: echo', entry({ id: 'call:1', title: 'Tool call: echo', status: 'completed' })]
    ]);
    const again = new Map([...before].map(([title, one]) => [title, { ...one }]));
    assert.equal(sameLastCalls(before, again), before);
    const changed = new Map(again).set('Tool call: slow', entry({ status: 'input_required' }));
    const next = sameLastCalls(before, changed);
    assert.notEqual(next, before);
    assert.equal(next.get('Tool call: echo'), before.get('Tool call: echo'), 'the unchanged entry kept');
    assert.equal(next.get('Tool call: slow'), changed.get('Tool call: slow'));
    const fewer = new Map([['Tool call: slow', { ...before.get('Tool call: slow')! }]]);
    assert.equal(sameLastCalls(before, fewer).size, 1, 'a tool gone');
  });
});
