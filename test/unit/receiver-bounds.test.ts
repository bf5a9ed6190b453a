import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { inboundSummary } from '../../app/host/task-summary.js';
import { TASK_RECORD_VERSION, type TaskRecord } from '../../app/receiver/task-record.js';
import { newTaskId } from '../../app/receiver/task-receiver.js';
import { TaskRepository, recordBytes } from '../../app/receiver/task-repository.js';
import { TaskUsage, type StorageBounds } from '../../app/receiver/task-usage.js';
import { confStoreFactory } from '../../app/store/json-file-store.js';
import { SegmentLog } from '../../app/store/segment-log.js';
import { tempDir } from '../support/host-fixture.js';

const KiB = 1024;
const loose: StorageBounds = {
  maxFinishedTasksPerServer: 1e9,
  maxFinishedTasksTotal: 1e9,
  maxStoredBytesPerServer: 1e12,
  maxStoredBytesTotal: 1e12
};

function record(identity: string, size: number, finishedAt: number, sequence: number, open = false): TaskRecord {
  const iso = new Date(finishedAt).toISOString();
  return {
    schemaVersion: TASK_RECORD_VERSION,
    task: {
      taskId: newTaskId(),
      status: open ? 'working' : 'completed',
      createdAt: iso,
      lastUpdatedAt: iso,
      ttl: 86_400_000,
      pollInterval: 1000
    },
    owner: { serverId: identity, serverName: identity, identity },
    kind: 'sampling',
    request: { messages: [{ role: 'user', content: { type: 'text', text: 'q'.repeat(size) } }], maxTokens: 5 },
    expiresAt: finishedAt + 86_400_000,
    ...(!open && {
      outcome: { type: 'result' as const, result: { role: 'assistant', content: { type: 'text', text: 'ok' } } }
    }),
    notes: [],
    sequence
  };
}

describe('task usage', () => {
  it('picks the oldest finished task of the server over its bound, never an unfinished one', () => {
    const usage = new TaskUsage();
    usage.set('open', 'a', 100, false);
    usage.set('a1', 'a', 100, true);
    usage.set('a2', 'a', 100, true);
    usage.set('b1', 'b', 100, true);
    assert.deepEqual(usage.of('a'), { tasks: 3, finished: 2, bytes: 300, openBytes: 100 });
    assert.deepEqual(usage.of(), { tasks: 4, finished: 3, bytes: 400, openBytes: 100 });
    assert.equal(usage.nextEviction({ ...loose, maxFinishedTasksPerServer: 2 }, 'a'), undefined);
    assert.equal(usage.nextEviction({ ...loose, maxFinishedTasksPerServer: 1 }, 'a'), 'a1');
    assert.equal(usage.nextEviction({ ...loose, maxStoredBytesPerServer: 250 }, 'a'), 'a1');
    usage.delete('a1');
    usage.delete('a2');
    // Only the open task is left to A: above its bytes bound, still nothing to take from it.
    assert.equal(usage.nextEviction({ ...loose, maxStoredBytesPerServer: 50 }, 'a'), undefined);
    // Above the total, the server holding the most finished work pays, whoever stored last.
    usage.set('b2', 'b', 100, true);
    usage.set('a3', 'a', 10, true);
    assert.equal(usage.nextEviction({ ...loose, maxFinishedTasksTotal: 2 }, 'a'), 'b1');
    assert.equal(usage.nextEviction({ ...loose, maxStoredBytesTotal: 250 }, 'a'), 'b1');
  });
});

