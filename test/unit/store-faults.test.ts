import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { Journal, type JournalWrite } from '../../app/store/journal.js';
import { confStoreFactory, type JsonFileStore, type JsonFileStoreFactory } from '../../app/store/json-file-store.js';
import { SegmentLog, type StoreNotice } from '../../app/store/segment-log.js';
import { tempDir } from '../support/host-fixture.js';
import { loadCrashImage } from '../support/crash-image.js';

type Value = { v: number; pad?: string };
const asV = (value: unknown) => value as Value;
const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });

/**
 * A disk that runs out of space, at the `fs` level, for both halves of the store.
 *
 * Documents: conf writes through `atomically`, which makes one write and never looks at how
 * many bytes it took, so on a full disk the file it renames into place is cut where the space
 * ran out, without an error. The factory makes the disk do exactly that to every file conf
 * writes (`short`), or refuses the write (`refuse`).
 *
 * Journal: its positioned writes take at most half of what they are given (short writes, which
 * the journal must finish), and only `journalRoom` bytes in all; past that, `ENOSPC`.
 */
function failingDisk() {
  const disk = { documents: 'ok' as 'ok' | 'short' | 'refuse', journalRoom: Infinity, shortDocuments: 0 };
  const factory: JsonFileStoreFactory = (options) => {
    const store = confStoreFactory(options);
    return new Proxy(store, {
      // conf keeps private fields: read through the target itself, not the proxy.
      get: (target, key) => Reflect.get(target, key, target) as unknown,
      set(target: JsonFileStore, key, value) {
        if (key === 'store' && disk.documents === 'refuse') throw enospc();
        const done = Reflect.set(target, key, value);
        if (key === 'store' && disk.documents === 'short') {
          fs.truncateSync(target.path, Math.floor(fs.statSync(target.path).size / 2));
          disk.shortDocuments++;
        }
        return done;
      }
    });
  };
  const journalWrite: JournalWrite = (fd, data, position) => {
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    if (disk.journalRoom === Infinity) return fs.writeSync(fd, bytes, 0, bytes.length, position);
    if (disk.journalRoom <= 0) throw enospc();
    const taken = Math.min(bytes.length, disk.journalRoom, Math.max(1, Math.ceil(bytes.length / 2)));
    disk.journalRoom -= taken;
    return fs.writeSync(fd, bytes, 0, taken, position);
  };
  return { disk, factory, journalWrite };
}

