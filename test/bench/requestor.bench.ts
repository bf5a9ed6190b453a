/**
 * Requestor polling benchmark.
 *
 * 1,000 concurrent outbound tasks on one stdio server (a child process, so its CPU is not
 * counted) with a known pollInterval and known durations. Counts the `tasks/get` requests
 * put on the wire against the minimum the intervals imply, and the host's CPU time
 * (process.cpuUsage) while waiting for all of them. Tasks are stored as the host stores them
 * (a journalled `SegmentLog`).
 *
 * Then the same 1,000 tasks on a fresh server process, followed by the SDK's own in-memory
 * follower (`client.experimental.tasks.callToolStream`), with its CPU measured the same way: from
 * the moment every task was created until every result arrived. `cpu_vs_sdk` is Taskdesk's CPU
 * over the SDK's (the bar: at most 1.0, although Taskdesk also writes every change to disk).
 *
 * Both sides run twice, in the same order, and the second round is the one measured (the first
 * is printed as `cold_...`). Measured in one round only, the SDK side ran on code the Taskdesk
 * side had just made the JIT compile (the stdio transport, the SDK's protocol, zod's schemas),
 * while the Taskdesk side paid for compiling them and its own follower, and for starting the
 * store's document worker thread (about a second of CPU under tsx): run first instead, the same
 * SDK follower cost 500–740 ms here against 310–470 ms when run second. A desktop host follows
 * tasks warm; so does each side now. Same tasks, intervals, durations and windows in both rounds.
 *
 * The minimum per task is ceil(duration / pollInterval) counted from when the host learned
 * of the task: the server starts the work when it creates the task, and with 1,000 calls in
 * flight (each CreateTaskResult persisted with an fsync'd write) the answer can arrive
 * hundreds of ms later, when part of the work is already done. So each task's minimum is
 * max(1, ceil((serverCreatedAt + duration - hostCreatedAt) / pollInterval)); both times are
 * this machine's wall clock. The naive sum of ceil(duration / pollInterval) is printed too.
 *
 * Run: node_modules/.bin/tsx test/bench/requestor.bench.ts
 * With REQUESTOR_BENCH_PROFILE=<dir>, each side's measured wait is CPU-profiled (the inspector's
 * Profiler, in this process) into <dir>/taskdesk.cpuprofile and <dir>/sdk.cpuprofile; the
 * profiler's own cost then shows in both figures.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { GuardedStdioTransport } from '../../app/mcp/sdk-seams.js';
import { systemClock } from '../../app/core/clock.js';
import { OutboundTasks } from '../../app/requestor/outbound-tasks.js';
import { confStoreFactory } from '../../app/store/json-file-store.js';
import { SegmentLog } from '../../app/store/segment-log.js';
import type { OutboundTaskDocument } from '../../app/requestor/outbound-task-store.js';
import { countSent, recordSends, tempTaskDir } from '../support/requestor-harness.js';

const TASKS = 1000;
const POLL_INTERVAL_MS = 500;
/** Durations sit mid-interval (250 ms off a multiple) so timer jitter cannot decide a poll either way. */
const durationOf = (i: number): number => 1250 + (i % 4) * 500;

const root = fileURLToPath(new URL('../../', import.meta.url));
const serverScript = fileURLToPath(new URL('../support/requestor-stdio-server.ts', import.meta.url));

/** CPU of the whole process (every thread) and of the main thread alone, in ms. */
interface Cpu {
  cpuMs: number;
  mainMs: number;
  user: number;
  system: number;
}

const cold = { taskdesk: await followWithTaskdesk(false), sdk: await followWithSdk(false) };
const taskdesk = await followWithTaskdesk(true);
const sdk = await followWithSdk(true);

