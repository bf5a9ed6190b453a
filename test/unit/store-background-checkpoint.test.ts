import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import {
  documentText,
  documentWritesLanded,
  inlineDocumentWriter,
  workerDocumentWriter,
  type DocumentWrite,
  type DocumentWriter
} from '../../app/store/document-writer.js';
import { confStoreFactory } from '../../app/store/json-file-store.js';
import { Journal } from '../../app/store/journal.js';
import { SegmentLog, type StoreNotice } from '../../app/store/segment-log.js';
import { tempDir } from '../support/host-fixture.js';
import { loadCrashImage } from '../support/crash-image.js';

type Value = { v: number; pad?: string };
const asV = (value: unknown) => value as Value;
const textOf = (write: DocumentWrite) => documentText(write.data, (value) => JSON.stringify(value));
const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
const turns = async (count: number) => {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
};

/** A document writer whose writes wait until the test lets each land (written whole) or fail. */
function heldWriter() {
  const real = inlineDocumentWriter(confStoreFactory);
  const calls: Array<{ write: DocumentWrite; land: () => Promise<void>; fail: (error: Error) => void }> = [];
  let arrived: (() => void) | undefined;
  const writer: DocumentWriter = (write) =>
    new Promise<void>((resolve, reject) => {
      calls.push({
        write,
        land: () => real(write).then(resolve, (error: unknown) => reject(error as Error)),
        fail: reject
      });
      arrived?.();
    });
  // The store's checkpoint timers do not hold the process open: the wait for one does.
  const next = async () => {
    const hold = setInterval(() => undefined, 1_000);
    try {
      while (calls.length === 0) await new Promise<void>((resolve) => (arrived = resolve));
      return calls.shift()!;
    } finally {
      clearInterval(hold);
    }
  };
  return { writer, next };
}

/** A loaded log in `<root>/s` whose background checkpoints (due 5 ms after a change) wait on a held writer. */
function heldLog(root: string) {
  const held = heldWriter();
  const log = new SegmentLog<Value>({
    dir: path.join(root, 's'),
    corruptDir: path.join(root, 'c'),
    factory: confStoreFactory,
    documentWriter: held.writer,
    checkpointMs: 5
  });
  log.load(asV);
  return { log, held };
}

