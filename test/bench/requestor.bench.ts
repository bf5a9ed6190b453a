/**
 * Requestor polling benchmark.
 *
 * 1,000 concurrent outbound tasks on one stdio server (a child process, so its CPU is not
 * counted) with a known pollInterval and known durations. Counts the `tasks/get` requests
 * put on the wire against the minimum the intervals imply, and the host's CPU time
 * (process.cpuUsage) while waiting for all of them. Tasks are stored as the host stores them
 * (a journalled `SegmentLog`).
 *
 * Then the same 1,000 tasks on another server process, followed by the SDK as it ships: its own
 * in-memory follower (`client.experimental.tasks.callToolStream`) on its `Client` and its own
 * `StdioClientTransport`, with its CPU measured the same way: from the moment every task was
 * created until every result arrived. `cpu_vs_sdk` is Taskdesk's CPU over the SDK's (the bar: at
 * most 1.0, although Taskdesk also writes every change to disk). Taskdesk's stdio transport
 * (`GuardedStdioTransport`: the bounded queue, the line reader that answers what it refuses, the
 * corked writes) is part of Taskdesk's host, so its cost counts on Taskdesk's side. So that
 * nobody reads the figure as the follower alone, a third side runs the same SDK follower on
 * Taskdesk's transport, printed as `sdk_on_taskdesk_transport` and `cpu_vs_sdk_same_transport`.
 * Every side's transport is recorded with the same `recordSends`.
 *
 * Each side follows the 1,000 tasks in several batches on the same host objects and server
 * process (its client and transport, and for Taskdesk its requestor and store): six warm-up
 * batches (`REQUESTOR_BENCH_WARMUP`; the first is printed as `first_batch`), then four measured
 * (`REQUESTOR_BENCH_BATCHES`), whose CPU is added up (each batch's CPU, the warm-up ones too, is
 * printed in `per_batch_cpu_ms`).
 * Measured on its first batch, the SDK side ran on code the Taskdesk side had just made the JIT
 * compile (the stdio transport, the SDK's protocol, zod's schemas), while the Taskdesk side paid
 * for compiling them and its own follower, and for starting the store's document worker thread
 * (about a second of CPU under tsx). Measured on a second round of fresh objects instead, much of
 * the JIT's work was done again inside the window: V8's optimized code for the hot path holds on
 * to the objects it was specialized on (a follower environment's callbacks, a transport's
 * handlers), and once the first round's objects were collected that code was thrown away
 * (`--trace-deopt`: "weak objects"). A desktop host keeps one requestor and one client per server
 * while it runs, so the batches after the first measure that, for every side alike. One measured
 * batch was not enough: Taskdesk's code is larger than the SDK follower's, and its rarely called
 * parts (the journal's group commit, a task's result fetch) still reached TurboFan in the second
 * or third batch (`--trace-opt`: 16–46 compiles in a Taskdesk window against 5–15 in an SDK one,
 * single compiles of 30–90 ms on V8's platform threads), so one window's figure moved by a third
 * from run to run. Until December 2026 two warm-up batches came before the four measured, and the
 * figure went either side of 1.0 from run to run (0.82 to 1.12): Taskdesk's CPU was still falling
 * batch by batch inside the window while the SDK's was flat (one quiet run: Taskdesk 254, 295,
 * 186, 161 ms against the SDK's 192, 227, 178, 200; V8's platform threads 364 ms against 246),
 * and after five warm-up batches Taskdesk's was 142, 170, 148, 166 against 202, 204, 234, 166.
 * A host runs for hours: what it costs while following is what it costs once its code is
 * compiled, so the window now comes after six warm-up batches on every side; the old window
 * (batches 3–6) is still printed, as `early_cpu_vs_sdk`, so that how long Taskdesk takes to get
 * there shows. Each batch runs beside the earlier batches' finished tasks, kept (as the host
 * keeps them) in memory and in the log. Same tasks, intervals, durations and windows in every
 * batch.
 *
 * A full garbage collection runs just before each measured window (not counted): without it,
 * the heap a window starts with is what the previous batch left (35–55 MB here), and the one
 * major collection a window may need fell into one side's window or the other's by luck, moving
 * the ratio by a few tenths from run to run of the same build. (Collected at the start of the
 * batch instead, before its tasks were created, the heap the creation left made a second major
 * collection fall into Taskdesk's window.)
 *
 * The minimum per task is ceil(duration / pollInterval) counted from when the host learned
 * of the task: the server starts the work when it creates the task, and with 1,000 calls in
 * flight (each CreateTaskResult persisted with an fsync'd write) the answer can arrive
 * hundreds of ms later, when part of the work is already done. So each task's minimum is
 * max(1, ceil((serverCreatedAt + duration - hostCreatedAt) / pollInterval)); both times are
 * this machine's wall clock. The naive sum of ceil(duration / pollInterval) is printed too.
 *
 * Run: npm run bench:requestor (Node 22: `process.threadCpuUsage` is needed).
 * With REQUESTOR_BENCH_PROFILE=<dir>, each side's measured waits are CPU-profiled (the
 * inspector's Profiler, in this process) into <dir>/taskdesk-<batch>.cpuprofile,
 * <dir>/sdk-<batch>.cpuprofile and <dir>/sdk-same-transport-<batch>.cpuprofile; the profiler's
 * own cost then shows in every figure. REQUESTOR_BENCH_HEAP=<dir> writes a sampled heap profile
 * of each measured wait (<dir>/<side>-<batch>.heapprofile) of everything allocated in it; with
 * REQUESTOR_BENCH_HEAP_RETAINED=1, of what a full collection after the window leaves of it.
 * REQUESTOR_BENCH_MARKS=1 prints each window's start and end (performance.now() and the monotonic
 * clock in ns), to place the lines of `--trace-gc` or the samples of `perf record -k
 * CLOCK_MONOTONIC` in the windows. Each side's CPU by thread (Linux) is printed as
 * `threads_cpu_ms`: the main thread, V8's platform workers (compiler, GC helpers), libuv's pool
 * (the journal's fdatasync) and the store's document worker.
 */
