import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { OutboundTaskView } from '../../../app/contract/host-api.js';
import { SETTLING_HOLD_MS } from '../../../app/requestor/write-queue.js';
import { nextEvent, startHostWith } from '../../support/host-fixture.js';
import { ManualClock } from '../../support/manual-clock.js';
import { ClockedTaskStore } from '../../support/requestor-task-store.js';
import { createTaskToolPeer } from '../../support/task-tool-server.js';

/**
 * A tool call's task that waited for input, then ended: the `tasks/result` Taskdesk asked on
 * `input_required` may still be waiting on its server (this one never answers it for a cancelled
 * task), yet the end is written and told after a short hold, not held back until that answer comes.
 */
describe('the end of a tool task whose tasks/result, asked while it waited for input, is still out', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('is told (outbound.changed) and kept within SETTLING_HOLD_MS of Taskdesk learning it', async () => {
    const clock = new ManualClock();
    // An hour between polls: the host asks the server only when told to.
    const store = new ClockedTaskStore({ clock, pollInterval: 3_600_000 });
    cleanups.push(() => store.close());
    const { peer } = createTaskToolPeer({ clock, store });
    const fixture = await startHostWith({ a: peer }, { clock });
    cleanups.push(() => fixture.dispose());
    const { host } = fixture;
    const call = await host.call('tools.call', { serverId: 'a', name: 'slow', arguments: { durationMs: 600_000 } });
    assert.equal(call.type, 'task');
    const task = (call as { task: OutboundTaskView }).task;

    // Waiting for input: Taskdesk asks for its result (the way its questions come), which stays out.
    await store.updateTaskStatus(task.taskId, 'input_required');
    assert.equal((await host.call('outbound.refresh', { outboundId: task.outboundId })).state, 'input_required');

    const told = nextEvent(
      host,
      'outbound.changed',
      (event) =>
        event.type === 'changed' && event.task.outboundId === task.outboundId && event.task.state === 'cancelled'
    );
    assert.equal((await host.call('outbound.cancel', { outboundId: task.outboundId })).state, 'cancelled');
    // Held back a moment for the outcome, as any end is (one write for both), then told without it.
    await clock.advance(SETTLING_HOLD_MS);
    const event = await told;
    assert.equal(event.type === 'changed' && event.task.state, 'cancelled');
    assert.equal(
      (await host.call('outbound.list', {})).find((each) => each.outboundId === task.outboundId)?.state,
      'cancelled'
    );
  });
});
