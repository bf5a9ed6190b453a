import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import {
  CreateTaskResultSchema,
  GetTaskResultSchema,
  McpError,
  ListTasksResultSchema
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ManualClock } from '../support/manual-clock.js';
import type { SamplingRunner } from '../../app/receiver/runners.js';
import { SegmentLog } from '../../app/store/segment-log.js';
import { confStoreFactory } from '../../app/store/json-file-store.js';
import { nextEvent, peerServer, startHostWith, tempDir, type InMemoryHostFixture } from '../support/host-fixture.js';

const Loose = z.looseObject({});
const form = {
  mode: 'form',
  message: 'Name?',
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }
};
const sampling = { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 10 };

/** A model-like runner: not resumable, and it never answers until aborted. */
const hangingModel = (): SamplingRunner => ({
  resumable: false,
  run: (_params, context) =>
    new Promise((_resolve, reject) =>
      context.signal.addEventListener('abort', () => reject(context.signal.reason), { once: true })
    )
});

async function mcpCode(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof McpError);
    return error.code;
  }
  return 0;
}

describe('receiver durability', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('expires tasks at their TTL from memory and disk, whatever their status (fake timers)', async () => {
    const clock = new ManualClock();
    const peer = peerServer();
    const fixture = await startHostWith({ a: peer }, { clock });
    cleanups.push(() => fixture.dispose());
    const { host } = fixture;
    const added = nextEvent(host, 'inbox.added');
    const { task } = await peer.server.request(
      { method: 'elicitation/create', params: { ...form, task: { ttl: 10_000 } } },
      CreateTaskResultSchema
    );
    assert.equal(task.pollInterval, 5_000, 'elicitation tasks suggest the documented poll interval');
    const { item } = await added;
    const waiting = mcpCode(peer.server.request({ method: 'tasks/result', params: { taskId: task.taskId } }, Loose));
    const onDisk = () =>
      fs
        .readdirSync(path.join(fixture.dir, 'tasks'))
        .some((file) => fs.readFileSync(path.join(fixture.dir, 'tasks', file), 'utf8').includes(task.taskId));

    await clock.advance(9_999);
    assert.equal(
      (await peer.server.request({ method: 'tasks/get', params: { taskId: task.taskId } }, GetTaskResultSchema)).status,
      'working'
    );
    assert.ok(onDisk());

    const withdrawn = nextEvent(host, 'inbox.removed', (p) => p.id === item.id);
    await clock.advance(1);
    assert.equal((await withdrawn).why, 'withdrawn');
    // The deletion is group-committed within milliseconds; commit it now to look at the disk.
    host.receiver.flush();
    const reloaded = new SegmentLog({
      dir: path.join(fixture.dir, 'tasks'),
      corruptDir: path.join(fixture.dir, 'corrupt'),
      factory: confStoreFactory
    }).load((v) => v);
    assert.equal(reloaded.records.has(task.taskId), false, 'the expired task is deleted from the store');
    assert.equal(await waiting, -32602, 'a tasks/result waiter is told the task expired');
    assert.equal(
      await mcpCode(peer.server.request({ method: 'tasks/get', params: { taskId: task.taskId } }, GetTaskResultSchema)),
      -32602
    );
    assert.ok(host.audit.read({ taskId: task.taskId }).some((entry) => entry.type === 'task.expired'));

    // A completed task expires too.
    const addedSampling = nextEvent(host, 'inbox.added');
    const done = await peer.server.request(
      { method: 'sampling/createMessage', params: { ...sampling, task: { ttl: 5_000 } } },
      CreateTaskResultSchema
    );
    assert.equal(done.task.pollInterval, 1_000);
    const completed = peer.nextNotification('notifications/tasks/status', (p) => p.status === 'completed');
    await host.call('inbox.answer', {
      id: (await addedSampling).item.id,
      answer: { action: 'reply', text: 'ok', model: 'm' }
    });
    await completed;
    await clock.advance(5_000);
    assert.equal(host.receiver.records().length, 0);
    host.receiver.flush();
    const after = new SegmentLog({
      dir: path.join(fixture.dir, 'tasks'),
      corruptDir: path.join(fixture.dir, 'corrupt'),
      factory: confStoreFactory
    }).load((v) => v);
    assert.equal(after.records.size, 0);
  });

  it('pages tasks/list across an expiry without skipping or repeating, all created in one millisecond', async () => {
    const clock = new ManualClock();
    const peer = peerServer();
    const fixture = await startHostWith({ a: peer }, { clock, policy: { listPageSize: 2 } });
    cleanups.push(() => fixture.dispose());
    const ttls = [60_000, 1_000, 60_000, 60_000, 60_000];
    const ids: string[] = [];
    for (const ttl of ttls)
      ids.push(
        (
          await peer.server.request(
            { method: 'elicitation/create', params: { ...form, task: { ttl } } },
            CreateTaskResultSchema
          )
        ).task.taskId
      );
    const first = await peer.server.request({ method: 'tasks/list', params: {} }, ListTasksResultSchema);
    assert.deepEqual(
      first.tasks.map((t) => t.taskId),
      ids.slice(0, 2)
    );
    await clock.advance(1_000); // the cursor's task expires between pages
    const seen = [...first.tasks.map((t) => t.taskId)];
    let cursor = first.nextCursor;
    while (cursor) {
      const page = await peer.server.request({ method: 'tasks/list', params: { cursor } }, ListTasksResultSchema);
      seen.push(...page.tasks.map((t) => t.taskId));
      cursor = page.nextCursor;
    }
    assert.deepEqual(seen, ids);
  });

  it('continues a tasks/list listing after a restart with the cursor from before it, and refuses a forged one', async () => {
    const data = tempDir();
    cleanups.push(() => data.remove());
    const peer1 = peerServer();
    const first = await startHostWith({ a: peer1 }, { dir: data.dir, policy: { listPageSize: 2 } });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        (
          await peer1.server.request(
            { method: 'elicitation/create', params: { ...form, task: { ttl: 3_600_000 } } },
            CreateTaskResultSchema
          )
        ).task.taskId
      );
    const page1 = await peer1.server.request({ method: 'tasks/list', params: {} }, ListTasksResultSchema);
    assert.deepEqual(
      page1.tasks.map((t) => t.taskId),
      ids.slice(0, 2)
    );
    await first.stop();
    assert.equal((fs.statSync(path.join(data.dir, 'tasks', 'cursor-key')).mode & 0o777).toString(8), '600');

    const peer2 = peerServer();
    const second = await startHostWith({ a: peer2 }, { dir: data.dir, policy: { listPageSize: 2 } });
    cleanups.push(() => second.stop());
    const page2 = await peer2.server.request(
      { method: 'tasks/list', params: { cursor: page1.nextCursor! } },
      ListTasksResultSchema
    );
    assert.deepEqual(
      page2.tasks.map((t) => t.taskId),
      ids.slice(2)
    );
    assert.equal(page2.nextCursor, undefined);
    const forged = `${page1.nextCursor!.split('.')[0]}.${'A'.repeat(22)}`;
    assert.equal(
      await mcpCode(peer2.server.request({ method: 'tasks/list', params: { cursor: forged } }, ListTasksResultSchema)),
      -32602
    );
  });

  it('restarts on the same data directory: results, inbox, failed model work, expiry and notifications', async () => {
    const data = tempDir();
    cleanups.push(() => data.remove());
    const clock = new ManualClock();
    const peer1 = peerServer();
    const first = await startHostWith({ a: peer1 }, { dir: data.dir, clock, sampling: () => hangingModel() });

    const formAdded = nextEvent(first.host, 'inbox.added');
    const question = (
      await peer1.server.request(
        { method: 'elicitation/create', params: { ...form, task: { ttl: 3_600_000 } } },
        CreateTaskResultSchema
      )
    ).task;
    await formAdded;
    const modelTask = (
      await peer1.server.request(
        { method: 'sampling/createMessage', params: { ...sampling, task: { ttl: 3_600_000 } } },
        CreateTaskResultSchema
      )
    ).task;
    const shortLived = (
      await peer1.server.request(
        { method: 'elicitation/create', params: { ...form, task: { ttl: 1_000 } } },
        CreateTaskResultSchema
      )
    ).task;
    // A finished task: answer a second question.
    const secondAdded = nextEvent(
      first.host,
      'inbox.added',
      (p) => p.item.id !== question.taskId && p.item.id !== shortLived.taskId
    );
    const answered = (
      await peer1.server.request(
        { method: 'elicitation/create', params: { ...form, task: { ttl: 3_600_000 } } },
        CreateTaskResultSchema
      )
    ).task;
    await secondAdded;
    const completed = peer1.nextNotification('notifications/tasks/status', (p) => p.taskId === answered.taskId);
    await first.host.call('inbox.answer', {
      id: answered.taskId,
      answer: { action: 'accept', content: { name: 'Kept' } }
    });
    await completed;
    await first.stop();

    await clock.advance(2_000);
    const peer2 = peerServer();
    const notified = peer2.nextNotification('notifications/tasks/status', (p) => p.taskId === modelTask.taskId);
    const second: InMemoryHostFixture = await startHostWith(
      { a: peer2 },
      { dir: data.dir, clock, sampling: () => hangingModel() }
    );
    cleanups.push(() => second.stop());

    // The question is back in the inbox under the same id.
    assert.deepEqual(
      second.host.inbox.list().map((item) => item.id),
      [question.taskId]
    );
    // The completed result is served to the same server identity.
    const result = await peer2.server.request({ method: 'tasks/result', params: { taskId: answered.taskId } }, Loose);
    assert.deepEqual(result.content, { name: 'Kept' });
    // The model call that was in flight is failed with a reason, and the server is told.
    const note = await notified;
    assert.equal(note.status, 'failed');
    assert.match(String(note.statusMessage), /restarted/);
    // The short-lived task expired while Taskdesk was down.
    assert.equal(
      await mcpCode(
        peer2.server.request({ method: 'tasks/get', params: { taskId: shortLived.taskId } }, GetTaskResultSchema)
      ),
      -32602
    );
    const listed = await peer2.server.request({ method: 'tasks/list', params: {} }, ListTasksResultSchema);
    assert.deepEqual(
      new Set(listed.tasks.map((t) => t.taskId)),
      new Set([question.taskId, modelTask.taskId, answered.taskId])
    );
    // The restored question can still be answered and its result fetched.
    const waiting = peer2.server.request({ method: 'tasks/result', params: { taskId: question.taskId } }, Loose);
    await second.host.call('inbox.answer', {
      id: question.taskId,
      answer: { action: 'accept', content: { name: 'After restart' } }
    });
    assert.deepEqual((await waiting).content, { name: 'After restart' });
  });

  it('moves a corrupt task file and a corrupt server list aside with a clear message, and still starts', async () => {
    const data = tempDir();
    cleanups.push(() => data.remove());
    const peer1 = peerServer();
    const first = await startHostWith({ a: peer1 }, { dir: data.dir });
    const good = (
      await peer1.server.request(
        { method: 'elicitation/create', params: { ...form, task: { ttl: 3_600_000 } } },
        CreateTaskResultSchema
      )
    ).task;
    await first.stop();
    fs.writeFileSync(path.join(data.dir, 'tasks', 'seg-000000009990.json'), '{"schemaVersion":1,"entries":[');
    fs.writeFileSync(
      path.join(data.dir, 'tasks', 'seg-000000009991.json'),
      JSON.stringify({
        schemaVersion: 1,
        entries: [['wrongShape01', { schemaVersion: 1, task: { taskId: 'wrongShape01' } }]]
      })
    );
    fs.writeFileSync(path.join(data.dir, 'servers.json'), 'not json at all');

    const peer2 = peerServer();
    const second = await startHostWith({ a: peer2 }, { dir: data.dir });
    cleanups.push(() => second.stop());
    const warnings = second.host.warnings;
    assert.equal(warnings.length, 3, JSON.stringify(warnings));
    assert.ok(warnings.some((w) => /seg-000000009990/.test(w.message)));
    assert.ok(warnings.some((w) => /wrongShape01/.test(w.message)));
    assert.ok(warnings.some((w) => /server list/.test(w.message)));
    for (const warning of warnings)
      assert.ok(warning.movedTo && fs.existsSync(warning.movedTo), `${warning.movedTo} keeps the bytes`);
    assert.equal(
      second.host.audit.read({ limit: 100 }).filter((entry) => entry.type === 'store.warning').length,
      3,
      'each is in the audit log'
    );
    assert.equal(
      (await peer2.server.request({ method: 'tasks/get', params: { taskId: good.taskId } }, GetTaskResultSchema))
        .status,
      'working'
    );
  });
});