import path from 'node:path';
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, type StdioServerParameters } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { GuardedStdioTransport, HostClient } from '../../app/mcp/sdk-seams.js';
import { systemClock } from '../../app/core/clock.js';
import { OutboundTasks } from '../../app/requestor/outbound-tasks.js';
import { confStoreFactory } from '../../app/store/json-file-store.js';
import { SegmentLog } from '../../app/store/segment-log.js';
import type { OutboundTaskDocument } from '../../app/requestor/outbound-task-store.js';
import { setHostHeapGrowth } from '../../app/host/heap-growth.js';
import { startHeapProfile, startProfile } from '../support/cpu-profile.js';
import { addThreadCpu, formatThreadCpu, threadCpuByName, threadCpuSince } from '../support/thread-cpu.js';
import { countSent, recordSends, tempTaskDir, type SentMessage } from '../support/requestor-harness.js';

// The heap growth main/main.ts and browser mode set before they create the host.
setHostHeapGrowth();

const TASKS = 1000;
/** Warm-up batches of each side, then batches measured (see above). */
const WARMUP_BATCHES = Math.max(1, Number(process.env.REQUESTOR_BENCH_WARMUP ?? 6));
/** Until December 2026 the measure came after this many warm-up batches; that window is still printed (`early_cpu_vs_sdk`). */
const EARLY_WARMUP_BATCHES = 2;
const MEASURED_BATCHES = Number(process.env.REQUESTOR_BENCH_BATCHES ?? 4);
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
  /** Garbage collections in the window: minor (scavenges) and major (mark-compact). */
  minorGcs: number;
  majorGcs: number;
  /** CPU by thread name (Linux), read outside the window. */
  threads: Map<string, number>;
}

/** The bench server as a child process, with the poll interval every side is given. */
const serverParameters: StdioServerParameters = {
  command: process.execPath,
  args: ['--import', 'tsx', serverScript, JSON.stringify({ pollInterval: POLL_INTERVAL_MS })],
  cwd: root,
  stderr: 'inherit'
};

/** A full collection before each window (see above): `gc` exposed at run time, so no flag is needed. */
v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

