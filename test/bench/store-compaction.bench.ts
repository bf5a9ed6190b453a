/**
 * The store's compaction and the event loop (`npm run bench:store-compaction`).
 *
 * A segment log like the task store's (journal, background checkpoints through the document
 * worker) holds RECORDS records of about 1 KB. Each round writes every record again, 50 changes a
 * turn of the event loop, each awaited as a caller awaits its acknowledgement, then lets the
 * checkpoints land; a timer that ticks every millisecond records the longest gap between two
 * ticks, which is the longest the event loop was held. The first rounds leave fewer stale entries
 * than live ones; the round after them makes the stale entries outnumber the live ones, so that a
 * compaction rewrites every live record. Until December 2026 that compaction ran on the event
 * loop: with 20,000 records, the rounds that compacted held it 110–113 ms against 28–42 ms since
 * it runs in the background (the rounds that did not compact: 30–41 ms with either, the
 * checkpoints' own work). A last check loads the log again and finds every record at its last
 * value.
 *
 * Figures are printed; nothing is asserted. The last line is the RESULT line: the longest gap of
 * the round that compacted, and of the rounds that did not.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { documentWritesLanded } from '../../app/store/document-writer.js';
import { confStoreFactory } from '../../app/store/json-file-store.js';
import { SegmentLog } from '../../app/store/segment-log.js';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 20_000);
const PER_TURN = 50;

type Value = { id: string; round: number; payload: string };

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'taskdesk-compaction-bench-'));
const options = { dir: path.join(dir, 'tasks'), corruptDir: path.join(dir, 'corrupt'), factory: confStoreFactory };
const log = new SegmentLog<Value>(options);
log.load((value) => value as Value);

const segmentFiles = () => fs.readdirSync(options.dir).filter((file) => /^seg-\d+\.json$/.test(file));

/**
 * One round: every record written again; the longest gap between two 1 ms ticks meanwhile, and
 * whether a compaction ran (checkpoints only add segments; a compaction removes those before it).
 */
async function round(n: number): Promise<{ gapMs: number; compaction: boolean; segments: string }> {
  const before = segmentFiles();
  let last = performance.now();
  let gapMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    gapMs = Math.max(gapMs, now - last);
    last = now;
  }, 1);
  for (let start = 0; start < RECORDS; start += PER_TURN) {
    const writes: Array<Promise<void>> = [];
    for (let i = start; i < Math.min(RECORDS, start + PER_TURN); i++)
      writes.push(log.put(`t-${i}`, { id: `t-${i}`, round: n, payload: 'x'.repeat(900) }));
    await Promise.all(writes);
  }
  // The checkpoints (200 ms after the last change) and any compaction they start, landed.
  await new Promise((resolve) => setTimeout(resolve, 600));
  await documentWritesLanded();
  clearInterval(ticker);
  const after = segmentFiles();
  return {
    gapMs,
    compaction: before.some((file) => !after.includes(file)),
    segments: `${before.length} -> ${after.length}`
  };
}

const plain: number[] = [];
const compacted: number[] = [];
for (let n = 0; n < 6; n++) {
  const { gapMs, compaction, segments } = await round(n);
  (compaction ? compacted : plain).push(gapMs);
  console.log(
    `round ${n + 1}: longest gap ${gapMs.toFixed(1)} ms, segments ${segments}${compaction ? ' (compacted)' : ''}`
  );
}
log.close();
await documentWritesLanded();
const again = new SegmentLog<Value>(options);
const { records } = again.load((value) => value as Value);
again.close();
await documentWritesLanded();
const whole = records.size === RECORDS && [...records.values()].every((value) => value.round === 5);
console.log(`reloaded: ${records.size} records, every one at its last value: ${whole}`);
fs.rmSync(dir, { recursive: true, force: true });

const max = (values: number[]) => (values.length === 0 ? NaN : Math.max(...values));
console.log(
  `${RECORDS} records of about 1 KB, written again each round, ${PER_TURN} a turn: rounds that compacted ${compacted.length}, that did not ${plain.length}`
);
console.log(`RESULT compaction_round_gap_ms=${max(compacted).toFixed(1)} plain_round_gap_ms=${max(plain).toFixed(1)}`);
