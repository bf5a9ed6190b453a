/**
 * Storage bounds benchmark (`npm run bench:store-load`).
 *
 * 1. Start-up over data directories that hold more than the bounds: 64 MiB, 256 MiB and 1 GiB of
 *    finished 1 MiB elicitation tasks of one server (what the hostile run left behind), each
 *    loaded by a host with the default policy in a fresh process whose heap is capped at 256 MB
 *    (`--max-old-space-size`): start-up time, the repository's own count of what it held at its
 *    largest and at the end, the heap after the load, and the process's peak resident size.
 * 2. A flood: two in-memory SDK servers each send 1 MiB elicitations and cancel each at once
 *    (inside the rate limit), 200 each; the heap after it, what the repository holds, and what
 *    one `tasks.list` costs.
 *
 * Figures are printed; nothing is asserted. The last line is the RESULT line.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CancelTaskResultSchema, CreateTaskResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { Host } from '../../app/host/host.js';
import { defaultReceiverPolicy } from '../../app/receiver/receiver-policy.js';
import { TASK_RECORD_VERSION, type TaskRecord } from '../../app/receiver/task-record.js';
import { newTaskId } from '../../app/receiver/task-receiver.js';
import { confStoreFactory } from '../../app/store/json-file-store.js';
import { SegmentLog } from '../../app/store/segment-log.js';
import { setHostHeapGrowth } from '../../app/host/heap-growth.js';
import { peerServer, startHostWith, tempDir, type PeerServer } from '../support/host-fixture.js';

// The heap growth main/main.ts and browser mode set before they create the host.
setHostHeapGrowth();

const here = fileURLToPath(import.meta.url);
const MiB = 1024 * 1024;
const SIZES_MIB = (process.env.BENCH_SIZES_MIB ?? '0,64,256,1024').split(',').map(Number);
const FLOOD_PER_SERVER = Number(process.env.BENCH_FLOOD ?? 200);
const HEAP_CAP_MB = 256;
/** The heap bar the bounds are chosen for: the flood runs with the heap capped there. */
const FLOOD_HEAP_CAP_MB = 300;
const OWNER = { serverId: 'flood', serverName: 'Flood', identity: 'flood-identity' };

function mb(bytes: number): string {
  return (bytes / MiB).toFixed(1);
}

function heapAfterGc(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

/** A finished (cancelled) elicitation of about `size` bytes, finished at `at`. */
function finishedTask(size: number, at: number, sequence: number): TaskRecord {
  const iso = new Date(at).toISOString();
  return {
    schemaVersion: TASK_RECORD_VERSION,
    task: {
      taskId: newTaskId(),
      status: 'cancelled',
      statusMessage: 'The task was cancelled by request.',
      createdAt: iso,
      lastUpdatedAt: iso,
      ttl: 7 * 86_400_000,
      pollInterval: 5_000
    },
    owner: OWNER,
    kind: 'elicitation',
    request: {
      mode: 'form',
      message: 'x'.repeat(size),
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } } }
    },
    outcome: { type: 'error', error: { code: -32800, message: 'Task was cancelled' } },
    expiresAt: Date.now() + 7 * 86_400_000,
    notes: [],
    sequence
  };
}

/** Writes `mib` tasks of 1 MiB, four to a document (about what 200 ms of the hostile run made). */
async function buildStore(dir: string, mib: number): Promise<void> {
  const log = new SegmentLog<TaskRecord>({
    dir: path.join(dir, 'tasks'),
    corruptDir: path.join(dir, 'corrupt'),
    factory: confStoreFactory,
    journal: false
  });
  log.load((value) => value as TaskRecord);
  const start = Date.now() - mib * 1_000;
  for (let i = 0; i < mib; i += 4) {
    const group = Array.from({ length: Math.min(4, mib - i) }, (_, j) =>
      finishedTask(MiB - 600, start + (i + j) * 1_000, i + j + 1)
    );
    await Promise.all(group.map((record) => log.put(record.task.taskId, record)));
  }
  log.close();
}

function storedBytes(dir: string): number {
  let total = 0;
  for (const file of fs.readdirSync(path.join(dir, 'tasks'))) total += fs.statSync(path.join(dir, 'tasks', file)).size;
  return total;
}

/** In the child: starts a host over `dir` and prints what the load cost, as JSON. */
async function loadChild(dir: string): Promise<void> {
  const started = performance.now();
  const host = new Host({ dataDir: dir, autoConnect: false });
  const { restored } = host.start();
  const loadMs = performance.now() - started;
  const usage = host.receiver.usage();
  const heap = heapAfterGc();
  await host.close();
  const out = { loadMs, heap, maxRssBytes: process.resourceUsage().maxRSS * 1024, held: usage, peak: restored.peak };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

/** Runs this file in a fresh process (`--expose-gc`, the heap capped) and returns its last line as JSON. */
function inChild<T>(args: string[], heapCapMb: number): { ok: true; value: T } | { ok: false; why: string } {
  const child = spawnSync(
    process.execPath,
    [`--max-old-space-size=${heapCapMb}`, '--expose-gc', '--import', 'tsx', here, ...args],
    { encoding: 'utf8', maxBuffer: 16 * MiB }
  );
  if (child.status !== 0)
    return { ok: false, why: `exit ${child.status} ${child.signal ?? ''}: ${child.stderr.slice(-300).trim()}` };
  return { ok: true, value: JSON.parse(child.stdout.trim().split('\n').at(-1)!) as T };
}

/**
 * One 1 MiB elicitation, cancelled at once; false when the byte rate limit refused it (−32029,
 * which a server flooding 1 MiB requests meets within seconds): the flood then waits as told.
 */
async function floodOnce(peer: PeerServer): Promise<boolean> {
  let created;
  try {
    created = await peer.server.request(
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'y'.repeat(MiB - 1_000),
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
          task: { ttl: 7 * 86_400_000 }
        }
      },
      CreateTaskResultSchema
    );
  } catch (error) {
    if (!(error instanceof McpError) || error.code !== -32029) throw error;
    const wait = (error.data as { retryAfterMs?: number } | undefined)?.retryAfterMs ?? 100;
    await new Promise((resolve) => setTimeout(resolve, wait));
    return false;
  }
  await peer.server.request(
    { method: 'tasks/cancel', params: { taskId: created.task.taskId } },
    CancelTaskResultSchema
  );
  return true;
}