const taskdeskRun = await followWithTaskdesk();
const sdkRun = await followWithSdk('sdk');
const sdkSameRun = await followWithSdk('taskdesk');
const taskdesk = totalOfTaskdesk(taskdeskRun.measured);
const sdk = totalOfSdk(sdkRun.measured);
const sdkSame = totalOfSdk(sdkSameRun.measured);

console.log(
  `tasks=${TASKS} poll_interval_ms=${POLL_INTERVAL_MS} durations_ms=1250..2750 measured_batches=${MEASURED_BATCHES} (after ${WARMUP_BATCHES} warm-up batches; figures below are their totals)`
);
console.log(
  `create_all_ms=${taskdesk.createMs.toFixed(0)} wait_ms=${taskdesk.waitMs.toFixed(0)} completed=${taskdesk.completed}`
);
console.log(
  `tasks_get_sent=${taskdesk.polls} minimum=${taskdesk.minimum} naive_minimum=${taskdesk.naiveMinimum} (max creation lag ${taskdesk.maxLagMs} ms) tasks_result_sent=${taskdesk.results}`
);
console.log(`poll_lateness_ms p50=${taskdesk.lateness.p50} p99=${taskdesk.lateness.p99} max=${taskdesk.lateness.max}`);
const taskSeconds = (TASKS * taskdesk.waitMs) / 1000;
console.log(
  `host_cpu_ms_while_waiting=${taskdesk.cpu.cpuMs.toFixed(1)} (user ${taskdesk.cpu.user.toFixed(1)}, system ${taskdesk.cpu.system.toFixed(1)}; ${split(taskdesk.cpu)}) over ${taskSeconds.toFixed(0)} task-seconds`
);
console.log(
  `sdk_follower_cpu_ms_while_waiting=${sdk.cpu.cpuMs.toFixed(1)} (${split(sdk.cpu)}) sdk_tasks_get_sent=${sdk.polls} (callToolStream on the SDK's StdioClientTransport, same tasks)`
);
console.log(
  `sdk_on_taskdesk_transport_cpu_ms=${sdkSame.cpu.cpuMs.toFixed(1)} (${split(sdkSame.cpu)}) tasks_get_sent=${sdkSame.polls} cpu_vs_sdk_same_transport=${(taskdesk.cpu.cpuMs / sdkSame.cpu.cpuMs).toFixed(3)} (the same follower on GuardedStdioTransport: not the measure)`
);
console.log(
  `first_batch host_cpu_ms=${taskdeskRun.first.cpu.cpuMs.toFixed(1)} sdk_cpu_ms=${sdkRun.first.cpu.cpuMs.toFixed(1)} sdk_on_taskdesk_transport_cpu_ms=${sdkSameRun.first.cpu.cpuMs.toFixed(1)} first_cpu_vs_sdk=${(taskdeskRun.first.cpu.cpuMs / sdkRun.first.cpu.cpuMs).toFixed(3)} (the first warm-up batch, not the measure)`
);
console.log(`threads_cpu_ms taskdesk: ${formatThreadCpu(taskdesk.cpu.threads)}`);
console.log(`threads_cpu_ms sdk: ${formatThreadCpu(sdk.cpu.threads)}`);
const perBatch = (run: { warmUp: Array<{ cpu: Cpu }>; measured: Array<{ cpu: Cpu }> }) =>
  `[${run.warmUp.map((b) => b.cpu.cpuMs.toFixed(0)).join(' ')}] ${run.measured.map((b) => b.cpu.cpuMs.toFixed(0)).join(' ')}`;
console.log(
  `per_batch_cpu_ms (warm-up batches in brackets) taskdesk: ${perBatch(taskdeskRun)}; sdk: ${perBatch(sdkRun)}; sdk_on_taskdesk_transport: ${perBatch(sdkSameRun)}`
);
// The window measured until December 2026: the batches after the second warm-up one, as many as are measured.
const early = (run: { warmUp: Array<{ cpu: Cpu }>; measured: Array<{ cpu: Cpu }> }) =>
  [...run.warmUp, ...run.measured]
    .slice(EARLY_WARMUP_BATCHES, EARLY_WARMUP_BATCHES + MEASURED_BATCHES)
    .reduce((sum, b) => sum + b.cpu.cpuMs, 0);
