import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { getEventListeners } from 'node:events';
import { describe, it } from 'node:test';
import { ManualClock } from '../support/manual-clock.js';
import { validateElicitationContent } from '../../app/contract/elicitation-check.js';
import { decodeCursor, encodeCursor } from '../../app/receiver/list-cursor.js';
import { RateLimiter } from '../../app/receiver/rate-limiter.js';
import { effectiveTtl, defaultReceiverPolicy } from '../../app/receiver/receiver-policy.js';
import { canReceivedTaskTransition, isTerminal } from '../../app/receiver/received-task-state.js';
import { TaskWaiters } from '../../app/receiver/task-waiters.js';
import { AuditLog } from '../../app/audit/audit-log.js';
import { SegmentLog } from '../../app/store/segment-log.js';
import { Journal, type JournalSync } from '../../app/store/journal.js';
import { confStoreFactory, type JsonFileStoreFactory } from '../../app/store/json-file-store.js';
import { tempDir } from '../support/host-fixture.js';
import { loadCrashImage } from '../support/crash-image.js';
import { ownerIdentity } from '../../app/mcp/server-config.js';
import { ServerConfigSchema } from '../../app/contract/host-api.js';

describe('task state machine', () => {
  it('allows exactly the spec transitions and keeps terminal final', () => {
    const all = ['working', 'input_required', 'completed', 'failed', 'cancelled'] as const;
    const allowed = all.flatMap((from) =>
      all.filter((to) => canReceivedTaskTransition(from, to)).map((to) => `${from}>${to}`)
    );
    assert.deepEqual(allowed.sort(), [
      'input_required>cancelled',
      'input_required>completed',
      'input_required>failed',
      'input_required>working',
      'working>cancelled',
      'working>completed',
      'working>failed',
      'working>input_required'
    ]);
    assert.deepEqual(all.filter(isTerminal), ['completed', 'failed', 'cancelled']);
  });
});

describe('ttl policy', () => {
  it('caps, defaults and ignores nonsense', () => {
    assert.equal(effectiveTtl(defaultReceiverPolicy, 'sampling', undefined), 30 * 60_000);
    assert.equal(effectiveTtl(defaultReceiverPolicy, 'sampling', 10 ** 12), 24 * 3_600_000);
    assert.equal(effectiveTtl(defaultReceiverPolicy, 'elicitation', 10 ** 12), 7 * 24 * 3_600_000);
    assert.equal(effectiveTtl(defaultReceiverPolicy, 'elicitation', -5), 24 * 3_600_000);
    // Rounded up: a fractional TTL never becomes 0 (a task gone as soon as it is acknowledged).
    assert.equal(effectiveTtl(defaultReceiverPolicy, 'elicitation', 1234.9), 1235);
    assert.equal(effectiveTtl(defaultReceiverPolicy, 'sampling', 0.5), 1);
  });
});

describe('elicitation content validation', () => {
  const schema = {
    type: 'object',
    properties: {
      name: { type: 'string', minLength: 2, maxLength: 5 },
      email: { type: 'string', format: 'email' },
      when: { type: 'string', format: 'date' },
      n: { type: 'integer', minimum: 1, maximum: 3 },
      ok: { type: 'boolean' },
      color: {
        type: 'string',
        oneOf: [
          { const: 'r', title: 'Red' },
          { const: 'g', title: 'Green' }
        ]
      },
      tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, maxItems: 1 }
    },
    required: ['name', 'ok']
  };
  it('accepts valid content', () => {
    assert.deepEqual(
      validateElicitationContent(schema, {
        name: 'Ada',
        email: 'a@b.co',
        when: '2026-01-02',
        n: 2,
        ok: false,
        color: 'g',
        tags: ['a']
      }),
      {}
    );
  });
  it('names every wrong field with a reason', () => {
    const errors = validateElicitationContent(schema, {
      name: 'A',
      email: 'x',
      when: 'soon',
      n: 2.5,
      color: 'blue',
      tags: ['a', 'c'],
      extra: 1
    });
    assert.deepEqual(Object.keys(errors).sort(), ['color', 'email', 'extra', 'n', 'name', 'ok', 'tags', 'when']);
    assert.equal(errors.ok, 'Required');
    assert.match(errors.name!, /at least 2/);
  });
  it('reads fields named like Object.prototype members as fields (the one schema reader, own properties only)', () => {
    const tricky = {
      type: 'object',
      properties: { constructor: { type: 'string' }, ['__proto__']: { type: 'number' } },
      required: ['constructor']
    };
    const missing = validateElicitationContent(tricky, {});
    assert.deepEqual(Object.keys(missing), ['constructor']);
    assert.equal(missing.constructor, 'Required');
    const wrong = validateElicitationContent(tricky, JSON.parse('{"constructor":"x","__proto__":"not a number"}'));
    assert.deepEqual(Object.entries(wrong), [['__proto__', 'Must be a number']]);
    assert.deepEqual(validateElicitationContent({ type: 'object', properties: {} }, { toString: 'x' }), {
      toString: 'Not a field of this form'
    });
    assert.deepEqual(
      validateElicitationContent({ type: 'object', properties: { n: { type: ['integer', 'null'] } } }, { n: 1.5 }),
      { n: 'Must be a whole number' },
      'a type list with null reads as its type'
    );
  });
});