describe('loading a store that holds more than the bounds', () => {
  it('never holds more than the bounds and one document, and keeps the newest finished tasks', async () => {
    const data = tempDir();
    try {
      const options = { dir: path.join(data.dir, 'tasks'), corruptDir: path.join(data.dir, 'corrupt') };
      const writer = new SegmentLog<TaskRecord>({ ...options, factory: confStoreFactory, journal: false });
      writer.load((value) => value as TaskRecord);
      const all: TaskRecord[] = [];
      // 200 finished tasks of 20 KiB (about 4 MiB), four to a document, oldest first.
      for (let i = 0; i < 200; i += 4) {
        const group = [0, 1, 2, 3].map((j) => record('a', 20 * KiB, 1_000_000 + (i + j) * 1_000, i + j + 1));
        all.push(...group);
        await Promise.all(group.map((r) => writer.put(r.task.taskId, r)));
      }
      writer.close();
      const size = recordBytes(all[0]!);
      const bounds: StorageBounds = { ...loose, maxStoredBytesPerServer: 20 * size + 100 };
      const repository = new TaskRepository(
        new SegmentLog<TaskRecord>({ ...options, factory: confStoreFactory }),
        options.corruptDir,
        bounds
      );
      const report = repository.load();
      // The real count of what the repository held at its largest: the bound plus one document.
      assert.ok(report.peak.bytes <= bounds.maxStoredBytesPerServer + 4 * size, `peak ${report.peak.bytes}`);
      assert.ok(report.peak.tasks <= 24, `peak ${report.peak.tasks} tasks`);
      assert.equal(repository.size, 20);
      assert.deepEqual(
        repository.idsOf('a'),
        all.slice(-20).map((r) => r.task.taskId)
      );
      assert.deepEqual(
        report.evicted.map((entry) => entry.taskId),
        all.slice(0, -20).map((r) => r.task.taskId)
      );
      repository.close();
    } finally {
      data.remove();
    }
  });

  it('ignores later entries of a key it dropped, and reports as gone one deleted on disk after', async () => {
    const data = tempDir();
    try {
      const options = { dir: path.join(data.dir, 'tasks'), corruptDir: path.join(data.dir, 'corrupt'), journal: false };
      const writer = new SegmentLog<{ v: number }>({ ...options, factory: confStoreFactory });
      writer.load((value) => value as { v: number });
      await writer.put('x', { v: 1 });
      await writer.put('y', { v: 1 });
      await writer.put('x', { v: 2 });
      await writer.delete('y');
      writer.close();
      const seen: Array<[string, number | undefined]> = [];
      let first = true;
      const log = new SegmentLog<{ v: number }>({ ...options, factory: confStoreFactory });
      const report = log.load((value) => value as { v: number }, {
        changed: (id, value) => seen.push([id, value?.v]),
        drop: function* () {
          if (!first) return;
          first = false;
          yield 'x';
        }
      });
      assert.deepEqual([...report.records], []);
      // x dropped after the first document: its later version is not read; y is deleted as stored.
      assert.deepEqual(seen, [
        ['x', 1],
        ['y', 1],
        ['y', undefined]
      ]);
    } finally {
      data.remove();
    }
  });
});

describe('task summaries for lists', () => {
  it('cut long strings and lists, say so, keep keys such as __proto__ plain, and are made once per version', () => {
    const stored = record('a', 50 * KiB, 1_000_000, 1);
    const request = JSON.parse('{"__proto__":{"x":1},"items":[1,2,3,4,5,6,7,8,9,10,11,12,13,14]}') as Record<
      string,
      unknown
    >;
    const withKeys = { ...stored, request: { ...stored.request, ...request } };
    Object.defineProperty(withKeys.request, '__proto__', { value: { x: 1 }, enumerable: true });
    const summary = inboundSummary(withKeys);
    assert.equal(summary.truncated, true);
    assert.ok(JSON.stringify(summary).length < 2 * KiB);
    assert.ok(Object.hasOwn(summary.request, '__proto__'));
    assert.equal(Object.getPrototypeOf(summary.request), Object.prototype);
    assert.equal((summary.request.items as number[]).length, 12);
    assert.equal(inboundSummary(withKeys), summary);
    const small = inboundSummary(record('a', 10, 1_000_000, 2));
    assert.equal(small.truncated, undefined);
  });
});

describe('task summaries of elicitations', () => {
  function elicitation(requestedSchema: Record<string, unknown>): TaskRecord {
    const base = record('a', 1, 1_000_000, 3);
    return {
      ...base,
      kind: 'elicitation',
      request: { mode: 'form', message: 'Where?', requestedSchema },
      outcome: { type: 'result', result: { action: 'accept', content: { region: 'eu', regions: ['eu', 'us'] } } }
    };
  }

  it('keep the titles of a form’s options, single and multi-select, so a list can show an answer under them', () => {
    const option = (value: string, title: string) => ({ const: value, title });
    const requestedSchema = {
      type: 'object',
      properties: {
        region: { type: 'string', oneOf: [option('eu', 'Europe'), option('us', 'Americas')] },
        regions: { type: 'array', items: { anyOf: [option('eu', 'Europe'), option('us', 'Americas')] } }
      }
    };
    const stored = elicitation(requestedSchema);
    const summary = inboundSummary(stored);
    assert.deepEqual(summary.request, stored.request);
    assert.deepEqual(summary.outcome, stored.outcome);
    assert.equal(summary.truncated, undefined);
  });

  it('still bound a schema: deeper levels are left empty, and a part keeps at most 1,000 values', () => {
    const deep = { type: 'object', properties: { a: { items: { anyOf: [{ x: { y: { z: 1 } } }] } } } };
    const shortened = inboundSummary(elicitation(deep));
    assert.deepEqual(shortened.request.requestedSchema, {
      type: 'object',
      properties: { a: { items: { anyOf: [{ x: {} }] } } }
    });
    assert.equal(shortened.truncated, true);
    // Twelve fields of twelve options of twelve keys: 1,700-odd values, cut to 1,000 at most.
    const keys = Object.fromEntries(Array.from({ length: 12 }, (_, k) => [`k${k}`, 'v'.repeat(200)]));
    const wide = {
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: 12 }, (_, f) => [`f${f}`, { oneOf: Array.from({ length: 12 }, () => keys) }])
      )
    };
    const summary = inboundSummary(elicitation(wide));
    assert.equal(summary.truncated, true);
    assert.ok(JSON.stringify(summary.request).length < 1000 * 220, 'a part stays within its values');
  });
});
