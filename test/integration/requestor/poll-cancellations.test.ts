import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import { OutboundTasks } from '../../../app/requestor/outbound-tasks.js';
import { ManualClock } from '../../support/manual-clock.js';
import { connectInMemory, countSent, tempTaskDir } from '../../support/requestor-harness.js';
import { createTaskToolServer } from '../../support/task-tool-server.js';

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
  return { sent, outboundId: outcome.type === 'task' ? outcome.task.outboundId : '' };
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

test('a server that goes away mid-task: only the request still in flight is cancelled', async () => {
  const { sent } = await follow(60_000);
  await clock.advance(5_000);
  const polls = countSent(sent, 'tasks/get');
  assert.ok(polls >= 5);
  manager.detach('srv');
  assert.ok(countSent(sent, 'notifications/cancelled') <= 1, 'at most the one poll in flight, not every poll');
});
