import assert from 'node:assert/strict';
import { EventEmitter, once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import {
  documentText,
  documentWritesLanded,
  inlineDocumentWriter,
  type DocumentWrite,
  type DocumentWriter
} from '../../app/store/document-writer.js';
import { confStoreFactory } from '../../app/store/json-file-store.js';
import { SegmentLog } from '../../app/store/segment-log.js';
import { tempDir } from '../support/host-fixture.js';
import { loadCrashImage } from '../support/crash-image.js';

/**
 * A compaction due after a checkpoint made in the background is written in the background too:
 * its fresh segments go to the document writer (a worker thread in the app), one at a time,
 * while commits and checkpoints go on. Before, it rewrote every live record on the event loop
 * (20,000 task records of about 1 KB held it for 120 ms).
 */

type V = { v: number };
const asV = (value: unknown) => value as V;

interface HeldWrite {
  write: DocumentWrite;
  /** The document's text. */
  text: string;
  /** A compaction's fresh segment: no journal floor of its own, or the compaction's marker. */
  compaction: boolean;
  /** Writes it; resolves once it is on disk (or failed), and the log has heard so. */
  release(): Promise<void>;
  fail(error: Error): void;
}

/** A document writer whose writes wait until the test releases (writes them) or fails each. */
function heldWriter() {
  const inline = inlineDocumentWriter(confStoreFactory);
  const queue: HeldWrite[] = [];
  const arrived = new EventEmitter();
  const writer: DocumentWriter = (write) =>
    new Promise<void>((resolve, reject) => {
      const text = documentText(write.data, (value) => JSON.stringify(value));
      queue.push({
        write,
        text,
        compaction: !text.includes('"journalFloor"') || text.includes('"compactedBelow"'),
        release: () =>
          inline(write)
            .then(resolve, reject)
            // The log's own reactions to the write run before the next turn.
            .then(() => new Promise<void>((done) => setImmediate(done))),
        fail: reject
      });
      arrived.emit('write');
    });
  /**
   * The next write to arrive, taken off the queue. A checkpoint's timer does not hold the process
   * open (a closing host must not wait for it): the wait holds it.
   */
  const next = async (): Promise<HeldWrite> => {
    const hold = setInterval(() => undefined, 60_000);
    try {
      while (queue.length === 0) await once(arrived, 'write');
    } finally {
      clearInterval(hold);
    }
    return queue.shift()!;
  };
  return { writer, next };
}

/** Lets a write through and waits until the log has heard it landed. */
function land(write: HeldWrite): Promise<void> {
  return write.release();
}

const segmentFiles = (dir: string) => fs.readdirSync(dir).filter((file) => /^seg-\d+\.json$/.test(file));

/**
 * A log whose checkpoints and compactions go through a held writer, with ten keys written three
 * times (each checkpoint let through), so that the third checkpoint's landing starts a compaction:
 * returns it with its first fresh segment held.
 */
async function compactionUnderWay(dir: string) {
  const held = heldWriter();
  const options = {
    dir: path.join(dir, 's'),
    corruptDir: path.join(dir, 'c'),
    factory: confStoreFactory,
    checkpointMs: 1,
    compactSegmentSize: 5,
    minGarbage: 3,
    documentWriter: held.writer
  };
  const log = new SegmentLog<V>(options);
  log.load(asV);
  for (let round = 0; round < 3; round++) {
    await Promise.all(Array.from({ length: 10 }, (_, i) => log.put(`k${i}`, { v: round })));
    const checkpoint = await held.next();
    assert.equal(checkpoint.compaction, false, `round ${round} is checkpointed`);
    await land(checkpoint);
  }
  const first = await held.next();
  assert.equal(first.compaction, true, 'the third checkpoint started a compaction');
  return { log, held, first, options };
}

describe('segment log compaction in the background', () => {
  it('goes through the document writer while commits go on; once it lands the old segments are gone and nothing changed meanwhile is lost', async () => {
    const data = tempDir();
    try {
      const { log, held, first, options } = await compactionUnderWay(data.dir);
      const before = segmentFiles(options.dir);
      assert.equal(before.length, 3);
      // Its first fresh segment waits; commits are durable meanwhile (the journal): a record
      // changed, one deleted and one added are acknowledged. (The checkpoint of them that follows
      // waits behind the fresh segment in the writer, as in the worker, and commits then wait for
      // it: a compaction goes a segment at a time so that this wait stays short.)
      await Promise.all([log.put('k0', { v: 99 }), log.delete('k9'), log.put('k10', { v: 10 })]);
      assert.deepEqual(Object.fromEntries([...loadCrashImage<V>(options.dir).records].map(([k, v]) => [k, v.v])), {
        k0: 99,
        k1: 2,
        k2: 2,
        k3: 2,
        k4: 2,
        k5: 2,
        k6: 2,
        k7: 2,
        k8: 2,
        k10: 10
      });

      // The fresh segments one at a time; the checkpoint of the changes made meanwhile between them.
      const checkpoint = await held.next();
      assert.equal(checkpoint.compaction, false);
      await land(first);
      const last = await held.next();
      assert.equal(last.compaction, true);
      assert.match(last.text, /"compactedBelow"/);
      // Died with one fresh segment of two on disk (no marker yet): every record as acknowledged.
      const midway = loadCrashImage<V>(options.dir).records;
      assert.equal(midway.get('k0')?.v, 99);
      assert.equal(midway.has('k9'), false);
      assert.equal(midway.get('k10')?.v, 10);
      assert.equal(midway.get('k5')?.v, 2);
      await land(checkpoint);
      await land(last);

      // The three segments from before are gone: two fresh ones and the later checkpoint stay.
      const after = segmentFiles(options.dir);
      assert.equal(after.filter((file) => before.includes(file)).length, 0, `old segments removed: ${after.join()}`);
      assert.equal(after.length, 3);
      assert.equal(log.segmentCount, 3);
      log.close();
      await documentWritesLanded();
      const reloaded = new SegmentLog<V>({ ...options, documentWriter: inlineDocumentWriter(confStoreFactory) });
      const { records } = reloaded.load(asV);
      reloaded.close();
      assert.equal(records.size, 10);
      assert.equal(records.get('k0')?.v, 99);
      assert.equal(records.has('k9'), false);
      assert.equal(records.get('k10')?.v, 10);
      for (let i = 1; i < 9; i++) assert.equal(records.get(`k${i}`)?.v, 2);
    } finally {
      data.remove();
    }
  });

  it('that fails leaves every record as it was, and the next compaction removes its fresh segments', async () => {
    const data = tempDir();
    const errors: unknown[][] = [];
    const originalError = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      const { log, held, first, options } = await compactionUnderWay(data.dir);
      const before = segmentFiles(options.dir);
      await land(first);
      const last = await held.next();
      assert.equal(last.compaction, true);
      const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      last.fail(full);
      await new Promise<void>((done) => setImmediate(done));
      assert.equal(errors.length, 1, 'one failed compaction, reported once');
      assert.match(String(errors[0]![0]), /could not compact/);
      const image = loadCrashImage<V>(options.dir).records;
      assert.equal(image.size, 10);
      for (let i = 0; i < 10; i++) assert.equal(image.get(`k${i}`)?.v, 2);
      // Its first fresh segment, written without the marker, stays for now.
      const leftOver = segmentFiles(options.dir).filter((file) => !before.includes(file));
      assert.equal(leftOver.length, 1);

      // More changes: a later compaction succeeds, and takes the failed one's segment away too.
      let compacted = false;
      let round = 3;
      for (; round < 40 && !compacted; round++) {
        await Promise.all(Array.from({ length: 10 }, (_, i) => log.put(`k${i}`, { v: round })));
        // Every write that comes lands: the round's checkpoint, and a compaction's segments.
        for (;;) {
          const write = await held.next();
          await land(write);
          if (write.text.includes('"compactedBelow"')) compacted = true;
          if (!write.compaction) break;
        }
      }
      assert.equal(compacted, true);
      const left = segmentFiles(options.dir);
      assert.equal(left.includes(leftOver[0]!), false, `the failed compaction's segment is gone: ${left.join()}`);
      log.close();
      await documentWritesLanded();
      const records = loadCrashImage<V>(options.dir).records;
      assert.equal(records.size, 10);
      for (let i = 0; i < 10; i++) assert.equal(records.get(`k${i}`)?.v, round - 1);
    } finally {
      console.error = originalError;
      data.remove();
    }
  });

  it('that cannot remove an old segment says so once and goes on: no unhandled rejection, later changes acknowledged', async () => {
    const data = tempDir();
    const errors: unknown[][] = [];
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    const originalError = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    process.on('unhandledRejection', onUnhandled);
    try {
      const { log, held, first, options } = await compactionUnderWay(data.dir);
      // An old segment that will not go (a file held open by another program, on Windows): here a
      // directory of that name, which rmSync cannot remove without `recursive`.
      const stuck = segmentFiles(options.dir).sort()[0]!;
      fs.rmSync(path.join(options.dir, stuck));
      fs.mkdirSync(path.join(options.dir, stuck));
      fs.writeFileSync(path.join(options.dir, stuck, 'held'), '');
      await land(first);
      await land(await held.next());
      assert.deepEqual(unhandled, []);
      assert.equal(errors.length, 1);
      assert.match(String(errors[0]![0]), /could not remove a document its compaction replaced/);
      // The others went; the stuck one stays counted until a start removes it.
      assert.deepEqual(
        segmentFiles(options.dir).filter((file) => file <= stuck),
        [stuck]
      );
      assert.equal(log.segmentCount, 3);
      await Promise.all([log.put('k0', { v: 7 }), log.put('k1', { v: 7 })]);
      log.close();
      await documentWritesLanded();
    } finally {
      console.error = originalError;
      process.off('unhandledRejection', onUnhandled);
      data.remove();
    }
  });
});
