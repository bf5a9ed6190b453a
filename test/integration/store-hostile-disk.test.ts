import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { CreateTaskResultSchema, GetTaskResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ManualClock } from '../support/manual-clock.js';
import { createHost, type Host } from '../../app/host/host.js';
import { confStoreFactory, type JsonFileStore, type JsonFileStoreFactory } from '../../app/store/json-file-store.js';
import { SegmentLog } from '../../app/store/segment-log.js';
import { nextEvent, peerServer, startHostWith, tempDir } from '../support/host-fixture.js';

const form = (message = 'Name?') => ({
  mode: 'form',
  message,
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }
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

/**
 * conf writes documents through `atomically`, which does not look at how many bytes a write took:
 * on a full disk the file renamed into place is cut where the space ran out, without an error.
 * This factory makes every document write do that while `state.short` is set.
 */
function shortWritingFactory(state: { short: boolean }): JsonFileStoreFactory {
  return (options) =>
    new Proxy(confStoreFactory(options), {
      get: (target, key) => Reflect.get(target, key, target) as unknown,
      set(target: JsonFileStore, key, value) {
        const done = Reflect.set(target, key, value);
        if (key === 'store' && state.short) fs.truncateSync(target.path, Math.floor(fs.statSync(target.path).size / 2));
        return done;
      }
    });
}

/** A stop that may be called again (by a cleanup after the test stopped the host itself). */
function once(stop: () => Promise<void>): () => Promise<void> {
  let stopped: Promise<void> | undefined;
  return () => (stopped ??= stop());
}

/**
 * Resolves with the next warning that matches (store warnings are host events). The store tries a
 * failed checkpoint again from a timer that does not hold the process open, so the wait does.
 */
async function nextWarning(host: Host, pattern: RegExp): Promise<{ message: string }> {
  const hold = setInterval(() => undefined, 1_000);
  try {
    return await nextEvent(host, 'store.warning', (w) => pattern.test(w.message));
  } finally {
    clearInterval(hold);
  }
}

const storeProblem = /could not (write a checkpoint|store a change|start its task journal)/;

describe('task store on a failing disk, through the host', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('warns (host warning and audit entry) while checkpoints come up short, loses no task, and clears the warning when they land again', async () => {
    const data = tempDir();
    cleanups.push(() => data.remove());
    const state = { short: false };
    const peer = peerServer();
    const first = await startHostWith({ a: peer }, { dir: data.dir, storeFactory: shortWritingFactory(state) });
    const stopFirst = once(() => first.stop());
    cleanups.push(stopFirst);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push(
        (
          await peer.server.request(
            { method: 'elicitation/create', params: { ...form(), task: {} } },
            CreateTaskResultSchema
          )
        ).task.taskId
      );
    state.short = true;
    first.host.receiver.flush();
    const warning = first.host.warnings.find((w) => /could not write a checkpoint/.test(w.message));
    assert.ok(warning, JSON.stringify(first.host.warnings));
    assert.match(warning.message, /came up short/);
    first.host.audit.flush();
    assert.ok(
      first.host.audit
        .read({ limit: 100 })
        .some((e) => e.type === 'store.warning' && /checkpoint/.test(String(e.detail?.message))),
      'in the audit log'
    );
    // Tasks are still acknowledged: the journal holds them.
    ids.push(
      (
        await peer.server.request(
          { method: 'elicitation/create', params: { ...form(), task: {} } },
          CreateTaskResultSchema
        )
      ).task.taskId
    );
    const recovered = nextWarning(first.host, /writes its task store again/);
    state.short = false;
    await recovered;
    assert.deepEqual(
      first.host.warnings.filter((w) => storeProblem.test(w.message)),
      [],
      'the warning is cleared'
    );
    first.host.audit.flush();
    assert.ok(first.host.audit.read({ limit: 100 }).some((e) => e.type === 'store.recovered'));
    await stopFirst();

    const peer2 = peerServer();
    const second = await startHostWith({ a: peer2 }, { dir: data.dir });
    cleanups.push(() => second.stop());
    assert.deepEqual(second.host.warnings, []);
    for (const taskId of ids)
      assert.equal(
        (await peer2.server.request({ method: 'tasks/get', params: { taskId } }, GetTaskResultSchema)).status,
        'working'
      );
  });

  it('refuses tasks (−32603) with a host warning while documents come up short, and reports the recovery', async () => {
    const data = tempDir();
    cleanups.push(() => data.remove());
    const state = { short: false };
    const peer = peerServer();
    const fixture = await startHostWith(
      { a: peer },
      { dir: data.dir, clock: new ManualClock(), storeFactory: shortWritingFactory(state), storeJournal: false }
    );
    cleanups.push(() => fixture.stop());
    const { host } = fixture;
    state.short = true;
    const refused = await mcpCode(
      peer.server.request({ method: 'elicitation/create', params: { ...form(), task: {} } }, CreateTaskResultSchema)
    );
    assert.equal(refused, -32603);
    assert.ok(host.warnings.some((w) => /could not store a change.*came up short/.test(w.message)));
    const recovered = nextWarning(host, /writes its task store again/);
    state.short = false;
    const { task } = await peer.server.request(
      { method: 'elicitation/create', params: { ...form(), task: {} } },
      CreateTaskResultSchema
    );
    await recovered;
    assert.deepEqual(host.warnings, []);
    host.receiver.flush();
    const reloaded = new SegmentLog({
      dir: path.join(data.dir, 'tasks'),
      corruptDir: path.join(data.dir, 'corrupt'),
      factory: confStoreFactory,
      journal: false
    }).load((v) => v);
    assert.deepEqual([...reloaded.records.keys()], [task.taskId], 'only the acknowledged task is stored');
    assert.deepEqual(reloaded.quarantined, [], 'and no short document is in place');
  });

  it('keeps a task whose newer version is valid over an older invalid copy, start after start', async () => {
    const data = tempDir();
    cleanups.push(() => data.remove());
    const peer = peerServer();
    const first = await startHostWith({ a: peer }, { dir: data.dir });
    const added = nextEvent(first.host, 'inbox.added');
    const { task } = await peer.server.request(
      { method: 'elicitation/create', params: { ...form(), task: {} } },
      CreateTaskResultSchema
    );
    // A completed task: nothing touches it at a start, so only the store decides whether it stays.
    const completed = peer.nextNotification('notifications/tasks/status', (p) => p.status === 'completed');
    await first.host.call('inbox.answer', {
      id: (await added).item.id,
      answer: { action: 'accept', content: { name: 'kept' } }
    });
    await completed;
    await first.stop();
    // Its newer version journalled (what a run that died before its checkpoint leaves).
    const tasks = path.join(data.dir, 'tasks');
    const live = new SegmentLog<unknown>({
      dir: tasks,
      corruptDir: path.join(data.dir, 'corrupt'),
      factory: confStoreFactory,
      checkpointMs: 60_000
    });
    const record = live.load((v) => v).records.get(task.taskId) as { task: { statusMessage?: string } };
    await live.put(task.taskId, { ...record, task: { ...record.task, statusMessage: 'newer' } });
    const copy = tempDir();
    cleanups.push(() => copy.remove());
    const image = copy.dir;
    fs.cpSync(data.dir, image, { recursive: true });
    live.close();
    // An older segment holds an invalid copy of it.
    fs.writeFileSync(
      path.join(image, 'tasks', 'seg-000000000000.json'),
      JSON.stringify({
        schemaVersion: 1,
        entries: [[task.taskId, { schemaVersion: 1, task: { taskId: task.taskId } }]]
      })
    );
    const warnings: unknown[] = [];
    for (let start = 1; start <= 3; start++) {
      const server = peerServer();
      const host = await startHostWith({ a: server }, { dir: image });
      try {
        const got = await server.server.request(
          { method: 'tasks/get', params: { taskId: task.taskId } },
          GetTaskResultSchema
        );
        assert.equal(got.status, 'completed', `start ${start} has the task`);
        assert.equal(got.statusMessage, 'newer', `start ${start} has its newer version`);
        warnings.push(...host.host.warnings);
      } finally {
        await host.stop();
      }
    }
    assert.deepEqual(warnings, [], 'the superseded copy is no loss to report');
  });

  for (const name of ['tasks', 'outbound', 'corrupt']) {
    it(`does not start when ${name}/ is a file, and says which path to move`, () => {
      const data = tempDir();
      cleanups.push(() => data.remove());
      fs.writeFileSync(path.join(data.dir, name), 'not a directory');
      assert.throws(
        () => createHost({ dataDir: data.dir, autoConnect: false }),
        (error: Error) => {
          assert.match(error.message, /is a file where Taskdesk keeps a directory/);
          assert.ok(error.message.includes(path.join(data.dir, name)), error.message);
          return true;
        }
      );
      assert.equal(fs.readFileSync(path.join(data.dir, name), 'utf8'), 'not a directory', 'the file is left alone');
    });
  }

  it('warns (host warning and audit entry) when the task directory is read-only, refuses tasks, and recovers when it is writable', async () => {
    const data = tempDir();
    cleanups.push(() => data.remove());
    const peer = peerServer();
    const first = await startHostWith({ a: peer }, { dir: data.dir });
    const { task } = await peer.server.request(
      { method: 'elicitation/create', params: { ...form(), task: {} } },
      CreateTaskResultSchema
    );
    await first.stop();
    const tasks = path.join(data.dir, 'tasks');
    const writable = makeReadOnly(tasks);
    cleanups.push(writable);
    const peer2 = peerServer();
    const second = await startHostWith({ a: peer2 }, { dir: data.dir });
    const stopSecond = once(() => second.stop());
    cleanups.push(stopSecond);
    const { host } = second;
    const atStart = host.warnings.find((w) => /could not start its task journal/.test(w.message));
    assert.ok(atStart, JSON.stringify(host.warnings));
    host.audit.flush();
    assert.ok(
      host.audit
        .read({ limit: 100 })
        .some((e) => e.type === 'store.warning' && /journal/.test(String(e.detail?.message)))
    );
    assert.equal(
      (await peer2.server.request({ method: 'tasks/get', params: { taskId: task.taskId } }, GetTaskResultSchema))
        .status,
      'working',
      'what is stored is served'
    );
    const refused = await mcpCode(
      peer2.server.request({ method: 'elicitation/create', params: { ...form(), task: {} } }, CreateTaskResultSchema)
    );
    assert.equal(refused, -32603);
    assert.ok(host.warnings.some((w) => /could not store a change/.test(w.message)));
    writable();
    const recovered = nextWarning(host, /writes its task store again/);
    const { task: later } = await peer2.server.request(
      { method: 'elicitation/create', params: { ...form(), task: {} } },
      CreateTaskResultSchema
    );
    await recovered;
    assert.deepEqual(
      host.warnings.filter((w) => storeProblem.test(w.message)),
      []
    );
    await stopSecond();
    const peer3 = peerServer();
    const third = await startHostWith({ a: peer3 }, { dir: data.dir });
    cleanups.push(() => third.stop());
    for (const taskId of [task.taskId, later.taskId])
      assert.equal(
        (await peer3.server.request({ method: 'tasks/get', params: { taskId } }, GetTaskResultSchema)).status,
        'working'
      );
  });
});

