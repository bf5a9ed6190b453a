import assert from 'node:assert/strict';
import { test } from 'node:test';
import { copyView } from '../../../app/requestor/view-copy.js';
import { OutboundTasks } from '../../../app/requestor/outbound-tasks.js';
import type { OutboundTaskView } from '../../../app/contract/outbound-tasks.js';
import { ManualClock } from '../../support/manual-clock.js';
import { connectInMemory, tempTaskDir } from '../../support/requestor-harness.js';
import { createTaskToolServer } from '../../support/task-tool-server.js';

const view: OutboundTaskView = {
  outboundId: 'ob-1',
  serverId: 'srv',
  serverName: 'Server',
  toolName: 'work',
  arguments: { nested: { list: [1, 'two', { three: null }] }, flag: true },
  requestedTtl: 60_000,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:01.000Z',
  taskId: 't-1',
  state: 'completed',
  task: {
    taskId: 't-1',
    status: 'completed',
    createdAt: '2026-01-01T00:00:00.000Z',
    lastUpdatedAt: '2026-01-01T00:00:01.000Z',
    ttl: 60_000,
    pollInterval: 500
  },
  expiresAt: '2026-01-01T00:01:00.000Z',
  progress: { count: 1, history: [{ at: '2026-01-01T00:00:00.500Z', progress: 1, total: 2 }] },
  outcome: {
    type: 'result',
    result: { content: [{ type: 'text', text: 'done' }] },
    fetchedAt: '2026-01-01T00:00:01.000Z'
  }
};

test('a copied view equals the view, shares no object with it, and is what structuredClone makes of it', () => {
  const copy = copyView(view);
  assert.deepStrictEqual(copy, view);
  assert.deepStrictEqual(copy, structuredClone(view));
  const objects = (value: unknown, out: object[] = []): object[] => {
    if (typeof value === 'object' && value !== null) {
      out.push(value);
      for (const item of Object.values(value)) objects(item, out);
    }
    return out;
  };
  const original = new Set(objects(view));
  for (const object of objects(copy)) assert.ok(!original.has(object), 'no shared object');
});

test('a part that is not plain JSON (a Date among the arguments) is cloned whole, as structuredClone does', () => {
  const at = new Date('2026-02-03T04:05:06.000Z');
  const copy = copyView({ ...view, arguments: { at } });
  const copied = copy.arguments.at as Date;
  assert.ok(copied instanceof Date && copied !== at);
  assert.equal(copied.getTime(), at.getTime());
});

test('a listener that changes the task it was given changes nothing the requestor keeps', async () => {
  const clock = new ManualClock();
  const temp = tempTaskDir();
  const manager = new OutboundTasks({ dir: temp.dir, clock, defaultTtlMs: 600_000 });
  try {
    const { server } = createTaskToolServer({ clock, pollInterval: 1_000 });
    const { client } = await connectInMemory(server, clock);
    manager.attach('srv', 'Task Server', client);
    manager.on((event) => {
      if (event.type !== 'changed') return;
      event.task.state = 'lost';
      event.task.task.status = 'failed';
      (event.task.arguments as { durationMs: number }).durationMs = -1;
    });
    const outcome = await manager.callTool('srv', 'work-required', { durationMs: 1_500 });
    assert.equal(outcome.type, 'task');
    const outboundId = outcome.type === 'task' ? outcome.task.outboundId : '';
    await clock.advance(3_000);
    const done = manager.get(outboundId)!;
    assert.ok(done.outcome, 'finished');
    assert.equal(done.state, 'completed');
    assert.equal(done.task.status, 'completed');
    assert.deepEqual(done.arguments, { durationMs: 1_500 });
  } finally {
    manager.close();
    temp.cleanup();
  }
});