console.log(`tasks=${TASKS} poll_interval_ms=${POLL_INTERVAL_MS} durations_ms=1250..2750`);
console.log(
  `create_all_ms=${taskdesk.createMs.toFixed(0)} wait_ms=${taskdesk.waitMs.toFixed(0)} completed=${taskdesk.completed}`
);
console.log(
  `tasks_get_sent=${taskdesk.polls} minimum=${taskdesk.minimum} naive_minimum=${taskdesk.naiveMinimum} (max creation lag ${taskdesk.maxLagMs} ms) tasks_result_sent=${taskdesk.results}`
);
console.log(`poll_lateness_ms p50=${taskdesk.lateness.p50} p99=${taskdesk.lateness.p99} max=${taskdesk.lateness.max}`);
const taskSeconds = (TASKS * taskdesk.waitMs) / 1000;
console.log(
  `host_cpu_ms_while_waiting=${taskdesk.cpu.cpuMs.toFixed(1)} (user ${taskdesk.cpu.user.toFixed(1)}, system ${taskdesk.cpu.system.toFixed(1)}; main thread ${taskdesk.cpu.mainMs.toFixed(1)}) over ${taskSeconds.toFixed(0)} task-seconds`
);
console.log(
  `sdk_follower_cpu_ms_while_waiting=${sdk.cpu.cpuMs.toFixed(1)} (main thread ${sdk.cpu.mainMs.toFixed(1)}) sdk_tasks_get_sent=${sdk.polls} (callToolStream, same tasks, fresh server)`
);
console.log(
  `cold_round host_cpu_ms=${cold.taskdesk.cpu.cpuMs.toFixed(1)} sdk_cpu_ms=${cold.sdk.cpu.cpuMs.toFixed(1)} cold_cpu_vs_sdk=${(cold.taskdesk.cpu.cpuMs / cold.sdk.cpu.cpuMs).toFixed(3)} (first round, not the measure)`
);
console.log(
  `RESULT cpu_vs_sdk=${(taskdesk.cpu.cpuMs / sdk.cpu.cpuMs).toFixed(3)} polls_vs_minimum=${(taskdesk.polls / taskdesk.minimum).toFixed(3)} cpu_ms_per_task_second=${(taskdesk.cpu.cpuMs / taskSeconds).toFixed(3)}`
);

/** Starts measuring CPU; the result stops and gives the figures. */
function cpuMeter(): () => Cpu {
  const start = process.cpuUsage();
  const main = process.threadCpuUsage();
  return () => {
    const used = process.cpuUsage(start);
    const mainUsed = process.threadCpuUsage(main);
    return {
      cpuMs: (used.user + used.system) / 1000,
      mainMs: (mainUsed.user + mainUsed.system) / 1000,
      user: used.user / 1000,
      system: used.system / 1000
    };
  };
}

/** The 1,000 tasks followed by Taskdesk's requestor, stored in a journalled log as the host stores them. */
async function followWithTaskdesk(measured: boolean) {
  const temp = tempTaskDir();
  // The host's stdio transport (bounded queue, one drain listener), not the SDK's bare one.
  const transport = new GuardedStdioTransport({
    command: process.execPath,
    args: ['--import', 'tsx', serverScript, JSON.stringify({ pollInterval: POLL_INTERVAL_MS })],
    cwd: root,
    stderr: 'inherit'
  });
  const sent = recordSends(transport, systemClock);
  const client = new Client({ name: 'requestor-bench', version: '0.0.0' });
  await client.connect(transport);
  // Stored as the host stores them: a journalled log in the task directory.
  const log = new SegmentLog<OutboundTaskDocument>({
    dir: path.join(temp.dir.dir, 'log'),
    corruptDir: path.join(temp.root, 'corrupt'),
    factory: confStoreFactory
  });
  const manager = new OutboundTasks({ dir: temp.dir, log, clock: systemClock });
  manager.attach('bench', 'Bench Server', client);
  await manager.listTools('bench');

  let finished = 0;
  let resolveAll!: () => void;
  const allDone = new Promise<void>((resolve) => (resolveAll = resolve));
  const done = new Set<string>();
  manager.on((event) => {
    if (event.type === 'changed' && event.task.outcome !== undefined && !done.has(event.task.outboundId)) {
      done.add(event.task.outboundId);
      if (++finished === TASKS) resolveAll();
    }
  });

  const startWall = performance.now();
  const outcomes = await Promise.all(
    Array.from({ length: TASKS }, (_, i) =>
      manager.callTool('bench', 'work-required', { durationMs: durationOf(i), label: `t${i}` })
    )
  );
  const createMs = performance.now() - startWall;
  if (outcomes.some((o) => o.type !== 'task')) throw new Error('every call must be a task');

  const stopProfile = measured ? await startProfile('taskdesk') : () => Promise.resolve();
  const meter = cpuMeter();
  const waitStart = performance.now();
  await allDone;
  const waitMs = performance.now() - waitStart;
  const cpu = meter();
  await stopProfile();

  const polls = countSent(sent, 'tasks/get');
  const naiveMinimum = Array.from({ length: TASKS }, (_, i) => Math.ceil(durationOf(i) / POLL_INTERVAL_MS)).reduce(
    (a, b) => a + b,
    0
  );
  let minimum = 0;
  let maxLagMs = 0;
  outcomes.forEach((outcome, i) => {
    if (outcome.type !== 'task') return;
    const lag = Date.parse(outcome.task.createdAt) - Date.parse(outcome.task.task.createdAt);
    maxLagMs = Math.max(maxLagMs, lag);
    minimum += Math.max(1, Math.ceil((durationOf(i) - lag) / POLL_INTERVAL_MS));
  });
  const results = countSent(sent, 'tasks/result');
  // How late polls went out against the schedule (createdAt, then the previous poll, plus the interval).
  const created = new Map<string, number>();
  for (const outcome of outcomes)
    if (outcome.type === 'task') created.set(outcome.task.taskId, Date.parse(outcome.task.createdAt));
  const lastPoll = new Map<string, number>();
  const lateness: number[] = [];
  for (const m of sent) {
    if (m.method !== 'tasks/get') continue;
    const taskId = String(m.params?.taskId);
    const base = lastPoll.get(taskId) ?? created.get(taskId);
    if (base !== undefined) lateness.push(m.at - (base + POLL_INTERVAL_MS));
    lastPoll.set(taskId, m.at);
  }
  lateness.sort((a, b) => a - b);
  const pct = (q: number) => lateness[Math.min(lateness.length - 1, Math.floor(q * lateness.length))] ?? 0;
  const completed = manager.list().filter((v) => v.state === 'completed').length;

  manager.close();
  await client.close();
  temp.cleanup();
  return {
    cpu,
    createMs,
    waitMs,
    completed,
    polls,
    minimum,
    naiveMinimum,
    maxLagMs,
    results,
    lateness: { p50: pct(0.5), p99: pct(0.99), max: lateness.at(-1) ?? 0 }
  };
}

