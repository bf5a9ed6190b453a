import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import type { HostEventPayload, OutboundTaskView } from '../../../app/contract/host-api.js';
import { createHost, type Host } from '../../../app/host/host.js';
import { nextEvent, startHostWith, tempDir } from '../../support/host-fixture.js';
import { ManualClock } from '../../support/manual-clock.js';
import { createTaskToolPeer } from '../../support/task-tool-server.js';

/**
 * `outbound.ended`: told once when a tool call's task ends in this run, after the
 * `outbound.changed` that ended it, with the system notification it is worth (none for a task the
 * person cancelled, nor for one whose ttl ran out while Taskdesk was closed).
 */
describe('the host event of a tool call’s task that ended', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function start(options: { clock?: ManualClock; dir?: string } = {}) {
    const clock = options.clock ?? new ManualClock();
    const { peer } = createTaskToolPeer({ clock, pollInterval: 1000 });
    const fixture = await startHostWith({ a: peer }, { clock, ...(options.dir !== undefined && { dir: options.dir }) });
    cleanups.push(() => fixture.dispose());
    const ended: Array<HostEventPayload<'outbound.ended'>> = [];
    const order: string[] = [];
    fixture.host.on('outbound.changed', (event) => {
      if (event.type === 'changed' && event.task.outcome !== undefined) order.push(`changed ${event.task.state}`);
    });
    fixture.host.on('outbound.ended', (payload) => {
      ended.push(payload);
      order.push(`ended ${payload.state}`);
    });
    return { clock, fixture, host: fixture.host, ended, order };
  }

  async function call(host: Host, name: string, durationMs: number, ttlMs?: number): Promise<OutboundTaskView> {
    const outcome = await host.call('tools.call', {
      serverId: 'a',
      name,
      arguments: { durationMs },
      ...(ttlMs !== undefined && { ttlMs })
    });
    assert.equal(outcome.type, 'task');
    return (outcome as { task: OutboundTaskView }).task;
  }

  it('is told once, after the change that ended the task, with its notice', async () => {
    const { clock, host, ended, order } = await start();
    const task = await call(host, 'slow', 500);
    const told = nextEvent(host, 'outbound.ended');
    await clock.advance(2_000);
    assert.deepEqual(await told, {
      outboundId: task.outboundId,
      serverId: 'a',
      state: 'completed',
      notice: { title: 'slow on Server a finished', body: 'slow done' }
    });
    assert.equal(order[0], 'changed completed', 'after its outbound.changed');
    // Asked about again: no second end.
    await host.call('outbound.refresh', { outboundId: task.outboundId });
    await clock.advance(5_000);
    assert.equal(ended.length, 1);
  });

  it('is told of a task that failed, and without a notice of one the person cancelled', async () => {
    const { clock, host, ended } = await start();
    const failing = await call(host, 'fail-rpc', 500);
    const told = nextEvent(host, 'outbound.ended');
    await clock.advance(2_000);
    const failed = await told;
    assert.equal(failed.state, 'failed');
    assert.equal(failed.notice?.title, 'fail-rpc on Server a failed');
    const long = await call(host, 'slow', 600_000);
    const cancelled = nextEvent(host, 'outbound.ended', ({ outboundId }) => outboundId === long.outboundId);
    await host.call('outbound.cancel', { outboundId: long.outboundId });
    await clock.advance(2_000);
    assert.deepEqual(await cancelled, { outboundId: long.outboundId, serverId: 'a', state: 'cancelled' });
    assert.deepEqual(
      ended.map((each) => each.outboundId),
      [failing.outboundId, long.outboundId]
    );
  });

  it('gives no notice of tasks whose ttl ran out while Taskdesk was closed', async () => {
    const clock = new ManualClock();
    const data = tempDir('taskdesk-ended-');
    cleanups.push(() => data.remove());
    const first = await start({ clock, dir: data.dir });
    for (let i = 0; i < 3; i++) await call(first.host, 'slow', 600_000, 60_000);
    await first.fixture.stop();
    await clock.advance(120_000);
    const second = createHost({
      dataDir: data.dir,
      autoConnect: false,
      clock,
      servers: [{ id: 'a', name: 'Server a', transport: { type: 'stdio', command: 'in-memory-a' } }]
    });
    cleanups.push(() => second.close());
    const ended: Array<HostEventPayload<'outbound.ended'>> = [];
    second.on('outbound.ended', (payload) => ended.push(payload));
    // The expiries come on the clock's timers, due at once.
    await clock.advance(0);
    const tasks = await second.call('outbound.list', {});
    assert.deepEqual(
      tasks.map((task) => task.state),
      ['expired', 'expired', 'expired']
    );
    assert.equal(ended.length, 3, 'each told, for the screens that follow tasks');
    assert.ok(ended.every((each) => each.state === 'expired' && each.notice === undefined));
  });
});
