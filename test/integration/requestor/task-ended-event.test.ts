import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { HostEventPayload, OutboundTaskView } from '../../../app/contract/host-api.js';
import type { Host } from '../../../app/host/host.js';
import { nextEvent, startHostWith } from '../../support/host-fixture.js';
import { ManualClock } from '../../support/manual-clock.js';
import { createTaskToolPeer } from '../../support/task-tool-server.js';

/**
 * `outbound.ended`: told once when a tool call's task ends in this run, after the
 * `outbound.changed` that ended it; what the system notification of a long call's end is made of.
 */
describe('the host event of a tool call’s task that ended', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  async function start() {
    const clock = new ManualClock();
    const { peer } = createTaskToolPeer({ clock, pollInterval: 1000 });
    const fixture = await startHostWith({ a: peer }, { clock });
    cleanups.push(() => fixture.dispose());
    const ended: Array<HostEventPayload<'outbound.ended'>> = [];
    const order: string[] = [];
    fixture.host.on('outbound.changed', (event) => {
      if (event.type === 'changed' && event.task.outcome !== undefined) order.push(`changed ${event.task.state}`);
    });
    fixture.host.on('outbound.ended', (payload) => {
      ended.push(payload);
      order.push(`ended ${payload.task.state}`);
    });
    return { clock, host: fixture.host, ended, order };
  }

  async function call(host: Host, name: string, durationMs: number): Promise<OutboundTaskView> {
    const outcome = await host.call('tools.call', { serverId: 'a', name, arguments: { durationMs } });
    assert.equal(outcome.type, 'task');
    return (outcome as { task: OutboundTaskView }).task;
  }

  it('is told once, after the change that ended the task, with the task as it ended', async () => {
    const { clock, host, ended, order } = await start();
    const task = await call(host, 'slow', 500);
    const told = nextEvent(host, 'outbound.ended');
    await clock.advance(2_000);
    const { task: view } = await told;
    assert.equal(view.outboundId, task.outboundId);
    assert.equal(view.state, 'completed');
    assert.deepEqual(view.outcome?.type === 'result' && view.outcome.result.content, [
      { type: 'text', text: 'slow done' }
    ]);
    assert.equal(order[0], 'changed completed', 'after its outbound.changed');
    // Asked about again: no second end.
    await host.call('outbound.refresh', { outboundId: task.outboundId });
    await clock.advance(5_000);
    assert.equal(ended.length, 1);
  });

  it('is told of a task that failed and of one the person cancelled (the notice leaves that one out)', async () => {
    const { clock, host, ended } = await start();
    const failing = await call(host, 'fail-rpc', 500);
    const told = nextEvent(host, 'outbound.ended');
    await clock.advance(2_000);
    assert.equal((await told).task.state, 'failed');
    const long = await call(host, 'slow', 600_000);
    const cancelled = nextEvent(host, 'outbound.ended', ({ task }) => task.outboundId === long.outboundId);
    await host.call('outbound.cancel', { outboundId: long.outboundId });
    await clock.advance(2_000);
    const { task } = await cancelled;
    assert.equal(task.state, 'cancelled');
    assert.equal(task.cancelledBy, 'you');
    assert.deepEqual(
      ended.map((each) => each.task.outboundId),
      [failing.outboundId, long.outboundId]
    );
  });
});
