import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TaskTimers } from '../../../app/requestor/task-timers.js';
import { POLL_SLOT_MS, pollSlot } from '../../../app/requestor/poll-policy.js';
import { OutboundTasks } from '../../../app/requestor/outbound-tasks.js';
import { ManualClock } from '../../support/manual-clock.js';
import { connectInMemory, tempTaskDir } from '../../support/requestor-harness.js';
import { createTaskToolServer } from '../../support/task-tool-server.js';

describe('task timers', () => {
  it('run each call at its time (none early), in due order then in the order scheduled, on one clock timer', async () => {
    const clock = new ManualClock();
    const timers = new TaskTimers(clock);
    const start = clock.now();
    const ran: Array<[string, number]> = [];
    const at = (name: string, offset: number) =>
      timers.schedule(start + offset, () => ran.push([name, clock.now() - start]));
    at('c', 300);
    at('a', 100);
    at('b', 100);
    at('d', 200);
    assert.equal(clock.pendingTimers, 1, 'one clock timer for four calls');
    assert.equal(timers.size, 4);
    await clock.advance(99);
    assert.equal(ran.length, 0);
    await clock.advance(1);
    assert.deepEqual(
      [...ran],
      [
        ['a', 100],
        ['b', 100]
      ]
    );
    await clock.advance(500);
    assert.deepEqual(
      [...ran],
      [
        ['a', 100],
        ['b', 100],
        ['d', 200],
        ['c', 300]
      ]
    );
    assert.equal(timers.size, 0);
    assert.equal(clock.pendingTimers, 0);
  });

  it('a cancelled call never runs; cancelling one that ran changes nothing; a sooner call re-arms the timer', async () => {
    const clock = new ManualClock();
    const timers = new TaskTimers(clock);
    const start = clock.now();
    const ran: string[] = [];
    const late = timers.schedule(start + 1_000, () => ran.push('late'));
    const dropped = timers.schedule(start + 500, () => ran.push('dropped'));
    timers.cancel(dropped);
    timers.cancel(dropped);
    // Scheduled from inside a call, sooner than the armed timer.
    timers.schedule(start + 100, () => {
      ran.push('first');
      timers.schedule(start + 150, () => ran.push('chained'));
    });
    await clock.advance(200);
    assert.deepEqual(ran, ['first', 'chained']);
    await clock.advance(1_000);
    assert.deepEqual(ran, ['first', 'chained', 'late']);
    timers.cancel(late);
    assert.equal(timers.size, 0);
  });

  it('many cancellations leave the heap small, and the calls still due run in order', async () => {
    const clock = new ManualClock();
    const timers = new TaskTimers(clock);
    const start = clock.now();
    const ran: number[] = [];
    for (let i = 0; i < 1_000; i++) {
      const call = timers.schedule(start + 1_000 - i, () => ran.push(i));
      if (i % 10 !== 0) timers.cancel(call);
    }
    assert.equal(timers.size, 100);
    await clock.advance(1_000);
    assert.deepEqual(
      ran,
      Array.from({ length: 100 }, (_, k) => 990 - 10 * k)
    );
  });

  it('a call that throws does not stop the others; clear stops everything', async () => {
    const clock = new ManualClock();
    const timers = new TaskTimers(clock);
    const start = clock.now();
    const ran: string[] = [];
    timers.schedule(start + 10, () => {
      throw new Error('boom');
    });
    timers.schedule(start + 10, () => ran.push('after'));
    timers.schedule(start + 20, () => ran.push('cleared'));
    await clock.advance(10);
    assert.deepEqual(ran, ['after']);
    timers.clear();
    assert.equal(clock.pendingTimers, 0);
    await clock.advance(100);
    assert.deepEqual(ran, ['after']);
  });
});

describe('poll slots', () => {
  it('a poll goes out in the first slot at or after its time: never early, at most a slot late', () => {
    for (const due of [0, 1, 9, 10, 11, 499, 500, 1_767_225_600_003]) {
      const at = pollSlot(due);
      assert.ok(at >= due && at - due < POLL_SLOT_MS, `${due} → ${at}`);
      assert.equal(at % POLL_SLOT_MS, 0);
    }
  });

  it('the polls of tasks created a few ms apart go out together, in one slot, and their interval is kept', async () => {
    const clock = new ManualClock();
    const temp = tempTaskDir();
    const manager = new OutboundTasks({ dir: temp.dir, clock, defaultTtlMs: 600_000 });
    try {
      const { server } = createTaskToolServer({ clock, pollInterval: 1_000 });
      const { client, sent } = await connectInMemory(server, clock);
      manager.attach('srv', 'Task Server', client);
      const start = clock.now();
      await clock.advance(2);
      for (let i = 0; i < 3; i++) {
        await manager.callTool('srv', 'work-required', { durationMs: 10_000 });
        await clock.advance(3);
      }
      await clock.advance(3_000);
      const polls = sent.filter((m) => m.method === 'tasks/get').map((m) => m.at - start);
      // Created at 2, 5 and 8 ms: each first poll is due 1,000 ms later, and all go out at 1,010.
      assert.deepEqual(polls.slice(0, 3), [1_010, 1_010, 1_010]);
      assert.deepEqual(polls.slice(3, 6), [2_010, 2_010, 2_010]);
    } finally {
      manager.close();
      temp.cleanup();
    }
  });
});
