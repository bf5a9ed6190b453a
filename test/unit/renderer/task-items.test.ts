import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { InboundTask, OutboundTaskView } from '../../../app/contract/host-api.js';
import {
  itemOutcome,
  matchesTask,
  NO_TASK_FILTER,
  receivedItem,
  requestedItem
} from '../../../renderer/tasks/task-items.js';

const at = '2026-06-01T00:00:00.000Z';

function received(outcome: InboundTask['outcome'], status: InboundTask['task']['status']): InboundTask {
  return {
    task: { taskId: 'r1', status, createdAt: at, lastUpdatedAt: at, ttl: 60_000 },
    serverId: 'a',
    serverName: 'Server a',
    kind: 'sampling',
    request: { messages: [{ role: 'user', content: { type: 'text', text: 'Plan the offsite' } }] },
    notes: [],
    ...(outcome && { outcome })
  };
}

function requested(extra: Partial<OutboundTaskView>): OutboundTaskView {
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
    state: 'working',
    task: { taskId: 't-o1', status: 'working', createdAt: at, lastUpdatedAt: at, ttl: null },
    expiresAt: null,
    progress: { count: 0, history: [] },
    ...extra
  };
}

const search = (text: string) => ({ ...NO_TASK_FILTER, text });

describe('the Tasks screen’s rows', () => {
  it('says who cancelled a task Taskdesk requested, as a received one says it', () => {
    const cancelled = requestedItem(requested({ state: 'cancelled', cancelledBy: 'you' }));
    assert.equal(itemOutcome(cancelled), 'Cancelled by you');
  });

  it('shows a question Taskdesk withdrew as cancelled with why (by the person when their cancel was why), not as what its server was told', () => {
    const why =
      'The task this was asked for (tool slow) completed without it. Taskdesk withdrew it, and told its server it was declined.';
    const withdrawn = receivedItem({
      ...received({ type: 'error', error: { code: -1, message: why } }, 'failed'),
      withdrawn: why
    });
    assert.deepEqual(
      [withdrawn.status, withdrawn.cancelledBy, withdrawn.rejected, withdrawn.running],
      ['cancelled', 'taskdesk', false, false]
    );
    assert.equal(itemOutcome(withdrawn), why);
    assert.ok(matchesTask(withdrawn, { ...NO_TASK_FILTER, status: 'cancelled' }));
    assert.ok(!matchesTask(withdrawn, search('rejected')));

    const dismissed = receivedItem({
      ...received({ type: 'result', result: { action: 'cancel' } }, 'completed'),
      kind: 'elicitation',
      withdrawn: why
    });
    assert.deepEqual([dismissed.status, dismissed.cancelledBy], ['cancelled', 'taskdesk']);

    // The person cancelled the task it was asked for: theirs, as History says (`cancelledBy: 'you'` on the view).
    const yours = receivedItem({
      ...received({ type: 'result', result: { action: 'cancel' } }, 'completed'),
      kind: 'elicitation',
      cancelledBy: 'you',
      withdrawn:
        'The task this was asked for (tool slow) was cancelled by you. Taskdesk withdrew it, and told its server it was dismissed.'
    });
    assert.deepEqual([yours.status, yours.cancelledBy], ['cancelled', 'you']);
  });

  it('finds a row by words of its outcome, and a turned-down model request by "rejected"', () => {
    const rejected = receivedItem(
      received({ type: 'error', error: { code: -1, message: 'User rejected sampling request' } }, 'failed')
    );
    assert.equal(rejected.rejected, true);
    assert.equal(itemOutcome(rejected), 'Rejected: User rejected sampling request');
    assert.ok(matchesTask(rejected, search('rejected')));
    assert.ok(matchesTask(rejected, search('offsite sampling')));

    const answered = requestedItem(
      requested({
        state: 'completed',
        outcome: { type: 'result', result: { content: [{ type: 'text', text: 'Tides peak at noon' }] }, fetchedAt: at }
      })
    );
    assert.ok(matchesTask(answered, search('tides noon')));
    assert.ok(!matchesTask(answered, search('rejected')));
  });
});