if (WARMUP_BATCHES > EARLY_WARMUP_BATCHES)
  console.log(
    `early_cpu_vs_sdk=${(early(taskdeskRun) / early(sdkRun)).toFixed(3)} (batches ${EARLY_WARMUP_BATCHES + 1}–${EARLY_WARMUP_BATCHES + MEASURED_BATCHES}, the window measured until December 2026: Taskdesk's code still being compiled; not the measure)`
  );
if (taskdesk.polls < taskdesk.minimum)
  console.log(
    `warning: fewer polls than the minimum: the event loop was too busy to poll on time (creating the tasks took ${taskdesk.createMs.toFixed(0)} ms), and tasks that ended before the window make the figure undercount Taskdesk's CPU; run again on a quieter machine`
  );
console.log(
  `RESULT cpu_vs_sdk=${(taskdesk.cpu.cpuMs / sdk.cpu.cpuMs).toFixed(3)} polls_vs_minimum=${(taskdesk.polls / taskdesk.minimum).toFixed(3)} cpu_ms_per_task_second=${(taskdesk.cpu.cpuMs / taskSeconds).toFixed(3)}`
);

/**
 * Starts the profiles asked for of a measured wait: CPU (`REQUESTOR_BENCH_PROFILE`) and heap
 * (`REQUESTOR_BENCH_HEAP`: every allocation sampled, or with `REQUESTOR_BENCH_HEAP_RETAINED=1`
 * only what is alive at the window's end); the result stops them and writes them.
 */
async function startProfiles(name: string): Promise<() => Promise<void>> {
  const stopCpu = await startProfile('REQUESTOR_BENCH_PROFILE', name);
  const stopHeap = await startHeapProfile(
    'REQUESTOR_BENCH_HEAP',
    name,
    process.env.REQUESTOR_BENCH_HEAP_RETAINED !== '1'
  );
  return async () => {
    // What a retained profile shows is what a full collection leaves: the window's garbage is gone.
    if (process.env.REQUESTOR_BENCH_HEAP_RETAINED === '1') collectGarbage();
    await stopHeap();
    await stopCpu();
  };
}