/**
 * Makes `dir` read-only for this process and returns what makes it writable again (idempotent).
 * Root ignores file modes, so as root the directory is bind-mounted read-only over itself.
 */
function makeReadOnly(dir: string): () => void {
  if (process.getuid?.() !== 0) {
    const files = fs.readdirSync(dir).map((file) => path.join(dir, file));
    const modes = new Map([dir, ...files].map((file) => [file, fs.statSync(file).mode]));
    for (const file of files) fs.chmodSync(file, 0o444);
    fs.chmodSync(dir, 0o555);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      for (const [file, mode] of modes) fs.chmodSync(file, mode);
    };
  }
  run('mount', ['--bind', dir, dir]);
  run('mount', ['-o', 'remount,bind,ro', dir]);
  let done = false;
  return () => {
    if (done) return;
    done = true;
    run('umount', [dir]);
  };
}

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr || result.error?.message}`);
}

/** Whether a small tmpfs can be mounted here (root, with the mount capability). */
function tmpfsAvailable(): boolean {
  if (process.getuid?.() !== 0) return false;
  const probe = fs.mkdtempSync(path.join(os.tmpdir(), 'taskdesk-tmpfs-probe-'));
  try {
    if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe]).status !== 0) return false;
    spawnSync('umount', [probe]);
    return true;
  } finally {
    fs.rmSync(probe, { recursive: true, force: true });
  }
}

// A real small file system, where one can be mounted: the injected faults above run everywhere.
if (tmpfsAvailable()) {
  describe('task store on a real file system that fills up (tmpfs)', () => {
    it('acknowledges only what it keeps, refuses the rest (−32603), loses nothing across a restart, and recovers when space is freed', async () => {
      const mount = fs.mkdtempSync(path.join(os.tmpdir(), 'taskdesk-tmpfs-'));
      // Room for the host's four journals (tasks, history, conversations, outbound; 4 MiB each,
      // written at start) and a few tasks: the filler below then leaves only 100 KiB.
      run('mount', ['-t', 'tmpfs', '-o', 'size=32m', 'tmpfs', mount]);
      const stops: Array<() => Promise<void>> = [];
      try {
        const dataDir = path.join(mount, 'data');
        const policy = { maxActiveTasksPerServer: 10_000, operationsPerSecond: 100_000 };
        const peer = peerServer();
        const first = await startHostWith({ a: peer }, { dir: dataDir, policy });
        const stopFirst = once(() => first.stop());
        stops.push(stopFirst);
        // The disk is all but full: 100 KiB left beside the journal's first megabytes.
        const { bavail, bsize } = fs.statfsSync(mount);
        const filler = path.join(mount, 'filler');
        fs.writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - 100 * 1024)));
        const message = 'm'.repeat(16 * 1024);
        const acknowledged: string[] = [];
        let refused = 0;
        const answered: string[] = [];
        for (let i = 0; i < 600 && refused < 20; i++) {
          const added = nextEvent(first.host, 'inbox.added');
          try {
            const { task } = await peer.server.request(
              { method: 'elicitation/create', params: { ...form(message), task: {} } },
              CreateTaskResultSchema
            );
            acknowledged.push(task.taskId);
            const { item } = await added;
            if (answered.length < 5) {
              // A completion, announced once stored.
              const completed = peer.nextNotification(
                'notifications/tasks/status',
                (p) => p.taskId === task.taskId && p.status === 'completed'
              );
              await first.host.call('inbox.answer', {
                id: item.id,
                answer: { action: 'accept', content: { name: 'n' } }
              });
              await completed;
              answered.push(task.taskId);
            }
          } catch (error) {
            assert.ok(error instanceof McpError && error.code === -32603, String(error));
            refused++;
          }
        }
        assert.equal(refused, 20, `refused once the disk was full (${acknowledged.length} acknowledged first)`);
        // Both are said; the checkpoint is written in the background, so its warning may come a
        // moment after the refusals (waited for as its event, when not said yet).
        for (const said of [/could not write a checkpoint/, /could not store a change/])
          if (!first.host.warnings.some((w) => said.test(w.message))) await nextWarning(first.host, said);
        // Space is freed: the store recovers on its own.
        const recovered = nextWarning(first.host, /writes its task store again/);
        fs.rmSync(filler);
        await recovered;
        await stopFirst();

        const peer2 = peerServer();
        const second = await startHostWith({ a: peer2 }, { dir: dataDir, policy });
        stops.push(once(() => second.stop()));
        {
          assert.deepEqual(second.host.warnings, [], 'nothing was damaged');
          for (const taskId of acknowledged) {
            const got = await peer2.server.request({ method: 'tasks/get', params: { taskId } }, GetTaskResultSchema);
            assert.equal(got.status, answered.includes(taskId) ? 'completed' : 'working', taskId);
          }
        }
      } finally {
        for (const stop of stops) await stop();
        // Lazily: a journal whose sync was running at the stop is closed once that sync ends.
        run('umount', ['-l', mount]);
        fs.rmSync(mount, { recursive: true, force: true });
      }
    });
  });
} else {
  console.log('# no tmpfs can be mounted here (not root): the real small file system is not tried');
}
