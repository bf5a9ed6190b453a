import fs from 'node:fs';
import path from 'node:path';
import { Session } from 'node:inspector/promises';

/**
 * Starts the inspector's CPU profiler (in this process) when the environment variable `envVar`
 * names a directory; the returned function stops it and writes `<dir>/<name>.cpuprofile`. Without
 * the variable, nothing is profiled. For the benchmarks' `*_BENCH_PROFILE` switches.
 */
export async function startProfile(envVar: string, name: string): Promise<() => Promise<void>> {
  const dir = process.env[envVar];
  if (!dir) return () => Promise.resolve();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 250 });
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  };
}

/**
 * Starts the inspector's sampling heap profiler (in this process) when the environment variable
 * `envVar` names a directory; the returned function stops it and writes `<dir>/<name>.heapprofile`
 * (DevTools opens it). With `allocated`, the samples of objects collected meanwhile are kept too,
 * so the profile shows everything allocated; without it, only what was still alive at the stop.
 */
export async function startHeapProfile(envVar: string, name: string, allocated: boolean): Promise<() => Promise<void>> {
  const dir = process.env[envVar];
  if (!dir) return () => Promise.resolve();
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    ...(allocated && { includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true })
  });
  return async () => {
    const { profile } = await session.post('HeapProfiler.stopSampling');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${name}.heapprofile`), JSON.stringify(profile));
    session.disconnect();
  };
}
