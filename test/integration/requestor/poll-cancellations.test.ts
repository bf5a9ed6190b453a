import assert from 'node:assert/strict';
import { describe, afterEach, beforeEach, test } from 'node:test';
import { OutboundTasks } from '../../../app/requestor/outbound-tasks.js';
import { ManualClock } from '../../support/manual-clock.js';
import { connectInMemory, countSent, tempTaskDir } from '../../support/requestor-harness.js';
import { createTaskToolServer } from '../../support/task-tool-server.js';

// In a describe of its own: npm test runs the integration files in one process, where a
// file's top-level hooks would run around every file's tests.
describe('polls and cancellations of outbound tasks', () => {
  let temp: ReturnType<typeof tempTaskDir>;
  let clock: ManualClock;
  let manager: OutboundTasks;

  beforeEach(() => {
    temp = tempTaskDir();
    clock = new ManualClock();
    manager = new OutboundTasks({ dir: temp.dir, clock, defaultTtlMs: 600_000 });
  });
  afterEach(() => {
    manager.close();
    temp.cleanup();
  });

  async function follow(durationMs: number) {
    const { server } = createTaskToolServer({ clock, pollInterval: 1000 });
    const { client, sent } = await connectInMemory(server, clock);
    manager.attach('srv', 'Task Server', client);
    const outcome = await manager.callTool('srv', 'work-required', { durationMs });
    assert.equal(outcome.type, 'task');
    return { sent, transport: client.transport!, outboundId: outcome.type === 'task' ? outcome.task.outboundId : '' };
  }

  test('a task followed to its end cancels none of the polls it sent, all long answered', async () => {
    const { sent, outboundId } = await follow(12_000);
    await clock.advance(13_000);
    assert.equal(manager.get(outboundId)?.state, 'completed');
    assert.ok(countSent(sent, 'tasks/get') >= 12, 'a poll a second');
    assert.equal(countSent(sent, 'tasks/result'), 1);
    manager.detach('srv');
    assert.equal(countSent(sent, 'notifications/cancelled'), 0, 'nothing in progress, nothing cancelled');
  });

  test('a server that goes away mid-task: only the poll still in flight is cancelled, not every poll', async () => {
    const { sent, transport } = await follow(60_000);
    await clock.advance(4_000);
    const answeredPolls = countSent(sent, 'tasks/get');
    assert.ok(answeredPolls >= 4);
    // The next poll's answer is held back, as from a slow server: that poll is in flight.
    const deliver = transport.onmessage!;
    let held: string | number | undefined;
    transport.onmessage = (message, extra) => {
      if (held === undefined && 'result' in message) {
        held = message.id;
        return;
      }
      deliver(message, extra);
    };
    await clock.advance(1_000);
    assert.ok(held !== undefined, 'a poll waits for its answer');
    manager.detach('srv');
    const cancelled = sent
      .filter((message) => message.method === 'notifications/cancelled')
      .map((message) => message.params?.requestId);
    assert.deepEqual(cancelled, [held], 'exactly the poll in flight');
  });
});
