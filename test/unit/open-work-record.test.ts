import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import type { PlainCallView } from '../../app/contract/plain-calls.js';
import { OPEN_WORK_DIR, OpenWorkRecord } from '../../app/host/open-work-record.js';
import { notFinishedEntry } from '../../app/history/not-finished-entry.js';
import type { WorkContext } from '../../app/receiver/runners.js';
import { tempDir } from '../support/host-fixture.js';

function call(callId: string, state: PlainCallView['state'] = 'running', toolName = 'wait'): PlainCallView {
  return {
    callId,
    serverId: 'a',
    serverName: 'Server a',
    toolName,
    startedAt: '2026-12-04T10:00:00.000Z',
    state
  };
}

function context(): WorkContext {
  return {
    serverId: 'b',
    serverName: 'Server b',
    askedAt: '2026-12-04T10:01:00.000Z',
    signal: new AbortController().signal
  };
}

/** How long the record gathers changes before it writes them. */
const GATHER_MS = 100;

/** The record's time runs only when the test says: each gathering is cut short by a tick. */
function fakeTime(t: TestContext): void {
  t.mock.timers.enable({ apis: ['setTimeout'] });
}

/** Lets the gathering time pass, and waits for what was gathered to land. */
async function land(t: TestContext, record: OpenWorkRecord): Promise<void> {
  const landed = record.landed();
  t.mock.timers.tick(GATHER_MS);
  await landed;
}

interface Gate {
  promise: Promise<void>;
  resolve: () => void;
}

function gate(): Gate {
  let resolve!: () => void;
  const promise = new Promise<void>((settle) => (resolve = settle));
  return { promise, resolve };
}

function files(dir: string): string[] {
  try {
    return fs.readdirSync(path.join(dir, OPEN_WORK_DIR));
  } catch {
    return [];
  }
}

