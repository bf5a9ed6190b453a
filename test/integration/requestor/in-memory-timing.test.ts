import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, afterEach, beforeEach, test } from 'node:test';
import { ManualClock } from '../../support/manual-clock.js';
import { OutboundTasks } from '../../../app/requestor/outbound-tasks.js';
import { connectInMemory, countSent, resultText, tempTaskDir } from '../../support/requestor-harness.js';
import { ClockedTaskStore } from '../../support/requestor-task-store.js';
import { createTaskToolServer } from '../../support/task-tool-server.js';

// In a describe of its own: npm test runs the integration files in one process, where a
// file's top-level hooks would run around every file's tests.
describe('outbound tasks over in-memory servers: their timing', () => {
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

  async function taskServer(options: Partial<Parameters<typeof createTaskToolServer>[0]> = {}) {
    const { server, store } = createTaskToolServer({ clock, pollInterval: 1000, ...options });
    const { client, sent } = await connectInMemory(server, clock);
    manager.attach('srv', 'Task Server', client);
    return { server, store, client, sent };
  }

  async function startTask(tool: string, args: Record<string, unknown>, ttlMs?: number | null) {
    const outcome = await manager.callTool('srv', tool, args, ttlMs === undefined ? {} : { ttlMs });
    assert.equal(outcome.type, 'task');
    return outcome.task;
  }

  test('without a pollInterval the requestor backs off 1 s, 2 s, 4 s, 8 s, then 10 s', async () => {
    const { sent } = await taskServer({ pollInterval: undefined });
    const created = await startTask('work-required', { durationMs: 30_000 });
    assert.equal(created.task.pollInterval, undefined);
    await clock.advance(40_000);
    const times = sent.filter((m) => m.method === 'tasks/get').map((m) => m.at - Date.parse(created.createdAt));
    assert.deepEqual(times, [1000, 3000, 7000, 15_000, 25_000, 35_000]);
    assert.equal(manager.get(created.outboundId)!.state, 'completed');
    assert.equal(countSent(sent, 'tasks/result'), 1);
  });

  test('a task whose ttl runs out before its result is fetched is reported expired, and polling stops', async () => {
    const { sent } = await taskServer();
    const created = await startTask('slow', { durationMs: 60_000 }, 5000);
    assert.equal(created.expiresAt, new Date(Date.parse(created.createdAt) + 5000).toISOString());
    await clock.advance(5000);
    const expired = manager.get(created.outboundId)!;
    assert.equal(expired.state, 'expired');
    assert.equal(expired.reason, "The task's ttl ran out before its result was fetched.");
    assert.equal(expired.outcome, undefined);
    const polls = countSent(sent, 'tasks/get');
    await clock.advance(60_000);
    assert.equal(countSent(sent, 'tasks/get'), polls);
    assert.equal(countSent(sent, 'tasks/result'), 0);
  });

  test('a new task is recorded once at its creation, its expiry in that first record', async () => {
    await taskServer();
    const changes: Array<string | null> = [];
    manager.on((event) => {
      if (event.type === 'changed') changes.push(event.task.expiresAt);
    });
    const created = await startTask('slow', { durationMs: 60_000 }, 5000);
    // The writes of this turn (the queue's, one turn later) have all been made and announced.
    await new Promise((resolve) => setImmediate(resolve));
    const expiresAt = new Date(Date.parse(created.createdAt) + 5000).toISOString();
    assert.deepEqual(changes, [expiresAt]);
    assert.equal(created.expiresAt, expiresAt);
  });

  test('-32602 near the end of the ttl is expiry, not a crash; earlier it means the task was lost', async () => {
    const { store } = await taskServer();
    const nearEnd = await startTask('slow', { durationMs: 60_000 }, 5000);
    const early = await startTask('slow', { durationMs: 60_000 }, 5000);
    await clock.advance(1500);
    store.forget(early.taskId); // the server restarted, or dropped it
    await clock.advance(2000); // poll at 2000 sees -32602 for `early`
    const lost = manager.get(early.outboundId)!;
    assert.equal(lost.state, 'lost');
    assert.equal(
      lost.reason,
      'Task Server no longer has this task (it may have restarted, or keeps its tasks for one connection only). (It answered: Failed to retrieve task: Task not found.)'
    );
    store.forget(nearEnd.taskId); // at 3500: within the 2 s slack of the 5 s ttl
    await clock.advance(500); // poll at 4000
    const expired = manager.get(nearEnd.outboundId)!;
    assert.equal(expired.state, 'expired');
  });

  test('progress for the call token is recorded for the whole task life and the SDK handler is released at the end', async () => {
    const { client } = await taskServer();
    const created = await startTask('work-required', { durationMs: 4000, progressSteps: 3 });
    await clock.advance(3500);
    const running = manager.get(created.outboundId)!;
    assert.equal(running.progress.count, 3);
    assert.deepEqual(
      running.progress.history.map((p) => [p.progress, p.total, p.message]),
      [
        [1, 3, 'step 1'],
        [2, 3, 'step 2'],
        [3, 3, 'step 3']
      ]
    );
    const onDisk = JSON.parse(fs.readFileSync(path.join(temp.dir.dir, `${created.outboundId}.json`), 'utf8'));
    assert.equal(onDisk.progress.count, 3);
    await clock.advance(1000);
    assert.equal(manager.get(created.outboundId)!.state, 'completed');
    const internals = client as unknown as {
      _progressHandlers: Map<unknown, unknown>;
      _taskProgressTokens: Map<unknown, unknown>;
    };
    assert.equal(internals._taskProgressTokens.size, 0);
    assert.equal(internals._progressHandlers.size, 0);
  });

  test('a status notification updates the task at once and its result is fetched without waiting for a poll', async () => {
    const { sent } = await taskServer({ pollInterval: 30_000, statusNotifications: true });
    const created = await startTask('work-required', { durationMs: 1000, label: 'n' });
    await clock.advance(1000);
    const done = manager.get(created.outboundId)!;
    assert.equal(done.state, 'completed');
    assert.equal(resultText(done), 'done: n');
    assert.equal(countSent(sent, 'tasks/get'), 0);
  });

  test('a notification is never relied on: the same task completes by polling when none is sent', async () => {
    const { sent } = await taskServer({ pollInterval: 30_000, statusNotifications: false });
    const created = await startTask('work-required', { durationMs: 1000 });
    await clock.advance(29_999);
    assert.equal(manager.get(created.outboundId)!.state, 'working');
    await clock.advance(1);
    assert.equal(manager.get(created.outboundId)!.state, 'completed');
    assert.equal(countSent(sent, 'tasks/get'), 1);
  });

  test('tasks/list is paged and joined with the outbound tasks', async () => {
    const store = new ClockedTaskStore({ clock, pollInterval: 1000, pageSize: 2 });
    await taskServer({ store });
    const a = await startTask('slow', { durationMs: 60_000 });
    const b = await startTask('slow', { durationMs: 60_000 });
    const c = await startTask('slow', { durationMs: 60_000 });
    const first = await manager.listServerTasks('srv');
    assert.equal(first.tasks.length, 2);
    assert.ok(first.nextCursor);
    const second = await manager.listServerTasks('srv', first.nextCursor);
    assert.equal(second.tasks.length, 1);
    assert.equal(second.nextCursor, undefined);
    const all = [...first.tasks, ...second.tasks];
    assert.deepEqual(all.map((t) => t.outboundId).sort(), [a.outboundId, b.outboundId, c.outboundId].sort());
    assert.ok(all.every((t) => t.toolName === 'slow' && t.status === 'working'));
  });

  test('detach stops polling; attaching a new client resumes at once and finishes the task', async () => {
    const store = new ClockedTaskStore({ clock, pollInterval: 1000 });
    const { sent } = await taskServer({ store });
    const created = await startTask('work-required', { durationMs: 5000 });
    await clock.advance(1000);
    manager.detach('srv');
    const polls = countSent(sent, 'tasks/get');
    await clock.advance(10_000);
    assert.equal(countSent(sent, 'tasks/get'), polls, 'no polls while detached');
    assert.equal(manager.get(created.outboundId)!.state, 'working');

    const { server } = createTaskToolServer({ clock, store });
    const second = await connectInMemory(server, clock);
    manager.attach('srv', 'Task Server', second.client);
    await clock.advance(0);
    assert.equal(countSent(second.sent, 'tasks/get'), 1, 'resumed with an immediate poll');
    assert.equal(resultText(manager.get(created.outboundId)!), 'done: ');
  });
});
