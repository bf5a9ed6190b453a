/**
 * How far V8 lets the host's heap grow between full garbage collections.
 *
 * V8 sizes the heap's next limit from what survived the last full collection times a factor it
 * derives from how fast it marks against how fast the program allocates (between 1.1 and 4), and
 * starts marking once the headroom left is less than the young generation. While one server sent
 * 1 MB questions, that left the host a few megabytes of growth between full collections: one
 * about every 400 ms (`--trace-gc`), each holding every other server's requests and the window's
 * for up to 25 ms. (Other workloads get a larger factor from V8; this one did not.)
 *
 * The host sets the factor to 2 instead: the next full collection comes once the heap has grown
 * to twice what survived the last, the rule Go's collector runs by default (`GOGC=100`). Memory
 * stays proportional to what the host keeps (its bounds: see the README's policy table), and
 * V8 still collects earlier when the heap nears its maximum. There is no API for it: the V8
 * flag is set at run time, which Node and Electron's main process both allow (Electron starts
 * V8 with `--no-freeze-flags-after-init` for this); it applies to the whole process, workers
 * included, so the process that runs the host sets it once, before creating the host.
 */
import v8 from 'node:v8';

/** Percent the old generation may grow past what survived the last full collection. */
export const HEAP_GROWING_PERCENT = 100;

/** Sets the process's heap growth for a host (setting it again changes nothing). */
export function setHostHeapGrowth(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
