/**
 * Run as a child process (`--expose-gc`): keeps 64 MiB of 1 MiB strings, collects, then keeps
 * 24 MiB more, one string a turn, and prints how many full collections ran meanwhile.
 *
 *   heap-growth-probe.ts host    the heap growth the host's process sets (`setHostHeapGrowth`)
 *   heap-growth-probe.ts tight   V8's heap growth set to 10 %, to show the probe can tell
 */
import { constants, PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';
import { setHostHeapGrowth } from '../../app/host/heap-growth.js';

const MiB = 1 << 20;
if (process.argv[2] === 'host') setHostHeapGrowth();
else v8.setFlagsFromString('--heap-growing-percent=10');

// A string read from JSON, as a server's message is: flat, in the V8 heap, one per index.
const piece = (index: number) => JSON.parse(JSON.stringify(`${'x'.repeat(MiB - 16)}${index}`)) as string;
const kept = Array.from({ length: 64 }, (_, index) => piece(index));
(globalThis as { gc?: () => void }).gc!();

let fullCollections = 0;
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries())
    if ((entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR)
      fullCollections++;
});
observer.observe({ entryTypes: ['gc'] });
for (let index = 0; index < 24; index++) {
  kept.push(piece(100 + index));
  await new Promise((resolve) => setImmediate(resolve));
}
// GC entries are delivered on a later turn: let them in before counting.
await new Promise((resolve) => setTimeout(resolve, 20));
observer.disconnect();
process.stdout.write(`${JSON.stringify({ fullCollections, keptMiB: kept.length })}\n`);
