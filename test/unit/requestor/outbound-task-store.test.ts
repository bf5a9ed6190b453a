import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ManualClock } from '../../support/manual-clock.js';
import { OutboundTasks } from '../../../app/requestor/outbound-tasks.js';
import { OutboundTaskStore } from '../../../app/requestor/outbound-task-store.js';
import { OutboundTaskViewSchema, type OutboundTaskView } from '../../../app/contract/outbound-tasks.js';
import { countingOutboundLog, tempTaskDir } from '../../support/requestor-harness.js';

function sample(overrides: Partial<OutboundTaskView> = {}): OutboundTaskView {
  const at = new Date(Date.UTC(2026, 0, 1)).toISOString();
  return OutboundTaskViewSchema.parse({
    outboundId: 'ob-1',
    serverId: 'srv',
    serverName: 'Server',
    toolName: 'tool',
    arguments: { a: 1 },
    requestedTtl: 60_000,
    createdAt: at,
    updatedAt: at,
    taskId: 't-1',
    state: 'working',
    task: { taskId: 't-1', status: 'working', createdAt: at, lastUpdatedAt: at, ttl: 60_000, pollInterval: 1000 },
    expiresAt: new Date(Date.UTC(2026, 0, 1) + 60_000).toISOString(),
    progress: { count: 0, history: [] },
    ...overrides
  });
}

test('documents round-trip; corrupt and foreign documents are quarantined, not deleted', () => {
  const temp = tempTaskDir();
  try {
    const store = new OutboundTaskStore(temp.dir);
    void store.save(sample());
    fs.writeFileSync(path.join(temp.dir.dir, 'ob-broken.json'), '{ not json');
    fs.writeFileSync(path.join(temp.dir.dir, 'ob-foreign.json'), JSON.stringify({ schemaVersion: 7, hello: 'world' }));
    const loaded = store.loadAll();
    assert.deepEqual(loaded.tasks, [sample()]);
    assert.deepEqual(loaded.quarantined.map((q) => q.id).sort(), ['ob-broken', 'ob-foreign']);
    for (const q of loaded.quarantined) assert.ok(fs.existsSync(q.movedTo), 'bytes kept for a person to inspect');
    assert.deepEqual(temp.dir.ids(), ['ob-1']);
  } finally {
    temp.cleanup();
  }
});

test('a new manager on the same directory sees the tasks, and one whose ttl ran out while the host was down is expired', () => {
  const temp = tempTaskDir();
  try {
    const store = new OutboundTaskStore(temp.dir);
    void store.save(sample());
    void store.save(sample({ outboundId: 'ob-2', taskId: 't-2' }));
    const clock = new ManualClock(Date.UTC(2026, 0, 1) + 30_000);
    const manager = new OutboundTasks({ dir: temp.dir, clock });
    assert.equal(manager.list().length, 2);
    assert.equal(manager.get('ob-1')!.state, 'working');
    assert.deepEqual(manager.describe('srv', 't-2'), { toolName: 'tool', outboundId: 'ob-2' });
    manager.close();

    const later = new OutboundTasks({ dir: temp.dir, clock: new ManualClock(Date.UTC(2026, 0, 1) + 61_000) });
    assert.equal(later.get('ob-1')!.state, 'expired');
    later.close();
    assert.equal(
      new OutboundTaskStore(temp.dir).loadAll().tasks.find((t) => t.outboundId === 'ob-1')?.state,
      'expired',
      'written on close'
    );
  } finally {
    temp.cleanup();
  }
});

test('forget removes the document and announces it', () => {
  const temp = tempTaskDir();
  try {
    void new OutboundTaskStore(temp.dir).save(sample());
    const manager = new OutboundTasks({ dir: temp.dir, clock: new ManualClock() });
    const events: unknown[] = [];
    manager.on((e) => events.push(e));
    manager.forget('ob-1');
    assert.deepEqual(events, [{ type: 'removed', outboundId: 'ob-1', serverId: 'srv' }]);
    assert.deepEqual(temp.dir.ids(), []);
    manager.close();
  } finally {
    temp.cleanup();
  }
});

test('a change nobody waits for shares the next commit: one sync for a new task and the changes before it', async () => {
  const temp = tempTaskDir();
  const { log, syncs, reload } = countingOutboundLog(temp);
  const store = new OutboundTaskStore(temp.dir, log);
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  try {
    // Two followed tasks change on two turns (a status, a result): nobody waits for those.
    void store.save(sample({ state: 'completed' }), false);
    await turn();
    void store.save(sample({ outboundId: 'ob-2', taskId: 't-2', state: 'failed' }), false);
    for (let i = 0; i < 5; i++) await turn();
    assert.equal(syncs(), 0, 'not committed on their own turn');
    // A new task, whose call waits until it is durable, takes them along.
    await store.save(sample({ outboundId: 'ob-3', taskId: 't-3' }));
    assert.equal(syncs(), 1);
    assert.deepEqual([...reload().values()].map((record) => [record.outboundId, record.state]).sort(), [
      ['ob-1', 'completed'],
      ['ob-2', 'failed'],
      ['ob-3', 'working']
    ]);
  } finally {
    store.close();
    temp.cleanup();
  }
});