/**
 * The same tasks followed by the SDK's `callToolStream` on a fresh server process (with the same
 * poll interval): the host's CPU from when every task was created until every result came in.
 */
async function followWithSdk(measured: boolean): Promise<{ cpu: Cpu; polls: number }> {
  const sdkTransport = new GuardedStdioTransport({
    command: process.execPath,
    args: ['--import', 'tsx', serverScript, JSON.stringify({ pollInterval: POLL_INTERVAL_MS })],
    cwd: root,
    stderr: 'inherit'
  });
  // Recorded as Taskdesk's transport is, so both sides pay for the same instrumentation.
  const sdkSent = recordSends(sdkTransport, systemClock);
  const sdkClient = new Client({ name: 'requestor-bench-sdk', version: '0.0.0' });
  await sdkClient.connect(sdkTransport);
  await sdkClient.listTools();
  let created = 0;
  let resolveCreated!: () => void;
  const allCreated = new Promise<void>((resolve) => (resolveCreated = resolve));
  let meter: (() => Cpu) | undefined;
  let stopProfile: () => Promise<void> = () => Promise.resolve();
  const started = allCreated.then(async () => {
    if (measured) stopProfile = await startProfile('sdk');
    meter = cpuMeter();
  });
  const follow = async (i: number): Promise<void> => {
    const stream = sdkClient.experimental.tasks.callToolStream(
      { name: 'work-required', arguments: { durationMs: durationOf(i), label: `s${i}` } },
      CallToolResultSchema,
      { task: { ttl: 3_600_000 }, timeout: 600_000 }
    );
    for await (const message of stream) {
      if (message.type === 'taskCreated' && ++created === TASKS) resolveCreated();
      if (message.type === 'error') throw message.error;
    }
  };
  await Promise.all(Array.from({ length: TASKS }, (_, i) => follow(i)));
  await started;
  const cpu = meter!();
  await stopProfile();
  await sdkClient.close();
  return { cpu, polls: countSent(sdkSent, 'tasks/get') };
}

/** Starts the inspector's CPU profiler when REQUESTOR_BENCH_PROFILE names a directory; the result stops it and writes `<name>.cpuprofile`. */
async function startProfile(name: string): Promise<() => Promise<void>> {
  const dir = process.env.REQUESTOR_BENCH_PROFILE;
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