/** Starts measuring CPU; the result stops and gives the figures. */
function cpuMeter(): () => Cpu {
  const threadsBefore = threadCpuByName();
  if (process.env.REQUESTOR_BENCH_MARKS)
    console.log(`WINDOW start ${performance.now().toFixed(0)} ${process.hrtime.bigint()}`);
  const gcs: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => gcs.push(...list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  const start = process.cpuUsage();
  const main = process.threadCpuUsage();
  return () => {
    const used = process.cpuUsage(start);
    const mainUsed = process.threadCpuUsage(main);
    gcs.push(...observer.takeRecords());
    observer.disconnect();
    const threads = threadCpuSince(threadsBefore);
    if (process.env.REQUESTOR_BENCH_MARKS)
      console.log(`WINDOW end ${performance.now().toFixed(0)} ${process.hrtime.bigint()}`);
    const kinds = gcs.map((entry) => (entry as unknown as { detail?: { kind?: number } }).detail?.kind);
    return {
      cpuMs: (used.user + used.system) / 1000,
      mainMs: (mainUsed.user + mainUsed.system) / 1000,
      user: used.user / 1000,
      system: used.system / 1000,
      minorGcs: kinds.filter((kind) => kind === constants.NODE_PERFORMANCE_GC_MINOR).length,
      majorGcs: kinds.filter((kind) => kind === constants.NODE_PERFORMANCE_GC_MAJOR).length,
      threads
    };
  };
}

/** How a side's CPU splits: the main thread, the rest (V8's GC helpers and compiler, the store's worker, libuv), collections. */
function split(cpu: Cpu): string {
  return `main thread ${cpu.mainMs.toFixed(1)}, other threads ${(cpu.cpuMs - cpu.mainMs).toFixed(1)}; gc ${cpu.minorGcs} minor ${cpu.majorGcs} major`;
}

/** The 1,000 tasks followed by Taskdesk's requestor, twice (see above), stored in a journalled log as the host stores them. */
async function followWithTaskdesk() {
  const temp = tempTaskDir();
  // The host's stdio transport (bounded queue, one drain listener), not the SDK's bare one.
  const transport = new GuardedStdioTransport(serverParameters);
  const sent = recordSends(transport, systemClock);
  // The host's client (its lean dispatch of responses), as `ServerConnection` makes it.
  const client = new HostClient({ name: 'requestor-bench', version: '0.0.0' });
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
  // One listener for both batches, so that the second runs the code the first made the JIT
  // optimize (a listener per batch would be a new function the optimized callers had not seen).
  const batch: { label: string; done: Set<string>; finished: () => void } = {
    label: '',
    done: new Set(),
    finished: () => undefined
  };
  manager.on((event) => {
    if (event.type !== 'changed' || event.task.outcome === undefined) return;
    if (!String(event.task.arguments.label).startsWith(batch.label) || batch.done.has(event.task.outboundId)) return;
    batch.done.add(event.task.outboundId);
    if (batch.done.size === TASKS) batch.finished();
  });
  const warmUp = [];
  for (let b = 1; b <= WARMUP_BATCHES; b++) warmUp.push(await taskdeskBatch(manager, sent, batch, `w${b}-`, undefined));
  const measured = [];
  for (let b = 1; b <= MEASURED_BATCHES; b++)
    measured.push(await taskdeskBatch(manager, sent, batch, `t${b}-`, `taskdesk-${b}`));
  manager.close();
  await client.close();
  temp.cleanup();
  return { first: warmUp[0]!, warmUp, measured };
}

/** One batch of the 1,000 tasks through `manager`; `label` keeps its tasks apart from an earlier batch's. */
async function taskdeskBatch(
  manager: OutboundTasks,
  allSent: SentMessage[],
  batch: { label: string; done: Set<string>; finished: () => void },
  label: string,
  profile: string | undefined
) {
  const sentBefore = allSent.length;
  const allDone = new Promise<void>((resolve) => (batch.finished = resolve));
  batch.label = label;
  batch.done = new Set();
  const mine = new Set<string>();

  const startWall = performance.now();
  const outcomes = await Promise.all(
    Array.from({ length: TASKS }, (_, i) =>
      manager.callTool('bench', 'work-required', { durationMs: durationOf(i), label: `${label}${i}` })
    )
  );
  const createMs = performance.now() - startWall;
  if (outcomes.some((o) => o.type !== 'task')) throw new Error('every call must be a task');
  for (const outcome of outcomes) if (outcome.type === 'task') mine.add(outcome.task.outboundId);

  const stopProfile = profile ? await startProfiles(profile) : () => Promise.resolve();
  collectGarbage();
  const meter = cpuMeter();
  const waitStart = performance.now();
  await allDone;
  const waitMs = performance.now() - waitStart;
  const cpu = meter();
  await stopProfile();

  const sent = allSent.slice(sentBefore);
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
  const completed = manager.list().filter((v) => mine.has(v.outboundId) && v.state === 'completed').length;
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
    lateness
  };
}

type TaskdeskBatch = Awaited<ReturnType<typeof taskdeskBatch>>;

/** The measured batches of Taskdesk's side added up (poll lateness over all of them). */
function totalOfTaskdesk(batches: TaskdeskBatch[]) {
  const sum = (pick: (b: TaskdeskBatch) => number) => batches.reduce((total, b) => total + pick(b), 0);
  const lateness = batches.flatMap((b) => b.lateness).sort((a, b) => a - b);
  const pct = (q: number) => lateness[Math.min(lateness.length - 1, Math.floor(q * lateness.length))] ?? 0;
  return {
    cpu: totalCpu(batches.map((b) => b.cpu)),
    createMs: Math.max(...batches.map((b) => b.createMs)),
    waitMs: sum((b) => b.waitMs),
    completed: sum((b) => b.completed),
    polls: sum((b) => b.polls),
    minimum: sum((b) => b.minimum),
    naiveMinimum: sum((b) => b.naiveMinimum),
    maxLagMs: Math.max(...batches.map((b) => b.maxLagMs)),
    results: sum((b) => b.results),
    lateness: { p50: pct(0.5), p99: pct(0.99), max: lateness.at(-1) ?? 0 }
  };
}