describe('tasks/list cursors', () => {
  it('round-trip for the same owner and are refused when altered or foreign', () => {
    const key = randomBytes(16);
    const cursor = encodeCursor(key, 'owner-a', { sequence: 7, taskId: 't1' });
    assert.deepEqual(decodeCursor(key, cursor, 'owner-a'), { sequence: 7, taskId: 't1' });
    assert.equal(decodeCursor(key, cursor, 'owner-b'), undefined);
    assert.equal(decodeCursor(key, `${cursor}x`, 'owner-a'), undefined);
    assert.equal(decodeCursor(randomBytes(16), cursor, 'owner-a'), undefined);
  });
});

describe('rate limiter (fake clock)', () => {
  it('allows a burst, then the steady rate, and says how long to wait', async () => {
    const clock = new ManualClock();
    const limiter = new RateLimiter(clock, 2, 3);
    assert.deepEqual([limiter.take('a'), limiter.take('a'), limiter.take('a')], [0, 0, 0]);
    assert.equal(limiter.take('a'), 500);
    assert.equal(limiter.take('b'), 0, 'buckets are per server');
    await clock.advance(500);
    assert.equal(limiter.take('a'), 0);
  });
});

describe('tasks/result waiters', () => {
  it('leave no abort listener behind, however many waits end', async () => {
    const waiters = new TaskWaiters<string>();
    const controller = new AbortController();
    for (let i = 0; i < 50; i++) {
      const wait = waiters.wait('t', controller.signal);
      waiters.resolve('t', `v${i}`);
      assert.equal(await wait, `v${i}`);
    }
    assert.equal(getEventListeners(controller.signal, 'abort').length, 0);
    const aborted = waiters.wait('t', controller.signal);
    controller.abort(new Error('gone'));
    await assert.rejects(aborted, /gone/);
    assert.equal(waiters.size, 0);
  });
});

describe('segment log', () => {
  it('group-commits one turn into one document, replays, honours tombstones and compacts', async () => {
    const data = tempDir();
    try {
      const options = {
        dir: path.join(data.dir, 's'),
        corruptDir: path.join(data.dir, 'c'),
        factory: confStoreFactory,
        compactSegmentSize: 10,
        minGarbage: 20,
        journal: false
      };
      const log = new SegmentLog<{ v: number }>(options);
      log.load((v) => v as { v: number });
      await Promise.all(Array.from({ length: 30 }, (_, i) => log.put(`k${i}`, { v: i })));
      assert.equal(log.segmentCount, 1, 'one turn, one document');
      for (let round = 0; round < 3; round++)
        await Promise.all(Array.from({ length: 10 }, (_, i) => log.put(`k${i}`, { v: 100 + round })));
      await log.delete('k29');
      const files = fs.readdirSync(options.dir);
      const replay = new SegmentLog<{ v: number }>(options).load((v) => v as { v: number });
      assert.equal(replay.records.size, 29);
      assert.equal(replay.records.get('k0')?.v, 102);
      assert.equal(replay.records.has('k29'), false);
      // Enough stale entries to compact: live records rewritten, old documents gone.
      for (let round = 0; round < 4; round++)
        await Promise.all(Array.from({ length: 29 }, (_, i) => log.put(`k${i}`, { v: 200 + round })));
      assert.ok(log.segmentCount <= 6, `compacted to ${log.segmentCount} documents (was ${files.length}+)`);
      const compacted = new SegmentLog<{ v: number }>(options).load((v) => v as { v: number });
      assert.equal(compacted.records.size, 29);
      assert.equal(compacted.records.get('k5')?.v, 203);
    } finally {
      data.remove();
    }
  });
});