describe('receiver when the disk refuses writes', () => {
  it('shows servers only what is on disk, answers waiters with −32603, and retries until the write lands', async () => {
    let failing = false;
    const factory: typeof confStoreFactory = (options) => {
      const store = confStoreFactory(options);
      return new Proxy(store, {
        // conf keeps private fields: read through the target itself, not the proxy.
        get: (target, key) => Reflect.get(target, key, target),
        set(target, key, value) {
          if (key === 'store' && failing) throw new Error('ENOSPC: no space left on device');
          return Reflect.set(target, key, value);
        }
      });
    };
    const clock = new ManualClock();
    const peer = peerServer();
    // Without the journal every commit goes through the store factory, where the fault is injected.
    const fixture = await startHostWith({ a: peer }, { clock, storeFactory: factory, storeJournal: false });
    try {
      const { host } = fixture;
      const added = nextEvent(host, 'inbox.added');
      const { task } = await peer.server.request(
        { method: 'elicitation/create', params: { ...form, task: { ttl: 60_000 } } },
        CreateTaskResultSchema
      );
      await added;
      const waiting = peer.server.request({ method: 'tasks/result', params: { taskId: task.taskId } }, Loose).then(
        () => 0,
        (error: McpError) => error.code
      );
      failing = true;
      await host.call('inbox.answer', { id: task.taskId, answer: { action: 'accept', content: { name: 'Lost?' } } });
      host.receiver.flush();
      assert.equal(await waiting, -32603, 'the waiter is told the result could not be stored');
      assert.equal(
        (await peer.server.request({ method: 'tasks/get', params: { taskId: task.taskId } }, GetTaskResultSchema))
          .status,
        'working',
        'an unstored completion is not shown'
      );
      assert.ok(host.audit.read({ taskId: task.taskId }).some((entry) => entry.type === 'store.write-failed'));

      const refused = await mcpCode(
        peer.server.request({ method: 'elicitation/create', params: { ...form, task: {} } }, CreateTaskResultSchema)
      );
      assert.equal(refused, -32603, 'a task that cannot be stored is not acknowledged');
      assert.equal(
        (await peer.server.request({ method: 'tasks/list', params: {} }, ListTasksResultSchema)).tasks.length,
        1
      );

      failing = false;
      const completed = peer.nextNotification(
        'notifications/tasks/status',
        (p) => p.taskId === task.taskId && p.status === 'completed'
      );
      await clock.advance(5_000);
      host.receiver.flush();
      await completed;
      const result = await peer.server.request({ method: 'tasks/result', params: { taskId: task.taskId } }, Loose);
      assert.deepEqual(result.content, { name: 'Lost?' });
    } finally {
      await fixture.dispose();
    }
  });
});