/** The measured batches of an SDK side added up. */
function totalOfSdk(batches: Array<{ cpu: Cpu; polls: number }>) {
  return { cpu: totalCpu(batches.map((b) => b.cpu)), polls: batches.reduce((total, b) => total + b.polls, 0) };
}

/** Several windows' CPU added up. */
function totalCpu(cpus: Cpu[]): Cpu {
  const sum = (pick: (cpu: Cpu) => number) => cpus.reduce((total, cpu) => total + pick(cpu), 0);
  return {
    cpuMs: sum((c) => c.cpuMs),
    mainMs: sum((c) => c.mainMs),
    user: sum((c) => c.user),
    system: sum((c) => c.system),
    minorGcs: sum((c) => c.minorGcs),
    majorGcs: sum((c) => c.majorGcs),
    threads: addThreadCpu(cpus.map((c) => c.threads))
  };
}

/**
 * The same tasks followed by the SDK's `callToolStream`, twice on one client and server process
 * (with the same poll interval): the host's CPU from when every task of a batch was created until
 * every result came in. `transport` is whose stdio transport it runs on: the SDK's own (the
 * measure) or Taskdesk's.
 */
async function followWithSdk(transport: 'sdk' | 'taskdesk') {
  const sdkTransport =
    transport === 'sdk' ? new StdioClientTransport(serverParameters) : new GuardedStdioTransport(serverParameters);
  // Recorded as Taskdesk's transport is, so every side pays for the same instrumentation.
  const sent = recordSends(sdkTransport, systemClock);
  const sdkClient = new Client({ name: 'requestor-bench-sdk', version: '0.0.0' });
  await sdkClient.connect(sdkTransport);
  await sdkClient.listTools();
  const warmUp = [];
  for (let b = 1; b <= WARMUP_BATCHES; b++) warmUp.push(await sdkBatch(sdkClient, sent, `w${b}-`, undefined));
  // The same follow function (see followSdkTask) and client for every batch.
  const measured = [];
  for (let b = 1; b <= MEASURED_BATCHES; b++)
    measured.push(
      await sdkBatch(sdkClient, sent, `s${b}-`, `${transport === 'sdk' ? 'sdk' : 'sdk-same-transport'}-${b}`)
    );
  await sdkClient.close();
  return { first: warmUp[0]!, warmUp, measured };
}

/** One batch of the 1,000 tasks through the SDK's follower; `profile` names the profile of a measured batch. */
async function sdkBatch(
  sdkClient: Client,
  allSent: SentMessage[],
  label: string,
  profile: string | undefined
): Promise<{ cpu: Cpu; polls: number }> {
  const sentBefore = allSent.length;
  const batch: SdkBatch = { label, created: 0, allCreated: () => undefined };
  const allCreated = new Promise<void>((resolve) => (batch.allCreated = resolve));
  let meter: (() => Cpu) | undefined;
  let stopProfile: () => Promise<void> = () => Promise.resolve();
  const started = allCreated.then(async () => {
    if (profile) stopProfile = await startProfiles(profile);
    collectGarbage();
    meter = cpuMeter();
  });
  await Promise.all(Array.from({ length: TASKS }, (_, i) => followSdkTask(sdkClient, batch, i)));
  await started;
  const cpu = meter!();
  await stopProfile();
  return { cpu, polls: countSent(allSent.slice(sentBefore), 'tasks/get') };
}

/** A batch of the SDK side: its tasks' label, and how many of them the server has created. */
interface SdkBatch {
  label: string;
  created: number;
  allCreated: () => void;
}

/** Follows one task with the SDK's `callToolStream` to its result (one function for every batch). */
async function followSdkTask(sdkClient: Client, batch: SdkBatch, i: number): Promise<void> {
  const stream = sdkClient.experimental.tasks.callToolStream(
    { name: 'work-required', arguments: { durationMs: durationOf(i), label: `${batch.label}${i}` } },
    CallToolResultSchema,
    { task: { ttl: 3_600_000 }, timeout: 600_000 }
  );
  for await (const message of stream) {
    if (message.type === 'taskCreated' && ++batch.created === TASKS) batch.allCreated();
    if (message.type === 'error') throw message.error;
  }
}