describe('audit log', () => {
  it('appends, rotates at the size limit, reads newest first and skips torn lines', () => {
    const data = tempDir();
    try {
      const clock = new ManualClock();
      const log = new AuditLog({ dir: data.dir, clock, maxFileBytes: 400, maxFiles: 2 });
      // Entries of no server: the host's own stream, `audit.log` at the top (a server has its own, see audit-log.test.ts).
      for (let i = 0; i < 20; i++) log.record({ type: 'task.created', taskId: `t${i}` });
      log.close();
      fs.appendFileSync(path.join(data.dir, 'audit.log'), '{"torn":');
      const entries = log.read({ limit: 1000 });
      assert.equal(entries[0]!.taskId, 't19');
      assert.ok(entries.length < 20, 'old files beyond maxFiles are dropped');
      assert.ok(fs.existsSync(path.join(data.dir, 'audit.2.log')));
      assert.equal(fs.existsSync(path.join(data.dir, 'audit.3.log')), false);
      assert.deepEqual(
        log.read({ taskId: 't18' }).map((e) => e.taskId),
        ['t18']
      );
    } finally {
      data.remove();
    }
  });
});

describe('owner identity', () => {
  it('binds tasks to the server id, where it is reached and its Authorization header', () => {
    const base = {
      id: 'web',
      name: 'Web',
      transport: { type: 'http' as const, url: 'https://mcp.example/mcp', headers: { Authorization: 'Bearer alice' } }
    };
    const id = (input: unknown) => ownerIdentity(ServerConfigSchema.parse(input));
    assert.equal(id(base), id({ ...base, name: 'Renamed' }), 'the display name is not part of it');
    assert.notEqual(
      id(base),
      id({ ...base, transport: { ...base.transport, headers: { authorization: 'Bearer bob' } } })
    );
    assert.notEqual(id(base), id({ ...base, transport: { ...base.transport, url: 'https://other.example/mcp' } }));
    assert.notEqual(id(base), id({ ...base, id: 'web2' }));
    assert.doesNotMatch(id(base), /alice/);
  });
});

describe('elicitation patterns and URL mode', () => {
  it('checks a string pattern', () => {
    const schema = { type: 'object', properties: { code: { type: 'string', pattern: '^[A-Z]{3}$' } } };
    assert.deepEqual(validateElicitationContent(schema, { code: 'ABC' }), {});
    assert.ok(validateElicitationContent(schema, { code: 'abcd' }).code);
  });

  it('says a date that is not one in words that name no typed pattern (the date input shows its own)', () => {
    const schema = { type: 'object', properties: { since: { type: 'string', format: 'date' } } };
    assert.deepEqual(validateElicitationContent(schema, { since: '2026-02-02' }), {});
    assert.deepEqual(validateElicitationContent(schema, { since: '41345-02-02' }), { since: 'Must be a valid date' });
  });
});

describe('segment log when a compaction fails', () => {
  it('still reports the batch as stored, keeps every value, and compacts later', async () => {
    const data = tempDir();
    let failBig = true;
    const factory: typeof confStoreFactory = (options) =>
      new Proxy(confStoreFactory(options), {
        // conf keeps private fields: read through the target itself, not the proxy.
        get: (target, key) => Reflect.get(target, key, target),
        set(target, key, value) {
          if (key === 'store' && failBig && (value as { entries: unknown[] }).entries.length > 6)
            throw new Error('EIO: disk error');
          return Reflect.set(target, key, value);
        }
      });
    const errors: unknown[] = [];
    const originalError = console.error;
    console.error = (...args: unknown[]) => void errors.push(args);
    try {
      const options = {
        dir: path.join(data.dir, 's'),
        corruptDir: path.join(data.dir, 'c'),
        factory,
        compactSegmentSize: 12,
        minGarbage: 20,
        lazyMs: 0,
        journal: false
      };
      const log = new SegmentLog<{ v: number }>(options);
      log.load((v) => v as { v: number });
      const round = (value: number, from = 0) =>
        Promise.all(Array.from({ length: 5 }, (_, i) => log.put(`k${from + i}`, { v: value })));
      for (let from = 0; from < 25; from += 5) await round(0, from);
      // Enough stale entries to compact; the compaction's large writes fail, the batches do not.
      for (let r = 1; r <= 6; r++) await round(r);
      assert.equal(errors.length, 1, 'one failed compaction, reported once');
      const replay = new SegmentLog<{ v: number }>(options).load((v) => v as { v: number });
      assert.equal(replay.records.size, 25);
      assert.equal(replay.records.get('k0')?.v, 6);
      assert.equal(replay.records.get('k24')?.v, 0);
      failBig = false;
      const before = log.segmentCount;
      for (let r = 7; r <= 30 && log.segmentCount >= before; r++) await round(r);
      assert.ok(log.segmentCount < before, 'a later compaction succeeds');
      const after = new SegmentLog<{ v: number }>(options).load((v) => v as { v: number });
      assert.equal(after.records.size, 25);
      assert.equal(after.records.get('k24')?.v, 0);
    } finally {
      console.error = originalError;
      data.remove();
    }
  });
});

