import fs from 'node:fs';

/** The threads there were when this module loaded (before any worker thread of ours). */
const startupThreads = new Set(listThreads());

function listThreads(): string[] {
  try {
    return fs.readdirSync('/proc/self/task');
  } catch {
    return [];
  }
}

/**
 * CPU time of this process's threads by thread name (Linux only: `/proc/self/task/<tid>/schedstat`,
 * nanoseconds on a CPU), so that a benchmark can say which of its "other threads" ran: V8's
 * platform workers (GC helpers and the compiler: `v8-platform`), libuv's pool (fdatasync:
 * `libuv-worker`), a worker thread started later (`later-node-thread`: the store's document
 * writer), and so on. Elsewhere an empty map.
 */
export function threadCpuByName(): Map<string, number> {
  // Node names V8's platform workers and a worker thread's alike ("node"): told apart by when they started.
  const byName = new Map<string, number>();
  for (const tid of listThreads()) {
    try {
      const name = fs.readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
      const ns = Number(fs.readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      // Threads that share a name (the pool's four workers) are added up; the main thread is its own.
      const key =
        tid === String(process.pid)
          ? 'main'
          : name === 'node'
            ? startupThreads.has(tid)
              ? 'v8-platform'
              : 'later-node-thread'
            : name;
      byName.set(key, (byName.get(key) ?? 0) + ns / 1e6);
    } catch {
      // A thread that ended between the listing and the read.
    }
  }
  return byName;
}

/** The CPU each thread name used between two readings, in ms. */
export function threadCpuSince(before: Map<string, number>, after = threadCpuByName()): Map<string, number> {
  const used = new Map<string, number>();
  for (const [name, ms] of after) used.set(name, ms - (before.get(name) ?? 0));
  return used;
}

/** Thread CPU readings added up by name (several windows of one side). */
export function addThreadCpu(readings: Iterable<Map<string, number>>): Map<string, number> {
  const total = new Map<string, number>();
  for (const reading of readings) for (const [name, ms] of reading) total.set(name, (total.get(name) ?? 0) + ms);
  return total;
}

/** Thread CPU in ms, largest first: `name 12.3, ...` (threads under 0.05 ms left out). */
export function formatThreadCpu(used: Map<string, number>): string {
  return [...used]
    .filter(([, ms]) => ms >= 0.05)
    .sort((a, b) => b[1] - a[1])
    .map(([name, ms]) => `${name} ${ms.toFixed(1)}`)
    .join(', ');
}
