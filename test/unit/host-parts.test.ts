import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TaskView } from '../../app/contract/common.js';
import type { OutboundTaskState } from '../../app/contract/outbound-tasks.js';
import { endedTaskReason } from '../../app/host/ended-task-questions.js';
import { PartialTextThrottle } from '../../app/host/partial-throttle.js';
import { PendingStatusNotifications } from '../../app/host/pending-status.js';
import { ManualClock } from '../support/manual-clock.js';

const task = (taskId: string, status: TaskView['status'] = 'working'): TaskView => ({
  taskId,
  status,
  createdAt: '2026-01-01T00:00:00.000Z',
  lastUpdatedAt: '2026-01-01T00:00:00.000Z',
  ttl: 1000
});

describe('the host’s small parts', () => {
  it('keeps the newest status per task for an absent server, the oldest task going past the limit', () => {
    const pending = new PendingStatusNotifications(2);
    pending.keep('a', task('t1'));
    pending.keep('a', task('t2'));
    pending.keep('a', task('t1', 'completed'));
    pending.keep('a', task('t3'));
    pending.keep('b', task('t9'));
    assert.deepEqual(
      pending.take('a').map((view) => [view.taskId, view.status]),
      [
        ['t1', 'completed'],
        ['t3', 'working']
      ]
    );
    assert.deepEqual(pending.take('a'), [], 'taken once');
    assert.equal(pending.take('b').length, 1);
  });

  it('lets one partial-text update a stream through per interval, the latest held back when it is over, and always the last', async () => {
    const clock = new ManualClock();
    const sent: string[] = [];
    const throttle = new PartialTextThrottle<string>(clock, (update) => sent.push(update), 100);
    throttle.offer('s', 'one', false);
    throttle.offer('s', 'one two', false);
    throttle.offer('s', 'one two three', false);
    throttle.offer('other', 'else', false);
    assert.deepEqual(sent, ['one', 'else'], 'one a stream at once; streams are throttled apart');
    // The stream pauses: what came last goes once its interval is over, not with its next token.
    await clock.advance(100);
    assert.deepEqual(sent, ['one', 'else', 'one two three']);
    await clock.advance(1_000);
    assert.equal(sent.length, 3, 'nothing more to send');
    throttle.offer('s', 'one two three four', false);
    assert.equal(sent.at(-1), 'one two three four', 'after a pause, the next update goes at once');
    throttle.offer('s', 'one two three four five', false);
    throttle.offer('s', 'done: one two three four five', true);
    assert.equal(sent.at(-1), 'done: one two three four five', 'the done update is never held back');
    await clock.advance(1_000);
    assert.equal(sent.at(-1), 'done: one two three four five', 'and nothing held back comes after it');
    throttle.offer('s', 'again', false);
    assert.equal(sent.at(-1), 'again', 'a stream that ended starts afresh');
    // Closed (the host closing): what is held back is not told after it.
    throttle.offer('s', 'again and', false);
    throttle.close();
    await clock.advance(1_000);
    assert.equal(sent.at(-1), 'again');
  });

  it('says why a question for one of Taskdesk’s tasks is withdrawn, only once the task has ended', () => {
    const reason = (state: OutboundTaskState, cancelledBy?: 'you' | 'server') =>
      endedTaskReason({ state, toolName: 'research', ...(cancelledBy && { cancelledBy }) });
    assert.deepEqual(
      [
        reason('working'),
        reason('input_required'),
        reason('completed'),
        reason('failed'),
        reason('cancelled', 'you'),
        reason('cancelled', 'server'),
        reason('cancelled'),
        reason('expired'),
        reason('lost')
      ],
      [
        undefined,
        undefined,
        'The task this was asked for (tool research) completed without it.',
        'The task this was asked for (tool research) failed.',
        'The task this was asked for (tool research) was cancelled by you.',
        'The task this was asked for (tool research) was cancelled by its server.',
        'The task this was asked for (tool research) was cancelled.',
        'The task this was asked for (tool research) expired before its result was fetched.',
        'The task this was asked for (tool research) is no longer known to its server.'
      ]
    );
  });
});
