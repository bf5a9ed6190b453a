/**
 * A process that churns a segment log until it is killed, for crash tests of its compaction:
 * `node --import tsx segment-log-churn.ts <dir>`. The log compacts often (few records, little
 * garbage allowed) and checkpoints soon, through the document worker, as the task store does,
 * so that compactions run in the background while changes go on.
 *
 * Round after round it writes fifty keys `k0`…`k49` with `{ v: <round> }`, adds `tmp-<round>`
 * and deletes `tmp-<round - 1>`, all in one turn, and once every one of them is acknowledged
 * prints `acked <round> <segments the log counts now>` on stdout. The first line it prints is
 * `loaded <last round found>`.
 */
import path from 'node:path';
import { SegmentLog } from '../../app/store/segment-log.js';
import { confStoreFactory } from '../../app/store/json-file-store.js';

const dir = process.argv[2]!;
const log = new SegmentLog<{ v: number }>({
  dir: path.join(dir, 's'),
  corruptDir: path.join(dir, 'c'),
  factory: confStoreFactory,
  checkpointMs: 5,
  minGarbage: 20,
  compactSegmentSize: 10
});
const { records } = log.load((value) => value as { v: number });
const start = Math.max(-1, ...[...records.values()].map((value) => value.v)) + 1;
process.stdout.write(`loaded ${start - 1}\n`);
for (let round = start; ; round++) {
  const writes = Array.from({ length: 50 }, (_, i) => log.put(`k${i}`, { v: round }));
  writes.push(log.put(`tmp-${round}`, { v: round }), log.delete(`tmp-${round - 1}`));
  await Promise.all(writes);
  process.stdout.write(`acked ${round} ${log.segmentCount}\n`);
}