interface FloodFigures {
  heap: number;
  maxRssBytes: number;
  held: { tasks: number; bytes: number };
  listMs: number;
  listBytes: number;
  elapsedMs: number;
  /** Elicitations the byte rate limit refused (each waited out before the next). */
  refused: number;
}

/** In the child: two servers flood a host; prints the figures as JSON. */
async function floodChild(): Promise<void> {
  const a = peerServer('a');
  const b = peerServer('b');
  const fixture = await startHostWith({ a, b });
  try {
    let refused = 0;
    const started = performance.now();
    await Promise.all(
      [a, b].map(async (peer) => {
        for (let i = 0; i < FLOOD_PER_SERVER; i++) {
          // Inside the rate limit (50 operations a second, two per task): as the hostile server did.
          if (!(await floodOnce(peer))) refused++;
          await new Promise((resolve) => setTimeout(resolve, 40));
        }
      })
    );
    const elapsedMs = performance.now() - started;
    const heap = heapAfterGc();
    const held = fixture.host.receiver.usage();
    const t0 = performance.now();
    const list = await fixture.host.call('tasks.list', {});
    const listBytes = JSON.stringify(list).length;
    const listMs = performance.now() - t0;
    const out: FloodFigures = {
      heap,
      maxRssBytes: process.resourceUsage().maxRSS * 1024,
      held,
      listMs,
      listBytes,
      elapsedMs,
      refused
    };
    process.stdout.write(`${JSON.stringify(out)}\n`);
  } finally {
    await fixture.dispose();
  }
}

async function main(): Promise<void> {
  if (process.argv[2] === 'load') return loadChild(process.argv[3]!);
  if (process.argv[2] === 'flood') return floodChild();
  const policy = defaultReceiverPolicy;
  console.log(
    `Bounds: ${mb(policy.maxStoredBytesPerServer)} MiB stored per server, ${mb(policy.maxStoredBytesTotal)} MiB in all, ` +
      `${policy.maxFinishedTasksPerServer} finished tasks per server; each load runs with --max-old-space-size=${HEAP_CAP_MB}.`
  );
  console.log('stored MiB | start-up ms | peak held MiB | held at end MiB (tasks) | heap after MB | peak RSS MB');
  const rows: Array<{ stored: number; loadMs: number; rss: number; heap: number }> = [];
  for (const size of SIZES_MIB) {
    const data = tempDir('taskdesk-bench-load-');
    try {
      await buildStore(data.dir, size);
      const stored = storedBytes(data.dir);
      const child = inChild<{
        loadMs: number;
        heap: number;
        maxRssBytes: number;
        held: { tasks: number; bytes: number };
        peak: { bytes: number };
      }>(['load', data.dir], HEAP_CAP_MB);
      if (!child.ok) {
        console.log(`${mb(stored)} | failed: ${child.why}`);
        rows.push({ stored, loadMs: NaN, rss: NaN, heap: NaN });
        continue;
      }
      const out = child.value;
      console.log(
        `${mb(stored)} | ${out.loadMs.toFixed(0)} | ${mb(out.peak.bytes)} | ${mb(out.held.bytes)} (${out.held.tasks}) | ${mb(out.heap)} | ${mb(out.maxRssBytes)}`
      );
      rows.push({ stored, loadMs: out.loadMs, rss: out.maxRssBytes, heap: out.heap });
    } finally {
      data.remove();
    }
  }
  const floodRun = inChild<FloodFigures>(['flood'], FLOOD_HEAP_CAP_MB);
  if (!floodRun.ok) {
    console.log(`Flood: failed under a ${FLOOD_HEAP_CAP_MB} MB heap: ${floodRun.why}`);
    console.log(`RESULT store-load: flood failed (${floodRun.why.slice(0, 80)})`);
    return;
  }
  const flooded = floodRun.value;
  console.log(
    `Flood: 2 servers × ${FLOOD_PER_SERVER} cancelled 1 MiB elicitations (${flooded.refused} refused by the byte rate, each waited out) in ${(flooded.elapsedMs / 1000).toFixed(1)} s; ` +
      `held ${mb(flooded.held.bytes)} MiB in ${flooded.held.tasks} tasks; heap after ${mb(flooded.heap)} MB; ` +
      `tasks.list ${flooded.listMs.toFixed(1)} ms, ${(flooded.listBytes / 1024).toFixed(0)} KiB; peak RSS ${mb(flooded.maxRssBytes)} MB ` +
      `(heap capped at ${FLOOD_HEAP_CAP_MB} MB)`
  );
  const last = rows.at(-1)!;
  console.log(
    `RESULT store-load: ${mb(last.stored)} MiB stored loads in ${last.loadMs.toFixed(0)} ms with peak RSS ${mb(last.rss)} MB ` +
      `(heap after ${mb(last.heap)} MB, heap capped at ${HEAP_CAP_MB} MB); flood of 2×${FLOOD_PER_SERVER} MiB leaves ` +
      `${mb(flooded.heap)} MB heap, tasks.list ${(flooded.listBytes / 1024).toFixed(0)} KiB`
  );
}

await main();