/** Resolves once `notices` holds one of `kind` (the store reports from its own timers). */
async function noticeOf(notices: StoreNotice[], kind: StoreNotice['kind']): Promise<StoreNotice> {
  for (;;) {
    const found = notices.find((notice) => notice.kind === kind);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('task store on a disk that fills up', () => {
  it('never starts the journal over a checkpoint that came up short, refuses what the journal cannot hold, and recovers when space returns', async () => {
    const data = tempDir();
    const { disk, factory, journalWrite } = failingDisk();
    const notices: StoreNotice[] = [];
    const dir = path.join(data.dir, 's');
    const options = {
      dir,
      corruptDir: path.join(data.dir, 'c'),
      factory,
      journalWrite,
      checkpointMs: 10,
      report: (notice: StoreNotice) => void notices.push(notice)
    };
    try {
      const log = new SegmentLog<Value>(options);
      log.load(asV);
      const pad = 'p'.repeat(200);
      // 41 acknowledged tasks in the journal (one commit); their checkpoint is due in 10 ms.
      await Promise.all(Array.from({ length: 41 }, (_, i) => log.put(`t${i}`, { v: i, pad })));
      // The disk fills up before it: the checkpoint's document comes up short without an error.
      disk.documents = 'short';
      log.flushNow();
      assert.equal(disk.shortDocuments, 1, 'the checkpoint was written, short');
      const early = loadCrashImage<Value>(dir);
      assert.equal(early.records.size, 41, 'a restart now has all 41: the journal was not started over them');
      assert.deepEqual(early.quarantined, []);
      assert.equal(log.segmentCount, 0, 'a short document is not a checkpoint');
      assert.deepEqual(
        fs.readdirSync(dir).filter((file) => file.endsWith('.json')),
        [],
        'the short document was not renamed into place, nor left behind'
      );
      assert.equal(notices[0]?.kind, 'problem');
      assert.match(notices[0].message, /could not write a checkpoint.*ENOSPC.*came up short/s);
      // The journal has room for a few more lines, taken in short writes, then none.
      disk.journalRoom = 1200;
      // One commit each (a commit is one line): some land in short writes, the rest are refused.
      const acknowledged: string[] = [];
      const refused: string[] = [];
      for (let i = 41; i < 61; i++) {
        try {
          await log.put(`t${i}`, { v: i, pad });
          acknowledged.push(`t${i}`);
        } catch (error) {
          assert.match(String(error), /ENOSPC/, 'refused with the reason');
          refused.push(`t${i}`);
        }
      }
      assert.ok(acknowledged.length > 0, 'short writes are finished');
      assert.ok(refused.length > 0, 'the journal ran out of room');
      // A crash now loses nothing acknowledged, and brings back nothing refused.
      const image = loadCrashImage<Value>(dir);
      for (let i = 0; i < 41; i++) assert.deepEqual(image.records.get(`t${i}`), { v: i, pad }, `t${i}`);
      for (const id of acknowledged) assert.ok(image.records.has(id), `${id} was acknowledged`);
      for (const id of refused) assert.equal(image.records.has(id), false, `${id} was refused`);
      assert.deepEqual(image.quarantined, [], 'nothing is damaged');

      // Space returns: the checkpoint tried again lands, and that is reported.
      disk.documents = 'ok';
      disk.journalRoom = Infinity;
      const recovered = await noticeOf(notices, 'recovered');
      assert.match(recovered.message, /writes its task store again/);
      assert.equal(log.segmentCount, 1);
      // The refused ones are written again (the receiver does this on its own every 5 s).
      for (const id of refused) await log.put(id, { v: Number(id.slice(1)), pad });
      log.close();
      const after = new SegmentLog<Value>({ ...options, factory: confStoreFactory }).load(asV);
      assert.equal(after.records.size, 61);
      for (let i = 0; i < 61; i++) assert.deepEqual(after.records.get(`t${i}`), { v: i, pad });
      assert.deepEqual(after.quarantined, []);
      assert.deepEqual(
        notices.map((notice) => notice.kind),
        ['problem', 'problem', 'recovered'],
        'a failing checkpoint and refused changes, each reported once, then the recovery'
      );
    } finally {
      data.remove();
    }
  });

  it('refuses a commit whose document the disk refuses or cuts short, and keeps the last good one', async () => {
    const data = tempDir();
    const { disk, factory } = failingDisk();
    const notices: StoreNotice[] = [];
    const options = {
      dir: path.join(data.dir, 's'),
      corruptDir: path.join(data.dir, 'c'),
      factory,
      journal: false,
      report: (notice: StoreNotice) => void notices.push(notice)
    };
    try {
      const log = new SegmentLog<Value>(options);
      log.load(asV);
      await log.put('a', { v: 1 });
      disk.documents = 'short';
      await assert.rejects(log.put('a', { v: 2 }), /ENOSPC.*came up short/);
      disk.documents = 'refuse';
      await assert.rejects(log.put('b', { v: 1 }), /ENOSPC/);
      assert.equal(notices.length, 1, 'reported once');
      const image = loadCrashImage<Value>(options.dir);
      assert.deepEqual([...image.records], [['a', { v: 1 }]]);
      assert.deepEqual(image.quarantined, [], 'no short document in place');
      disk.documents = 'ok';
      await log.put('b', { v: 1 });
      assert.equal(notices.at(-1)?.kind, 'recovered');
      log.close();
    } finally {
      data.remove();
    }
  });

  it('writes a line holding a large record from its pieces, short writes finished, and reads it back whole', async () => {
    const data = tempDir();
    const given: Array<'text' | 'bytes'> = [];
    // Each positioned write takes half of what it is given: the journal must finish the line.
    const journalWrite: JournalWrite = (fd, data, position) => {
      given.push(typeof data === 'string' ? 'text' : 'bytes');
      const bytes = typeof data === 'string' ? Buffer.from(data) : data;
      return fs.writeSync(fd, bytes, 0, Math.max(1, Math.ceil(bytes.length / 2)), position);
    };
    const dir = path.join(data.dir, 's');
    const options = { dir, corruptDir: path.join(data.dir, 'c'), factory: confStoreFactory, checkpointMs: 60_000 };
    try {
      const log = new SegmentLog<Value>({ ...options, journalWrite });
      log.load(asV);
      await log.put('small', { v: 1 });
      given.length = 0;
      // Past the large-record size, with characters of every UTF-8 length and escapes in the rest.
      const pad = `${'é漢🎉'.repeat(30_000)}${'m'.repeat(300_000)}`;
      const large = { v: 2, pad };
      await Promise.all([log.put('large', large), log.put('small', { v: 3, pad: 'quote " and\nline' })]);
      // Encoded by the journal, piece by piece (no flat text of the line was made to write it).
      assert.equal(given[0], 'bytes');
      assert.ok(given.length > 1, 'short writes were finished');
      await log.put('after', { v: 4 });
      const image = loadCrashImage<Value>(dir);
      assert.deepEqual(image.records.get('large'), large);
      assert.deepEqual(image.records.get('small'), { v: 3, pad: 'quote " and\nline' });
      assert.deepEqual(image.records.get('after'), { v: 4 });
      log.close();
    } finally {
      data.remove();
    }
  });

  it('makes a journal on a disk too full for its first megabytes, and finishes short writes of a line', () => {
    const data = tempDir();
    try {
      let room = 4096;
      const write: JournalWrite = (fd, bytes, position) => {
        const buffer = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
        if (room <= 0 || buffer.length > room + 4096) throw enospc();
        // One byte short of whole each time: the journal must finish every write itself.
        const taken = Math.min(buffer.length > 1 ? buffer.length - 1 : 1, room);
        room -= taken;
        return fs.writeSync(fd, buffer, 0, taken, position);
      };
      const file = path.join(data.dir, 'wal.log');
      const journal = new Journal(file, { write });
      journal.write({ seq: 1, entries: [['a', { v: 1 }]] });
      journal.syncNow();
      journal.close();
      assert.ok(fs.statSync(file).size < 4096, 'made without its first megabytes');
      assert.equal(fs.existsSync(`${file}.new`), false);
      const read = new Journal(file).read(path.join(data.dir, 'c'));
      assert.deepEqual(read.batches, [[['a', { v: 1 }]]]);
      assert.equal(read.untrusted, undefined);
    } finally {
      data.remove();
    }
  });
});

describe('task store with a damaged journal', () => {
  /**
   * A store with ten changes in a document (t0..t9 at 1) and twenty journalled since (t0..t9 at
   * 2, t10..t19 new), left as a crash leaves it: what each damage is applied to.
   */
  async function crashedStore() {
    const data = tempDir();
    const dir = path.join(data.dir, 's');
    const options = { dir, corruptDir: path.join(data.dir, 'c'), factory: confStoreFactory, checkpointMs: 60_000 };
    const log = new SegmentLog<Value>(options);
    log.load(asV);
    for (let i = 0; i < 10; i++) await log.put(`t${i}`, { v: 1 });
    log.flushNow();
    for (let i = 0; i < 10; i++) await log.put(`t${i}`, { v: 2 });
    for (let i = 10; i < 20; i++) await log.put(`t${i}`, { v: 1 });
    const image = path.join(data.dir, 'image');
    fs.cpSync(dir, image, { recursive: true });
    log.close();
    return { data, options: { ...options, dir: image }, wal: path.join(image, 'wal.log') };
  }

  /** The journal's lines as written: its header, then batches. */
  function lineEnds(file: string): number[] {
    const bytes = fs.readFileSync(file);
    const ends: number[] = [];
    for (let at = bytes.indexOf(0x0a); at !== -1 && bytes[at + 1] !== 0; at = bytes.indexOf(0x0a, at + 1))
      ends.push(at + 1);
    return ends;
  }

  const expectations: Array<{
    name: string;
    damage: (wal: string, dir: string) => void;
    reason: RegExp;
    /** The values a load must still find (the rest are lost with the damage, and reported). */
    survives: Record<string, Value>;
  }> = [
    {
      name: 'a header whose round was changed, with the round’s lines after it',
      damage: (wal) => {
        const text = fs.readFileSync(wal, 'latin1');
        const line = text.slice(0, text.indexOf('\n'));
        const header = JSON.parse(line) as { round: number };
        const changed = JSON.stringify({ ...header, round: header.round === 1 ? 2 : header.round - 1 });
        const fd = fs.openSync(wal, 'r+');
        fs.writeSync(fd, changed.padEnd(line.length, ' '), 0);
        fs.closeSync(fd);
      },
      reason: /not of the header's round.*after the header's floor 10/,
      survives: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`t${i}`, { v: 1 }]))
    },
    {
      name: 'foreign JSON',
      damage: (wal) => fs.writeFileSync(wal, '{"name":"another program","settings":{"theme":"dark"}}\n'),
      reason: /does not start with a journal header/,
      survives: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`t${i}`, { v: 1 }]))
    },
    {
      name: 'random bytes',
      damage: (wal) => fs.writeFileSync(wal, Buffer.concat([Buffer.from([0xff, 0xfe]), randomBytes(64 * 1024)])),
      reason: /does not start with a journal header/,
      survives: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`t${i}`, { v: 1 }]))
    },
    {
      name: 'an empty file',
      damage: (wal) => fs.writeFileSync(wal, ''),
      reason: /the file is empty/,
      survives: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`t${i}`, { v: 1 }]))
    },
    {
      name: 'a file cut short after its fifth line',
      damage: (wal) => fs.truncateSync(wal, lineEnds(wal)[5]),
      reason: /shorter than the 4194304 bytes it was made with/,
      survives: {
        ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`t${i}`, { v: i < 5 ? 2 : 1 }]))
      }
    },
    {
      name: 'a journal whose checkpoint document is gone',
      damage: (_wal, dir) => {
        for (const file of fs.readdirSync(dir)) if (file.startsWith('seg-')) fs.rmSync(path.join(dir, file));
      },
      reason: /starts after change 10, but the documents hold changes only up to 0/,
      survives: {
        ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`t${i}`, { v: 2 }])),
        ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`t${10 + i}`, { v: 1 }]))
      }
    }
  ];

  for (const { name, damage, reason, survives } of expectations) {
    it(`moves ${name} aside with its bytes and reports it, and never writes over it`, async () => {
      const { data, options, wal } = await crashedStore();
      try {
        damage(wal, options.dir);
        const damaged = fs.readFileSync(wal);
        const log = new SegmentLog<Value>(options);
        const loaded = log.load(asV);
        const report = loaded.quarantined.find((entry) => entry.id === 'journal');
        assert.ok(report, `reported: ${JSON.stringify(loaded.quarantined)}`);
        assert.match(report.reason, /The task journal cannot be trusted/);
        assert.match(report.reason, reason);
        assert.ok(report.movedTo.startsWith(options.corruptDir), `moved aside to ${report.movedTo}`);
        assert.deepEqual(fs.readFileSync(report.movedTo), damaged, 'its bytes are kept as they were');
        for (const [id, value] of Object.entries(survives)) assert.deepEqual(loaded.records.get(id), value, id);
        // The store goes on with a new journal, and the next start finds nothing more to report.
        await log.put('after', { v: 1 });
        const image = loadCrashImage<Value>(options.dir);
        assert.deepEqual(image.quarantined, []);
        assert.deepEqual(image.records.get('after'), { v: 1 });
        for (const [id, value] of Object.entries(survives)) assert.deepEqual(image.records.get(id), value, id);
        log.close();
        assert.deepEqual(fs.readFileSync(report.movedTo), damaged, 'still as they were');
      } finally {
        data.remove();
      }
    });
  }

  it('removes an empty journal of the earlier layout (it has no header to miss) without a report', () => {
    const data = tempDir();
    try {
      const dir = path.join(data.dir, 's');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'journal.log'), '');
      const log = new SegmentLog<Value>({ dir, corruptDir: path.join(data.dir, 'c'), factory: confStoreFactory });
      assert.deepEqual(log.load(asV).quarantined, []);
      assert.equal(fs.existsSync(path.join(dir, 'journal.log')), false);
      log.close();
    } finally {
      data.remove();
    }
  });

  it('replays a whole journal without a report, and the next start finds nothing to report either', async () => {
    const { data, options } = await crashedStore();
    try {
      const log = new SegmentLog<Value>(options);
      const first = log.load(asV);
      assert.deepEqual(first.quarantined, []);
      log.close();
      const second = new SegmentLog<Value>(options).load(asV);
      assert.deepEqual(second.quarantined, []);
      assert.equal(second.records.size, 20);
    } finally {
      data.remove();
    }
  });
});
