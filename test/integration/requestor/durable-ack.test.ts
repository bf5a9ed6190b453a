import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { systemClock } from '../../../app/core/clock.js';
import { OutboundTasks } from '../../../app/requestor/outbound-tasks.js';
import type { OutboundTaskDocument } from '../../../app/requestor/outbound-task-store.js';
import { confStoreFactory } from '../../../app/store/json-file-store.js';
import type { JournalSync } from '../../../app/store/journal.js';
import { SegmentLog } from '../../../app/store/segment-log.js';
import { connectInMemory, countingOutboundLog, tempTaskDir } from '../../support/requestor-harness.js';
import { createTaskToolServer } from '../../support/task-tool-server.js';

test('a call that became a task is answered only once the task is durable: what the caller is told survives a crash', async () => {
  const temp = tempTaskDir();
  // The journal's syncs wait until the test lets them go.
  const held: Array<() => void> = [];
  const journalSync: JournalSync = (fd, callback) => held.push(() => fs.fdatasync(fd, callback));
  const logOptions = {
    dir: path.join(temp.dir.dir, 'log'),
    corruptDir: path.join(temp.root, 'corrupt'),
    factory: confStoreFactory
  };
  const log = new SegmentLog<OutboundTaskDocument>({ ...logOptions, journalSync });
  const manager = new OutboundTasks({ dir: temp.dir, log, clock: systemClock });
  const { server, store } = createTaskToolServer({ clock: systemClock, pollInterval: 60_000 });
  try {
    const { client } = await connectInMemory(server, systemClock);
    manager.attach('srv', 'Task Server', client);
    let answered = false;
    const call = manager.callTool('srv', 'work-required', { durationMs: 600_000, label: 'kept' }).then((outcome) => {
      answered = true;
      return outcome;
    });
    // The server has made the task and the requestor has written it; its sync has not finished.
    while (held.length === 0) await new Promise((resolve) => setImmediate(resolve));
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(answered, false, 'not answered before its record is durable');
    for (const release of held.splice(0)) release();
    const outcome = await call;
    assert.equal(outcome.type, 'task');
    // What a crash now leaves on disk (read by a fresh log over a copy, as a restart would) holds the task.
    const copy = path.join(temp.root, 'after-crash');
    fs.cpSync(logOptions.dir, copy, { recursive: true });
    const reloaded = new SegmentLog<OutboundTaskDocument>({ ...logOptions, dir: copy }).load(
      (value) => value as OutboundTaskDocument
    );
    const id = outcome.type === 'task' ? outcome.task.outboundId : '';
    assert.equal(reloaded.records.get(id)?.taskId, outcome.type === 'task' ? outcome.task.taskId : undefined);
  } finally {
    for (const release of held.splice(0)) release();
    manager.close();
    store.close();
    temp.cleanup();
  }
});

test('a followed task’s later changes (its completion) wait for the log’s next commit, and are on disk after a close', async () => {
  const temp = tempTaskDir();
  const { log, syncs, reload } = countingOutboundLog(temp);
  const manager = new OutboundTasks({ dir: temp.dir, log, clock: systemClock });
  const { server, store } = createTaskToolServer({ clock: systemClock, pollInterval: 10 });
  let closed = false;
  // The follower's timers do not hold the process open (a host's must not keep it from exiting).
  const alive = setInterval(() => undefined, 1_000);
  try {
    const { client } = await connectInMemory(server, systemClock);
    manager.attach('srv', 'Task Server', client);
    const completed = new Promise<string>((resolve) =>
      manager.on((event) => {
        if (event.type === 'changed' && event.task.state === 'completed') resolve(event.task.outboundId);
      })
    );
    const outcome = await manager.callTool('srv', 'work-required', { durationMs: 30, label: 'done soon' });
    assert.equal(outcome.type, 'task');
    const afterCreation = syncs();
    assert.ok(afterCreation >= 1, 'the new task was committed before its call returned');
    const id = await completed;
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(syncs(), afterCreation, 'its completion did not force a commit of its own');
    manager.close();
    closed = true;
    assert.equal(reload().get(id)?.state, 'completed');
  } finally {
    clearInterval(alive);
    if (!closed) manager.close();
    store.close();
    temp.cleanup();
  }
});
