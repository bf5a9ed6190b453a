import fs from 'node:fs';

/** The longest gap between ticks of a watch, and what the main thread did in it (ms). */
export interface LongestStall {
  /** Wall time between the two ticks either side of the gap, less the tick interval. */
  ms: number;
  /**
   * The main thread's time on a CPU between the two ticks (the interval and the gap): the host's
   * own work, its code and its collections.
   */
  onCpuMs: number;
  /** The main thread's time between the two ticks ready to run but waiting for a CPU: the machine's doing. */
  waitingMs: number;
}

/** The main thread's schedstat (Linux): ns on a CPU and ns waiting on a run queue; elsewhere zeros. */
function mainThreadSchedstat(): [number, number] {
  try {
    const [onCpu, waiting] = fs.readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ');
    return [Number(onCpu), Number(waiting)];
  } catch {
    return [0, 0];
  }
}

/**
 * Watches the event loop with a timer every `intervalMs`, as `monitorEventLoopDelay` does, and
 * keeps its longest gap with the main thread's schedstat across it, so that a benchmark can tell a
 * stall the host caused (time on a CPU: its code or a collection) from one the machine caused (the
 * thread ready but every core busy with another process). Returns the function that stops it.
 */
export function watchStalls(intervalMs = 10): () => LongestStall {
  let last = performance.now();
  let [lastOnCpu, lastWaiting] = mainThreadSchedstat();
  const longest: LongestStall = { ms: 0, onCpuMs: 0, waitingMs: 0 };
  const timer = setInterval(() => {
    const now = performance.now();
    const [onCpu, waiting] = mainThreadSchedstat();
    const ms = now - last - intervalMs;
    if (ms > longest.ms) {
      longest.ms = ms;
      longest.onCpuMs = (onCpu - lastOnCpu) / 1e6;
      longest.waitingMs = (waiting - lastWaiting) / 1e6;
    }
    last = now;
    lastOnCpu = onCpu;
    lastWaiting = waiting;
  }, intervalMs);
  return () => {
    clearInterval(timer);
    return { ...longest };
  };
}