describe('the record of open plain work', () => {
  it('keeps what started and has not ended, for the start after an unclean stop, until it is removed', async (t) => {
    fakeTime(t);
    const data = tempDir();
    try {
      const record = new OpenWorkRecord(data.dir, 'run-1');
      record.callChanged(call('c1'));
      record.callChanged(call('c2', 'running', 'x'.repeat(500)));
      const question = record.requestStarted(
        'elicitation',
        { message: `Ship the release?\n${'more '.repeat(100)}` },
        context()
      );
      const other = record.requestStarted('sampling', { messages: [] }, context());
      // Progress of a running call is no new start.
      record.callChanged({ ...call('c1'), progress: { progress: 1, at: '2026-12-04T10:00:01.000Z' } });
      await land(t, record);
      record.callChanged(call('c1', 'completed'));
      record.requestEnded(other);
      await land(t, record);

      // Its run still runs: left alone.
      assert.deepEqual(OpenWorkRecord.takeLeft(data.dir, new Set(['run-1'])), { work: [], problems: [], files: [] });
      assert.deepEqual(files(data.dir), ['run-1.jsonl']);

      const left = OpenWorkRecord.takeLeft(data.dir, new Set(), Date.parse('2026-12-04T10:05:00.000Z'));
      assert.deepEqual(left.problems, []);
      assert.equal(left.work.length, 2, JSON.stringify(left.work));
      const [c2, asked] = left.work;
      assert.equal(c2?.kind, 'tool-call');
      assert.equal(c2?.serverName, 'Server a');
      assert.equal(c2?.startedAt, '2026-12-04T10:00:00.000Z');
      // Names are cut short, and a question is quoted at most 80 characters.
      assert.equal(c2?.toolName?.length, 100);
      assert.ok(c2?.toolName?.endsWith('…'));
      assert.equal(asked?.kind, 'elicitation');
      assert.equal(asked?.serverName, 'Server b');
      assert.equal(asked?.startedAt, '2026-12-04T10:01:00.000Z');
      assert.match(asked?.question ?? '', /^Ship the release\? more more .*…$/);
      assert.ok((asked?.question?.length ?? 0) <= 80);
      // Last seen running: the later of the marker's time and the record's last write.
      assert.ok(Date.parse(asked.lastSeenAt) >= Date.parse('2026-12-04T10:05:00.000Z'));
      // Kept until what it held is kept elsewhere (History, on disk); read again, it is the same work.
      assert.deepEqual(left.files, [path.join(data.dir, OPEN_WORK_DIR, 'run-1.jsonl')]);
      assert.deepEqual(files(data.dir), ['run-1.jsonl']);
      const again = OpenWorkRecord.takeLeft(data.dir, new Set(), Date.parse('2026-12-04T10:05:00.000Z'));
      assert.deepEqual(
        again.work.map((work) => work.key),
        left.work.map((work) => work.key)
      );
      assert.equal(new Set(left.work.map((work) => work.key)).size, 2);
      OpenWorkRecord.removeTaken(left.files);
      assert.deepEqual(files(data.dir), []);
      assert.deepEqual(OpenWorkRecord.takeLeft(data.dir, new Set()), { work: [], problems: [], files: [] });
      record.requestEnded(question);
      await record.close();
    } finally {
      data.remove();
    }
  });

  it('leaves nothing behind at a clean close, a write under way included', async (t) => {
    fakeTime(t);
    const data = tempDir();
    try {
      // The record's writes wait while `held` does (the second of them is held).
      let held: Gate | undefined;
      const writing = gate();
      const openFile = async (file: string): Promise<fs.promises.FileHandle> => {
        const handle = await fs.promises.open(file, 'a');
        return new Proxy(handle, {
          get(target, key) {
            if (key === 'write')
              return async (text: string) => {
                if (held) {
                  writing.resolve();
                  await held.promise;
                }
                return target.write(text);
              };
            const value: unknown = Reflect.get(target, key, target);
            return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
          }
        });
      };
      const record = new OpenWorkRecord(data.dir, 'run-1', undefined, { openFile });
      record.callChanged(call('c1'));
      await land(t, record);
      assert.deepEqual(files(data.dir), ['run-1.jsonl']);
      held = gate();
      record.callChanged(call('c2'));
      t.mock.timers.tick(GATHER_MS);
      await writing.promise;
      // Closed while the write of c2 is under way: the close waits for it, then removes the file.
      let closed = false;
      const closing = record.close().then(() => (closed = true));
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(closed, false, 'the close waits for the write under way');
      held.resolve();
      await closing;
      assert.deepEqual(files(data.dir), []);
      // Closed: nothing more is recorded.
      record.callChanged(call('c3'));
      await land(t, record);
      assert.deepEqual(files(data.dir), []);
    } finally {
      data.remove();
    }
  });

  it("keeps a call's arguments up to 4 KiB of JSON, and its History entry says so plainly when they were not kept", async (t) => {
    fakeTime(t);
    const data = tempDir();
    try {
      const record = new OpenWorkRecord(data.dir, 'run-1');
      record.maskWith(() => ['sk-live-0123456789abcdef']);
      record.callChanged(call('small'), { duration: 600, steps: 5, key: 'sk-live-0123456789abcdef' });
      record.callChanged(call('large', 'running', 'large'), { text: 'x'.repeat(5000) });
      await land(t, record);
      const dir = path.join(data.dir, OPEN_WORK_DIR);
      // A record of an earlier version, which kept no arguments.
      fs.writeFileSync(
        path.join(dir, 'earlier.jsonl'),
        `${JSON.stringify({ start: { id: 1, kind: 'tool-call', serverId: 'a', serverName: 'Server a', toolName: 'old', startedAt: '2026-12-04T09:00:00.000Z' } })}\n`
      );
      const left = OpenWorkRecord.takeLeft(data.dir, new Set());
      assert.deepEqual(left.problems, []);
      const byTool = new Map(left.work.map((work) => [work.toolName, notFinishedEntry(work)]));
      assert.deepEqual(byTool.get('wait')?.request, {
        name: 'wait',
        arguments: { duration: 600, steps: 5, key: '••••' }
      });
      assert.deepEqual(byTool.get('large')?.request, {
        name: 'large',
        argumentsNotKept: 'they were larger than the 4 KiB of JSON Taskdesk keeps of a running call'
      });
      assert.deepEqual(byTool.get('old')?.request, {
        name: 'old',
        argumentsNotKept: 'the Taskdesk that ran it did not record them'
      });
      await record.close();
    } finally {
      data.remove();
    }
  });

  it('stays small: at most 200 open, written anew once ends pile up', async (t) => {
    fakeTime(t);
    const data = tempDir();
    try {
      let written = 0;
      const record = new OpenWorkRecord(data.dir, 'run-1', () => written++);
      for (let index = 0; index < 250; index++) record.callChanged(call(`open-${index}`));
      // Starts past the bound are not recorded, nor their ends.
      for (let index = 0; index < 250; index++)
        if (index < 195 || index >= 200) record.callChanged(call(`open-${index}`, 'completed'));
      await land(t, record);
      // Many calls that start and end, each batch in a write of its own: far more than the file may hold.
      for (let index = 0; index < 2_000; index++) {
        record.callChanged(call(`c-${index % 10}`));
        if (index % 10 === 9) {
          await land(t, record);
          for (let done = 0; done < 10; done++) record.callChanged(call(`c-${done}`, 'completed'));
        }
      }
      await land(t, record);
      assert.ok(written > 100);
      const file = path.join(data.dir, OPEN_WORK_DIR, 'run-1.jsonl');
      assert.ok(fs.statSync(file).size < 128 * 1024, `${fs.statSync(file).size} bytes`);
      const left = OpenWorkRecord.takeLeft(data.dir, new Set());
      assert.deepEqual(left.problems, []);
      assert.equal(left.work.length, 5, JSON.stringify(left.work.map((work) => work.toolName)));
      await record.close();
    } finally {
      data.remove();
    }
  });

  it('ignores a corrupt or oversized record with a problem to warn of, and a line a crash cut short without one', () => {
    const data = tempDir();
    try {
      const dir = path.join(data.dir, OPEN_WORK_DIR);
      fs.mkdirSync(dir);
      const start = (id: number) =>
        JSON.stringify({
          start: {
            id,
            kind: 'tool-call',
            serverId: 'a',
            serverName: 'A',
            toolName: 't',
            startedAt: '2026-12-04T10:00:00.000Z'
          }
        });
      fs.writeFileSync(path.join(dir, 'torn.jsonl'), `${start(1)}\n${start(2)}\n{"end":2}\n{"sta`);
      fs.writeFileSync(path.join(dir, 'garbage.jsonl'), `${start(1)}\nnot json\n`);
      fs.writeFileSync(path.join(dir, 'zeros.jsonl'), Buffer.alloc(4096));
      fs.writeFileSync(path.join(dir, 'wrong.jsonl'), `${JSON.stringify({ start: { id: 1, kind: 'tool-call' } })}\n`);
      fs.writeFileSync(path.join(dir, 'huge.jsonl'), `${start(1)}\n`.repeat(20_000));
      // A compaction's temporary file of a run that stopped in the middle of one.
      fs.writeFileSync(path.join(dir, 'torn.jsonl.tmp'), 'half');
      const left = OpenWorkRecord.takeLeft(data.dir, new Set());
      assert.equal(left.work.length, 1);
      assert.equal(left.work[0]?.serverName, 'A');
      assert.equal(left.problems.length, 4, JSON.stringify(left.problems));
      assert.ok(left.problems.some((problem) => /larger than/.test(problem)));
      assert.deepEqual(fs.readdirSync(dir), ['torn.jsonl'], 'what cannot be read is removed at once');
    } finally {
      data.remove();
    }
  });

  it('stops recording, and removes what it wrote, when it cannot write', async (t) => {
    fakeTime(t);
    const data = tempDir();
    try {
      // A file where the directory should be: nothing can be written under it.
      fs.writeFileSync(path.join(data.dir, OPEN_WORK_DIR), '');
      const record = new OpenWorkRecord(data.dir, 'run-1');
      record.callChanged(call('c1'));
      await land(t, record);
      record.callChanged(call('c2'));
      await land(t, record);
      await record.close();
      assert.equal(fs.statSync(path.join(data.dir, OPEN_WORK_DIR)).size, 0);
    } finally {
      data.remove();
    }
  });

  it("leaves alone a record whose run's process is alive and wrote it lately, though its marker is gone", () => {
    const data = tempDir();
    try {
      const dir = path.join(data.dir, OPEN_WORK_DIR);
      fs.mkdirSync(dir);
      const line = `${JSON.stringify({
        start: {
          id: 1,
          kind: 'tool-call',
          serverId: 'a',
          serverName: 'A',
          toolName: 't',
          startedAt: '2026-12-04T10:00:00.000Z'
        }
      })}\n`;
      // The process that started this test runs: a Taskdesk of its id could be running still.
      const live = path.join(dir, `${process.ppid}-aaaaaaaaaaaa.jsonl`);
      fs.writeFileSync(live, line);
      fs.writeFileSync(`${live}.tmp`, line);
      assert.deepEqual(OpenWorkRecord.takeLeft(data.dir, new Set()), { work: [], problems: [], files: [] });
      assert.deepEqual(fs.readdirSync(dir).sort(), [path.basename(live), `${path.basename(live)}.tmp`]);
      // Untouched past the stale limit (five minutes): that run stopped (or its id is used again).
      const old = new Date(Date.now() - 6 * 60_000);
      fs.utimesSync(live, old, old);
      fs.utimesSync(`${live}.tmp`, old, old);
      const left = OpenWorkRecord.takeLeft(data.dir, new Set());
      assert.equal(left.work.length, 1);
      assert.deepEqual(left.files, [live]);
    } finally {
      data.remove();
    }
  });
});
