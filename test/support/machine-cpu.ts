import fs from 'node:fs';

/** Clock ticks a second of `/proc/stat` (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * CPU time every process on the machine has used since boot, in ms, from `/proc/stat` (the
 * `cpu` line: user, nice, system, irq and softirq; not idle, iowait, or steal, which is the
 * hypervisor's time elsewhere). Linux only; elsewhere 0, so a difference reads 0. For a
 * benchmark on a small machine to say how busy its cores were beside what its own process used.
 */
export function machineBusyMs(): number {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
    const [, user, nice, system, , , irq, softirq] = line.trim().split(/\s+/).map(Number);
    return (((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0)) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}
