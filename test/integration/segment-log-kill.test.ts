import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { confStoreFactory } from '../../app/store/json-file-store.js';
import { SegmentLog } from '../../app/store/segment-log.js';
import { compiledProgram } from '../support/compiled-program.js';
import { tempDir } from '../support/host-fixture.js';

const churn = compiledProgram(fileURLToPath(new URL('../support/segment-log-churn.ts', import.meta.url)));

/**
 * Starts the churning process on `dir`, lets it acknowledge `rounds` rounds past the one it
 * loaded, and kills it (SIGKILL) at once: returns the round it loaded, the last it acknowledged,
 * and whether its segments ever grew fewer (a compaction landed).
 */
async function churnAndKill(
  dir: string,
  rounds: number
): Promise<{ loaded: number; acked: number; compacted: boolean }> {
  const child = spawn(process.execPath, [churn, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let loaded: number | undefined;
  let acked = -1;
  let segments = 0;
  let compacted = false;
  for await (const line of createInterface({ input: child.stdout })) {
    const [word, n, count] = line.split(' ');
    if (word === 'loaded') loaded = Number(n);
    else if (word === 'acked') {
      acked = Number(n);
      if (Number(count) < segments) compacted = true;
      segments = Number(count);
      if (acked - loaded! >= rounds) {
        child.kill('SIGKILL');
        break;
      }
    }
  }
  await exited;
  return { loaded: loaded!, acked, compacted };
}

/** What a start finds in `dir` after a kill (it loads as the next start would, and closes). */
function startAfterKill(dir: string) {
  const log = new SegmentLog<{ v: number }>({
    dir: path.join(dir, 's'),
    corruptDir: path.join(dir, 'c'),
    factory: confStoreFactory,
    checkpointMs: 60_000
  });
  const loaded = log.load((value) => value as { v: number });
  log.close();
  return loaded;
}

/**
 * A process killed while its store churns (compactions in the background among checkpoints and
 * commits, see test/support/segment-log-churn.ts) loses nothing it acknowledged and brings back
 * nothing it deleted, whatever moment the kill hit.
 */
describe('a segment log killed while it churns and compacts', () => {
  it(
    'keeps every acknowledged change, and every acknowledged deletion, over a run of kills',
    { timeout: 120_000 },
    async () => {
      const data = tempDir();
      try {
        let compactions = 0;
        // Kills after different numbers of rounds, so that they hit different moments of a compaction.
        for (const rounds of [7, 12, 5, 23, 9, 16, 3, 30]) {
          const { acked, compacted } = await churnAndKill(data.dir, rounds);
          if (compacted) compactions++;
          const { records, quarantined } = startAfterKill(data.dir);
          assert.deepEqual(quarantined, []);
          // Each round is one commit (one turn): a start finds one whole round, at least the last
          // one acknowledged (the process may have gone on past what was read of its output),
          // with the temporary key of that round alone, every earlier one deleted.
          const temporary = [...records.keys()].filter((key) => key.startsWith('tmp-'));
          assert.equal(temporary.length, 1, `temporary keys: ${temporary.join()}`);
          const round = Number(temporary[0]!.slice(4));
          assert.ok(round >= acked, `the start found round ${round}, the last acknowledged was ${acked}`);
          for (let i = 0; i < 50; i++) assert.equal(records.get(`k${i}`)?.v, round, `k${i}`);
          assert.equal(records.size, 51);
        }
        // The runs compacted as they churned (how many of them depends on the machine's speed).
        assert.ok(compactions >= 1, `compactions landed in ${compactions} of the 8 runs`);
      } finally {
        data.remove();
      }
    }
  );
});