describe('checkpoints written in the background', () => {
  it('takes no journal line while one is on its way; one that fails (ENOSPC) leaves the journal as it was and loses nothing acknowledged', async () => {
    const data = tempDir();
    const held = heldWriter();
    const notices: StoreNotice[] = [];
    const dir = path.join(data.dir, 's');
    const options = {
      dir,
      corruptDir: path.join(data.dir, 'c'),
      factory: confStoreFactory,
      documentWriter: held.writer,
      checkpointMs: 5,
      report: (notice: StoreNotice) => void notices.push(notice)
    };
    try {
      const log = new SegmentLog<Value>(options);
      log.load(asV);
      await Promise.all(Array.from({ length: 10 }, (_, i) => log.put(`a${i}`, { v: i })));
      // The checkpoint due for them is on its way.
      const first = await held.next();
      assert.match(textOf(first.write), /"a9",\{"v":9\}/);
      const journal = path.join(dir, 'wal.log');
      const before = fs.readFileSync(journal);
      let acknowledged = false;
      const late = log.put('b', { v: 100 }).then(() => (acknowledged = true));
      await turns(5);
      assert.equal(acknowledged, false, 'a commit waits while the checkpoint is on its way');
      assert.deepEqual(fs.readFileSync(journal), before, 'the journal took no line');
      // The disk is full: the document did not land.
      first.fail(enospc());
      await late;
      assert.equal(notices[0]?.kind, 'problem');
      assert.match(notices[0].message, /could not write a checkpoint.*ENOSPC/s);
      const image = loadCrashImage<Value>(dir);
      for (let i = 0; i < 10; i++) assert.deepEqual(image.records.get(`a${i}`), { v: i }, `a${i}`);
      assert.deepEqual(image.records.get('b'), { v: 100 }, 'acknowledged after the failure, from the journal');
      assert.equal(log.segmentCount, 0);
      // Tried again later; this time it lands, and the journal starts again over what it holds.
      const retry = await held.next();
      assert.match(textOf(retry.write), /"b",\{"v":100\}/);
      await retry.land();
      await turns(2);
      assert.equal(notices.at(-1)?.kind, 'recovered');
      assert.equal(log.segmentCount, 1);
      const landed = loadCrashImage<Value>(dir);
      assert.equal(landed.records.size, 11);
      assert.deepEqual(landed.quarantined, []);
      log.close();
      const after = new SegmentLog<Value>({ ...options, checkpointMs: 60_000 }).load(asV);
      assert.equal(after.records.size, 11);
      assert.deepEqual(after.records.get('b'), { v: 100 });
    } finally {
      data.remove();
    }
  });

  it('is superseded by a checkpoint made at once (a flush, a shutdown), and changes nothing when it lands late', async () => {
    const data = tempDir();
    const held = heldWriter();
    const dir = path.join(data.dir, 's');
    const options = {
      dir,
      corruptDir: path.join(data.dir, 'c'),
      factory: confStoreFactory,
      documentWriter: held.writer,
      checkpointMs: 5
    };
    try {
      const log = new SegmentLog<Value>(options);
      log.load(asV);
      await log.put('k', { v: 1 });
      const old = await held.next();
      const second = log.put('k', { v: 2 });
      log.flushNow();
      await second;
      // The older document lands after the newer one: the newer one's value stands.
      await old.land();
      await turns(2);
      assert.deepEqual(loadCrashImage<Value>(dir).records.get('k'), { v: 2 });
      log.close();
      const after = new SegmentLog<Value>({ ...options, checkpointMs: 60_000 }).load(asV);
      assert.deepEqual(after.records.get('k'), { v: 2 });
      assert.deepEqual(after.quarantined, []);
    } finally {
      data.remove();
    }
  });

  it('counts a superseded write still on its way after close, so a closing host can wait for it to land', async () => {
    const data = tempDir();
    const dir = path.join(data.dir, 's');
    try {
      const { log, held } = heldLog(data.dir);
      await log.put('k', { v: 1 });
      const late = await held.next();
      log.close();
      let landed = false;
      const waiting = documentWritesLanded().then(() => (landed = true));
      await turns(3);
      assert.equal(landed, false, 'the write the close superseded is still on its way');
      const files = fs.readdirSync(dir).length;
      await late.land();
      await waiting;
      assert.equal(landed, true);
      assert.equal(fs.readdirSync(dir).length, files + 1, 'it landed before the wait ended');
    } finally {
      data.remove();
    }
  });

  it('sends a large record to the writer as a value, not as text, and the document holds it as a checkpoint made at once does', async () => {
    const data = tempDir();
    const dir = path.join(data.dir, 's');
    try {
      const { log, held } = heldLog(data.dir);
      const large = { v: 2, pad: 'p'.repeat(200_000) };
      await Promise.all([log.put('a', { v: 1 }), log.put('big', large), log.put('c', { v: 3 })]);
      const checkpoint = await held.next();
      const pieces = checkpoint.write.data;
      assert.ok(Array.isArray(pieces), 'in pieces');
      assert.deepEqual(
        pieces.filter((piece) => typeof piece !== 'string'),
        [{ json: large }],
        'the large record as a value'
      );
      assert.ok(
        pieces.every((piece) => typeof piece !== 'string' || piece.length < 1000),
        'no text holds it'
      );
      await checkpoint.land();
      await turns(2);
      assert.equal(log.segmentCount, 1);
      const written = JSON.parse(
        fs.readFileSync(
          path.join(
            dir,
            fs.readdirSync(dir).find((f) => f.startsWith('seg-'))!
          ),
          'utf8'
        )
      ) as {
        entries: unknown;
        journalFloor: unknown;
        schemaVersion: unknown;
      };
      assert.deepEqual(written.entries, [
        ['a', { v: 1 }],
        ['big', large],
        ['c', { v: 3 }]
      ]);
      assert.equal(written.schemaVersion, 1);
      assert.equal(typeof written.journalFloor, 'number');
      log.close();
      const image = loadCrashImage<Value>(dir);
      assert.deepEqual(image.records.get('big'), large);
      assert.equal(image.records.size, 3);
    } finally {
      data.remove();
    }
  });

  it('writes megabytes of pending changes as several journal lines, turns apart, each acknowledged once it is durable', async () => {
    const data = tempDir();
    const dir = path.join(data.dir, 's');
    const options = {
      dir,
      corruptDir: path.join(data.dir, 'c'),
      factory: confStoreFactory,
      documentWriter: inlineDocumentWriter(confStoreFactory),
      checkpointMs: 60_000
    };
    try {
      const log = new SegmentLog<Value>(options);
      log.load(asV);
      const value = (i: number) => ({ v: i, pad: String(i).repeat(600_000) });
      // Six changes of 600 KB in one turn: a line takes up to 1 MiB of them (and one more).
      let acknowledged = 0;
      const puts = Array.from({ length: 6 }, (_, i) => log.put(`k${i}`, value(i)).then(() => acknowledged++));
      const journal = path.join(dir, 'wal.log');
      const lines = () => new Journal(journal).read(path.join(data.dir, 'c2')).batches;
      await turns(1);
      assert.deepEqual(
        lines().map((batch) => batch.map(([id]) => id)),
        [['k0', 'k1']],
        'one line in the first turn'
      );
      assert.equal(acknowledged, 0, 'none before a sync');
      await puts[0];
      await puts[1];
      assert.ok(acknowledged < 6, 'the first line is acknowledged before the last is durable');
      await Promise.all(puts);
      assert.deepEqual(
        lines().map((batch) => batch.map(([id]) => id)),
        [
          ['k0', 'k1'],
          ['k2', 'k3'],
          ['k4', 'k5']
        ]
      );
      const image = loadCrashImage<Value>(dir);
      for (let i = 0; i < 6; i++) assert.deepEqual(image.records.get(`k${i}`), value(i));
      // Closing writes whatever is pending at once, all of it.
      const more = Array.from({ length: 4 }, (_, i) => log.put(`m${i}`, value(10 + i)));
      log.close();
      await Promise.all(more);
      const after = new SegmentLog<Value>(options).load(asV);
      assert.equal(after.records.size, 10);
      assert.deepEqual(after.records.get('m3'), value(13));
    } finally {
      data.remove();
    }
  });

  it('refuses only the changes of a journal line the disk refused; the next lines are acknowledged and kept', async () => {
    const data = tempDir();
    const dir = path.join(data.dir, 's');
    let failNext = false;
    const options = {
      dir,
      corruptDir: path.join(data.dir, 'c'),
      factory: confStoreFactory,
      documentWriter: inlineDocumentWriter(confStoreFactory),
      checkpointMs: 60_000,
      journalWrite: (fd: number, data: string | Uint8Array, position: number) => {
        const bytes = typeof data === 'string' ? Buffer.from(data) : data;
        if (failNext && bytes.length > 1_000_000) {
          failNext = false;
          throw enospc();
        }
        return fs.writeSync(fd, bytes, 0, bytes.length, position);
      }
    };
    try {
      const log = new SegmentLog<Value>(options);
      log.load(asV);
      const value = (i: number) => ({ v: i, pad: String(i).repeat(600_000) });
      failNext = true;
      const outcomes = await Promise.allSettled(Array.from({ length: 4 }, (_, i) => log.put(`k${i}`, value(i))));
      assert.deepEqual(
        outcomes.map((o) => o.status),
        ['rejected', 'rejected', 'fulfilled', 'fulfilled']
      );
      const image = loadCrashImage<Value>(dir);
      assert.deepEqual(image.records.get('k2'), value(2));
      assert.deepEqual(image.records.get('k3'), value(3));
      log.close();
    } finally {
      data.remove();
    }
  });

  it('writes through conf in a worker thread: whole documents conf reads, and the reason when it cannot', async () => {
    const data = tempDir();
    try {
      const write = workerDocumentWriter();
      const text = JSON.stringify({ schemaVersion: 1, entries: [['k', { v: 'x'.repeat(100_000) }]] });
      await write({ cwd: data.dir, name: 'seg-000000000001', data: text });
      assert.equal(fs.readFileSync(path.join(data.dir, 'seg-000000000001.json'), 'utf8'), text);
      assert.equal(JSON.stringify(confStoreFactory({ cwd: data.dir, name: 'seg-000000000001' }).store), text);
      assert.deepEqual(
        fs.readdirSync(data.dir).filter((file) => file.includes('partial')),
        [],
        'no staging file left'
      );
      // A document in pieces: its values are serialized in the worker, between the texts.
      const record = { v: 'y'.repeat(100_000), n: [1, { deep: true }] };
      await write({ cwd: data.dir, name: 'seg-000000000002', data: ['{"entries":[["k",', { json: record }, ']]}'] });
      const pieces = fs.readFileSync(path.join(data.dir, 'seg-000000000002.json'), 'utf8');
      assert.equal(pieces, JSON.stringify({ entries: [['k', record]] }));
      // A value that cannot be cloned into the worker is sent as its JSON text instead (a function has none).
      await write({
        cwd: data.dir,
        name: 'seg-000000000003',
        data: ['[', { json: { v: 1, f: () => 2 } }, ']']
      });
      assert.equal(fs.readFileSync(path.join(data.dir, 'seg-000000000003.json'), 'utf8'), '[{"v":1}]');
      // A directory that cannot be made (a file is in the way): refused with the reason.
      fs.writeFileSync(path.join(data.dir, 'file'), '');
      await assert.rejects(write({ cwd: path.join(data.dir, 'file', 'sub'), name: 'seg-2', data: '{}' }), (error) => {
        assert.ok(error instanceof Error);
        assert.match((error as NodeJS.ErrnoException).code ?? '', /ENOTDIR|EEXIST/);
        return true;
      });
    } finally {
      data.remove();
    }
  });
});

describe('a record’s size', () => {
  it('is the length of the JSON text put wrote, for what was put; unknown for what was loaded or is gone', async () => {
    const { dir, remove } = tempDir('taskdesk-text-length-');
    try {
      const options = {
        dir: path.join(dir, 's'),
        corruptDir: path.join(dir, 'c'),
        factory: confStoreFactory,
        documentWriter: inlineDocumentWriter(confStoreFactory),
        checkpointMs: 60_000
      };
      const log = new SegmentLog<Value>(options);
      log.load(asV);
      const value = { v: 1, pad: 'é"\n' };
      await log.put('a', value);
      assert.equal(log.textLength('a'), JSON.stringify(value).length);
      assert.equal(log.textLength('b'), undefined);
      log.close();
      const again = new SegmentLog<Value>(options);
      again.load(asV);
      assert.equal(again.textLength('a'), undefined, 'as loaded: its caller measures it');
      await again.delete('a');
      assert.equal(again.textLength('a'), undefined);
      again.close();
    } finally {
      remove();
    }
  });
});
