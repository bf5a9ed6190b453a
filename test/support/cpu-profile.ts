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