describe('segment log with its journal', () => {
  const asV = (value: unknown) => value as { v: number };

  /** A loaded segment log with its journal under `dir`, checkpointed only when told to. */
  function journalled(
    dir: string,
    extra: {
      journalSync?: JournalSync;
      factory?: JsonFileStoreFactory;
      compactSegmentSize?: number;
      minGarbage?: number;
    } = {}
  ) {
    const options = {
      dir: path.join(dir, 's'),
      corruptDir: path.join(dir, 'c'),
      factory: confStoreFactory,
      checkpointMs: 60_000,
      ...extra
    };
    const log = new SegmentLog<{ v: number }>(options);
    log.load(asV);
    return { options, journal: path.join(options.dir, 'wal.log'), log };
  }

  /** The journal's lines in file order, up to the first zero byte: a header, then batches. */
  function journalLines(
    file: string
  ): Array<{ journal?: number; floor?: number; round?: number; seq?: number; entries?: unknown[] }> {
    const text = fs.readFileSync(file, 'utf8');
    const end = text.indexOf('\0');
    return (end === -1 ? text : text.slice(0, end))
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => {
        try {
          return JSON.parse(line) as {
            journal?: number;
            floor?: number;
            round?: number;
            seq?: number;
            entries?: unknown[];
          };
        } catch {
          return {};
        }
      });
  }

  /** A header line's layout and floor (its round is random), checking it has a round. */
  function headerOf(line: { journal?: number; floor?: number; round?: number } | undefined) {
    assert.equal(typeof line?.round, 'number', 'the header names its round');
    return { journal: line?.journal, floor: line?.floor };
  }

  /**
   * Tears the header as a crash while it is rewritten would: the start of a new header (a floor of
   * another length) over the old one, which no longer parses but is still a header's length.
   */
  function tearHeader(file: string): void {
    const fd = fs.openSync(file, 'r+');
    fs.writeSync(fd, '{"journal":1,"floor":123456789,', 0);
    fs.closeSync(fd);
    assert.throws(() => JSON.parse(fs.readFileSync(file, 'utf8').split('\n')[0]!), 'the header is torn');
  }

  /** Byte offset just past the last batch line of this round (where the next line would go). */
  function endOfRound(file: string): number {
    const bytes = fs.readFileSync(file);
    let offset = 0;
    let floor = 0;
    let last = 0;
    while (offset < bytes.length) {
      const end = bytes.indexOf(0x0a, offset);
      if (end === -1) break;
      try {
        const line = JSON.parse(bytes.subarray(offset, end).toString('utf8')) as {
          journal?: number;
          floor?: number;
          seq?: number;
        };
        if (line.journal === 1) floor = line.floor ?? 0;
        if (line.journal === 1 || (line.seq ?? 0) > floor) last = end + 1;
      } catch {
        // Past this round.
      }
      offset = end + 1;
    }
    return last;
  }

  it('acknowledges from the journal, replays it after a crash, checkpoints into a document, and drops a torn last line', async () => {
    const data = tempDir();
    try {
      const { options, journal, log } = journalled(data.dir);
      await Promise.all([log.put('a', { v: 1 }), log.put('b', { v: 1 })]);
      await log.put('a', { v: 2 });
      await log.delete('b');
      assert.equal(log.segmentCount, 0, 'nothing in a document yet');
      const lines = journalLines(journal);
      assert.deepEqual(headerOf(lines[0]), { journal: 1, floor: 0 }, 'a header first');
      assert.deepEqual(
        lines.slice(1).map((line) => line.seq),
        [1, 2, 3],
        'one journal line per commit'
      );
      assert.ok(fs.statSync(journal).size >= 4 * 1024 * 1024, 'created with its first megabytes written');
      // A crash in the middle of the next commit: its line is torn.
      const fd = fs.openSync(journal, 'r+');
      fs.writeSync(fd, '{"seq":4,"entries":[["c",{"v"', endOfRound(journal));
      fs.closeSync(fd);
      // A new run sees every acknowledged change.
      const replay = loadCrashImage<{ v: number }>(options.dir);
      assert.deepEqual([...replay.records], [['a', { v: 2 }]]);
      assert.equal(replay.quarantined.length, 0, 'a torn last line is an unfinished commit, not damage');
      // The checkpoint moves the changes into a document and starts the journal again.
      log.flushNow();
      assert.equal(log.segmentCount, 1);
      assert.deepEqual(
        headerOf(journalLines(journal)[0]),
        { journal: 1, floor: 3 },
        'lines up to 3 are in the document'
      );
      const after = new SegmentLog<{ v: number }>({ ...options, journal: false }).load(asV);
      assert.deepEqual([...after.records], [['a', { v: 2 }]], 'the documents alone hold the state');
      log.close();
    } finally {
      data.remove();
    }
  });

  it('reuses its file from the top after a checkpoint, and never replays what the documents already hold', async () => {
    const data = tempDir();
    try {
      const { options, journal, log } = journalled(data.dir);
      // A long first round, checkpointed: its lines stay in the file below the next round's.
      for (let i = 1; i <= 20; i++) await log.put('a', { v: i });
      log.flushNow();
      const size = fs.statSync(journal).size;
      // A short second round: 'a' deleted, 'b' written; the file does not grow.
      await log.delete('a');
      await log.put('b', { v: 1 });
      assert.equal(fs.statSync(journal).size, size);
      const lines = journalLines(journal);
      assert.deepEqual(headerOf(lines[0]), { journal: 1, floor: 20 });
      assert.deepEqual(
        lines.slice(1, 3).map((line) => line.seq),
        [21, 22]
      );
      assert.ok(
        lines.slice(3).some((line) => (line.seq ?? 0) <= 20),
        'leftovers of the first round follow'
      );
      // A crash now: the leftovers (with 'a' in them) are not replayed over the deletion.
      const replay = loadCrashImage<{ v: number }>(options.dir);
      assert.deepEqual([...replay.records], [['b', { v: 1 }]]);
      assert.equal(replay.quarantined.length, 0);
      log.close();
      // A clean stop checkpointed everything: a restart replays nothing and continues the numbering.
      const again = new SegmentLog<{ v: number }>(options);
      assert.deepEqual([...again.load(asV).records], [['b', { v: 1 }]]);
      await again.put('c', { v: 1 });
      assert.deepEqual(
        journalLines(journal)
          .slice(0, 2)
          .map((line) => line.seq ?? line.floor),
        [22, 23]
      );
      again.close();
    } finally {
      data.remove();
    }
  });

  it('never replays a line an earlier run wrote out of order and never acknowledged, even after two crashes', async () => {
    const data = tempDir();
    try {
      const { options, journal, log } = journalled(data.dir);
      for (let i = 1; i <= 10; i++) await log.put('a', { v: i });
      log.flushNow();
      await log.put('x', { v: 1 });
      // The first run dies with a later line on disk (it reached the disk before the one in
      // front of it, which never did): where that one belongs, a leftover of an earlier round,
      // as long as the line the next run will write there, had it gone on with this round.
      const round = journalLines(journal)[0]!.round!;
      const next = `{"seq":12,"round":${round},"entries":[["z",{"v":2}]]}\n`;
      const leftover = '{"seq":5,"round":1,"entries":[["a",{"v":5}]]}'.padEnd(next.length - 1, ' ') + '\n';
      const fd = fs.openSync(journal, 'r+');
      fs.writeSync(fd, `${leftover}{"seq":13,"round":${round},"entries":[["z",{"v":0}]]}\n`, endOfRound(journal));
      fs.closeSync(fd);
      // The second run replays x, then acknowledges z = 2; it dies too.
      const second = new SegmentLog<{ v: number }>(options);
      assert.deepEqual([...second.load(asV).records].sort(), [
        ['a', { v: 10 }],
        ['x', { v: 1 }]
      ]);
      await second.put('z', { v: 2 });
      // The third run has z as acknowledged, not the first run's stray line.
      const third = loadCrashImage<{ v: number }>(options.dir);
      assert.deepEqual(third.records.get('z'), { v: 2 });
      second.close();
      log.close();
    } finally {
      data.remove();
    }
  });

  it('takes the floor from the documents when the journal header is torn, so leftovers of older rounds are not replayed', async () => {
    const data = tempDir();
    try {
      const { options, journal, log } = journalled(data.dir);
      // Three rounds: a long one, then two short ones, each checkpointed.
      for (let i = 1; i <= 10; i++) await log.put('a', { v: i });
      log.flushNow();
      await log.put('a', { v: 11 });
      log.flushNow();
      await log.put('b', { v: 1 });
      log.flushNow();
      log.close();
      // The last round's line overwrote the one that set a to 11; the first round's are below it.
      assert.ok(journalLines(journal).some((line) => line.seq === 9));
      // A crash while the last header was being written: it is torn (the new one's start over
      // the old one's end, a mix that does not parse).
      tearHeader(journal);
      const replay = new SegmentLog<{ v: number }>(options).load(asV);
      assert.deepEqual(
        [...replay.records].sort(),
        [
          ['a', { v: 11 }],
          ['b', { v: 1 }]
        ],
        'a is not set back to a first-round value'
      );
      assert.equal(replay.quarantined.length, 0, 'nothing after the torn header was kept: no damage');
    } finally {
      data.remove();
    }
  });

  it('keeps the floor through a compaction, so a torn header after it replays nothing stale', async () => {
    const data = tempDir();
    try {
      const { options, journal, log } = journalled(data.dir, { compactSegmentSize: 5, minGarbage: 3 });
      for (let round = 0; round < 6; round++) {
        for (let i = 1; i <= 10; i++) await log.put('a', { v: round * 100 + i });
        await Promise.all([0, 1, 2, 3].map((k) => log.put(`k${k}`, { v: round })));
        log.flushNow();
      }
      log.close();
      const docs = fs.readdirSync(options.dir).filter((file) => file.endsWith('.json'));
      assert.ok(docs.length < 6, `compacted (${docs.length} documents)`);
      tearHeader(journal);
      const replay = new SegmentLog<{ v: number }>(options).load(asV);
      assert.deepEqual(replay.records.get('a'), { v: 510 });
      assert.equal(replay.quarantined.length, 0);
    } finally {
      data.remove();
    }
  });

  it('keeps every change in the journal while checkpoints fail, and checkpoints them once the disk takes writes again', async () => {
    const data = tempDir();
    let refuse = false;
    // Refuses segment documents only (they are the writes with a serializer of their own).
    const factory: JsonFileStoreFactory = (options) => {
      if (refuse && options.serialize)
        throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      return confStoreFactory(options);
    };
    const errors = console.error;
    console.error = () => undefined;
    try {
      const { options, log } = journalled(data.dir, { factory });
      await log.put('a', { v: 1 });
      refuse = true;
      log.flushNow();
      assert.equal(log.segmentCount, 0, 'the checkpoint failed');
      await log.put('a', { v: 2 });
      await log.put('b', { v: 1 });
      assert.deepEqual(
        [...loadCrashImage<{ v: number }>(options.dir).records].sort(),
        [
          ['a', { v: 2 }],
          ['b', { v: 1 }]
        ],
        'a restart now loses nothing'
      );
      refuse = false;
      log.flushNow();
      assert.equal(log.segmentCount, 1);
      await log.put('c', { v: 1 });
      log.close();
      assert.deepEqual([...new SegmentLog<{ v: number }>({ ...options, journal: false }).load(asV).records].sort(), [
        ['a', { v: 2 }],
        ['b', { v: 1 }],
        ['c', { v: 1 }]
      ]);
    } finally {
      console.error = errors;
      data.remove();
    }
  });

  it('refuses a value JSON cannot hold on its own, and commits the others of the same turn', async () => {
    const data = tempDir();
    try {
      const { options, log } = journalled(data.dir);
      const cyclic: Record<string, unknown> = { v: 1 };
      cyclic.self = cyclic;
      const [bad, big, good] = await Promise.allSettled([
        log.put('cyclic', cyclic as unknown as { v: number }),
        log.put('bigint', { v: 1n } as unknown as { v: number }),
        log.put('good', { v: 1 })
      ]);
      assert.equal(bad.status, 'rejected');
      assert.match(String(bad.reason), /Cannot store cyclic/);
      assert.equal(big.status, 'rejected');
      assert.equal(good.status, 'fulfilled');
      log.close();
      assert.deepEqual([...new SegmentLog<{ v: number }>(options).load(asV).records], [['good', { v: 1 }]]);
    } finally {
      data.remove();
    }
  });

  it('replays a journal of the earlier layout (journal.log) once, and removes it after the next checkpoint', async () => {
    const data = tempDir();
    try {
      const dir = path.join(data.dir, 's');
      fs.mkdirSync(dir, { recursive: true });
      const legacy = path.join(dir, 'journal.log');
      fs.writeFileSync(
        legacy,
        ['{"seq":1,"entries":[["a",{"v":1}]]}', '{"seq":2,"entries":[["a",{"v":2}],["b",{"v":1}]]}', ''].join('\n')
      );
      const { options, log } = journalled(data.dir);
      await log.put('c', { v: 1 });
      // The old journal was replayed at load, before this run's first change.
      assert.deepEqual([...loadCrashImage<{ v: number }>(options.dir).records].sort(), [
        ['a', { v: 2 }],
        ['b', { v: 1 }],
        ['c', { v: 1 }]
      ]);
      log.flushNow();
      assert.equal(fs.existsSync(legacy), false, 'removed once a document holds it');
      log.close();
      assert.deepEqual([...new SegmentLog<{ v: number }>(options).load(asV).records].sort(), [
        ['a', { v: 2 }],
        ['b', { v: 1 }],
        ['c', { v: 1 }]
      ]);
    } finally {
      data.remove();
    }
  });

  it('moves a journal it cannot read aside, reports it, and goes on with a new one', async () => {
    const data = tempDir();
    try {
      // A directory where the journal file should be: it cannot be read as one.
      fs.mkdirSync(path.join(data.dir, 's', 'wal.log'), { recursive: true });
      const options = {
        dir: path.join(data.dir, 's'),
        corruptDir: path.join(data.dir, 'c'),
        factory: confStoreFactory,
        checkpointMs: 60_000
      };
      const log = new SegmentLog<{ v: number }>(options);
      const loaded = log.load(asV);
      assert.equal(loaded.quarantined.length, 1);
      assert.match(loaded.quarantined[0]!.reason, /task journal could not be read/);
      assert.ok(fs.existsSync(loaded.quarantined[0]!.movedTo), 'kept, moved aside');
      await log.put('a', { v: 1 });
      log.close();
      assert.deepEqual([...new SegmentLog<{ v: number }>(options).load(asV).records], [['a', { v: 1 }]]);
    } finally {
      data.remove();
    }
  });

  it('cuts a journal that grew large back to its first megabytes when it starts again', async () => {
    const data = tempDir();
    try {
      const { journal, log } = journalled(data.dir);
      await log.put('big', { v: 1, text: 'x'.repeat(20 * 1024 * 1024) } as { v: number });
      assert.ok(fs.statSync(journal).size > 20 * 1024 * 1024);
      log.flushNow();
      assert.equal(fs.statSync(journal).size, 4 * 1024 * 1024);
      await log.put('small', { v: 2 });
      log.close();
      const replay = new SegmentLog<{ v: number }>(journalled(data.dir).options).load(asV);
      assert.deepEqual(replay.records.get('small'), { v: 2 });
      assert.equal((replay.records.get('big') as unknown as { text: string }).text.length, 20 * 1024 * 1024);
    } finally {
      data.remove();
    }
  });

  /** A stand-in for fdatasync whose calls wait until the test finishes or fails them. */
  function heldSyncs() {
    const calls: Array<(error: NodeJS.ErrnoException | null) => void> = [];
    return {
      calls,
      sync: (_fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => void calls.push(callback),
      /** Resolves once the log has started `count` syncs in all. */
      started: async (count: number) => {
        while (calls.length < count) await new Promise((resolve) => setImmediate(resolve));
      }
    };
  }

  /** Tracks whether a promise has settled, and how. */
  function observe(promise: Promise<void>) {
    const state = { settled: 'no' as 'no' | 'resolved' | 'rejected', error: undefined as unknown };
    promise.then(
      () => (state.settled = 'resolved'),
      (error: unknown) => {
        state.settled = 'rejected';
        state.error = error;
      }
    );
    return state;
  }

  const turn = () => new Promise((resolve) => setImmediate(resolve));

  it('acknowledges a batch only once a sync covering it has finished, and batches written meanwhile share the next sync', async () => {
    const data = tempDir();
    const syncs = heldSyncs();
    try {
      const { journal, log } = journalled(data.dir, { journalSync: syncs.sync });
      const a = observe(log.put('a', { v: 1 }));
      await syncs.started(1);
      // Written to the file, not yet synced: not acknowledged.
      assert.deepEqual(
        journalLines(journal).map((line) => line.seq),
        [undefined, 1]
      );
      const b = observe(log.put('b', { v: 1 }));
      await turn();
      const c = observe(log.put('c', { v: 1 }));
      await turn();
      await turn();
      assert.deepEqual([a.settled, b.settled, c.settled], ['no', 'no', 'no']);
      assert.equal(syncs.calls.length, 1, 'one sync at a time');
      assert.deepEqual(
        journalLines(journal).map((line) => line.seq),
        [undefined, 1, 2, 3],
        'b and c are written while the sync runs'
      );
      syncs.calls[0]!(null);
      await turn();
      assert.deepEqual([a.settled, b.settled, c.settled], ['resolved', 'no', 'no']);
      // The next sync starts at once and covers both batches written meanwhile.
      assert.equal(syncs.calls.length, 2);
      syncs.calls[1]!(null);
      await turn();
      assert.deepEqual([b.settled, c.settled], ['resolved', 'resolved']);
      assert.equal(syncs.calls.length, 2);
      log.close();
    } finally {
      data.remove();
    }
  });

  it('settles batches whose sync is still running when flushed, and ignores that sync when it ends', async () => {
    const data = tempDir();
    const syncs = heldSyncs();
    try {
      const { options, log } = journalled(data.dir, { journalSync: syncs.sync });
      const a = observe(log.put('a', { v: 1 }));
      await syncs.started(1);
      // A checkpoint (here through a shutdown) syncs what is written itself, with the thread blocked.
      log.close();
      await turn();
      assert.equal(a.settled, 'resolved');
      assert.equal(log.segmentCount, 1, 'checkpointed into a document');
      // The sync that was running ends later, even with an error: nothing changes.
      syncs.calls[0]!(Object.assign(new Error('EIO: late'), { code: 'EIO' }));
      await turn();
      assert.equal(a.settled, 'resolved');
      assert.deepEqual(
        [...new SegmentLog<{ v: number }>({ ...options, journal: false }).load(asV).records],
        [['a', { v: 1 }]]
      );
    } finally {
      data.remove();
    }
  });

  it('rejects the batches of a failed sync, and commits the later ones through a document until a new round starts', async () => {
    const data = tempDir();
    const syncs = heldSyncs();
    try {
      const { options, journal, log } = journalled(data.dir, { journalSync: syncs.sync });
      const a = observe(log.put('a', { v: 1 }));
      await syncs.started(1);
      const b = observe(log.put('b', { v: 1 }));
      await turn();
      const round = journalLines(journal)[0]!.round;
      syncs.calls[0]!(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
      await turn();
      assert.equal(a.settled, 'rejected');
      assert.match(String(a.error), /EIO/);
      // a's line may never reach the disk, and a read stops at the hole it leaves: b (written
      // after it) is acknowledged from a document, not from the journal.
      assert.equal(b.settled, 'resolved');
      assert.equal(syncs.calls.length, 1, 'no journal sync acknowledged b');
      assert.equal(log.segmentCount, 1);
      assert.notEqual(journalLines(journal)[0]!.round, round, 'a new round started');
      // A new run finds b in the document, and a (refused) nowhere.
      const replay = loadCrashImage<{ v: number }>(options.dir);
      assert.deepEqual([...replay.records], [['b', { v: 1 }]]);
      // The journal is used again.
      const c = observe(log.put('c', { v: 1 }));
      await syncs.started(2);
      syncs.calls[1]!(null);
      await turn();
      assert.equal(c.settled, 'resolved');
      log.close();
    } finally {
      data.remove();
    }
  });

  it('keeps its journal file open while a sync runs on it, whatever asks it to close', async () => {
    const data = tempDir();
    const syncs = heldSyncs();
    try {
      fs.mkdirSync(data.dir, { recursive: true });
      const journal = new Journal(path.join(data.dir, 'journal.log'), syncs.sync);
      journal.write({ seq: 1, entries: [['a', { v: 1 }]] });
      let synced = false;
      journal.sync(() => (synced = true));
      journal.close();
      // Closing now would free the descriptor number for reuse under the running sync.
      assert.equal(journal.isOpen, true);
      syncs.calls[0]!(null);
      assert.equal(synced, true);
      assert.equal(journal.isOpen, false);
      assert.deepEqual(journal.read(path.join(data.dir, 'c')).batches, [[['a', { v: 1 }]]]);
      // Writing again while a close waits on a sync keeps the file open.
      journal.write({ seq: 2, entries: [['b', { v: 1 }]] });
      journal.sync(() => undefined);
      journal.close();
      journal.write({ seq: 3, entries: [['c', { v: 1 }]] });
      syncs.calls[1]!(null);
      assert.equal(journal.isOpen, true);
      journal.close();
      assert.equal(journal.isOpen, false);
    } finally {
      data.remove();
    }
  });

  it('keeps the batches around a damaged journal line and copies the file aside', () => {
    const data = tempDir();
    try {
      const dir = path.join(data.dir, 's');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(
        path.join(dir, 'journal.log'),
        ['{"seq":1,"entries":[["a",{"v":1}]]}', 'garbage', '{"seq":2,"entries":[["b",{"v":2}]]}', ''].join('\n')
      );
      const loaded = new SegmentLog<{ v: number }>({
        dir,
        corruptDir: path.join(data.dir, 'c'),
        factory: confStoreFactory
      }).load((v) => v as { v: number });
      assert.deepEqual([...loaded.records].sort(), [
        ['a', { v: 1 }],
        ['b', { v: 2 }]
      ]);
      assert.equal(loaded.quarantined.length, 1);
      assert.ok(fs.existsSync(loaded.quarantined[0]!.movedTo));
    } finally {
      data.remove();
    }
  });
});
