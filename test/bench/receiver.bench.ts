/**
 * Receiver benchmark (`npm run bench:receiver`).
 *
 * A real SDK server in a child process over stdio sends task-augmented sampling requests as fast
 * as they are acknowledged (16 in flight), first to a Taskdesk host (durable store, a runner that
 * answers at once) with 100, 1,000 and 10,000 tasks already retained, then to an SDK client using
 * the SDK's `InMemoryTaskStore` with the same numbers retained. Also measured: the cost of persisting
 * one transition at 100 and 10,000 retained tasks, and the time from starting a host over 10,000
 * stored tasks until it answers `tasks/get`.
 *
 * Figures are printed; nothing is asserted. The last line is the RESULT line.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js';
import { CreateMessageRequestSchema, GetTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { createHost } from '../../app/host/host.js';
import { CLIENT_CAPABILITIES } from '../../app/mcp/server-connection.js';
import { TASK_RECORD_VERSION, type TaskRecord } from '../../app/receiver/task-record.js';
import { TaskRepository } from '../../app/receiver/task-repository.js';
import { newTaskId } from '../../app/receiver/task-receiver.js';
import { SegmentLog } from '../../app/store/segment-log.js';
import { confStoreFactory } from '../../app/store/json-file-store.js';
import { setHostHeapGrowth } from '../../app/host/heap-growth.js';
import { instantSamplingRunner } from '../support/instant-runner.js';
import { peerServer, startHostWith } from '../support/host-fixture.js';

// The heap growth main/main.ts and browser mode set before they create the host.
setHostHeapGrowth();

const here = path.dirname(fileURLToPath(import.meta.url));
const peerScript = path.join(here, '..', 'support', 'task-peer-server.ts');
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const RETAINED = [100, 1_000, 10_000];
const OWNER = { serverId: 'flood', serverName: 'Flood', identity: 'unused' };
// The storage bounds too: this benchmark measures 10,000 retained tasks of one server, ten times
// the default bound on finished tasks (store-load.bench.ts measures the bounds).
const relaxed = {
  operationsPerSecond: 1e6,
  operationsBurst: 1e6,
  maxActiveTasksPerServer: 1e6,
  maxFinishedTasksPerServer: 1e6,
  maxFinishedTasksTotal: 1e6,
  maxStoredBytesPerServer: 1e12,
  maxStoredBytesTotal: 1e12,
  maxOpenBytesPerServer: 1e12,
  maxOpenBytesTotal: 1e12
};

interface FloodReport {
  latencies: number[];
  elapsedMs: number;
  /** CPU time the flooding server itself used during the flood. */
  peerCpuMs: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

function summarize(report: FloodReport) {
  const sorted = [...report.latencies].sort((a, b) => a - b);
  return {
    acksPerSecond: (report.latencies.length / report.elapsedMs) * 1000,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    // Above about 75 µs/ack × acks/s = 1 core, the server, not the host, is what limits the rate.
    peerBusy: report.peerCpuMs / report.elapsedMs
  };
}

function completedRecord(identity: string, createdAt: number): TaskRecord {
  const iso = new Date(createdAt).toISOString();
  return {
    schemaVersion: TASK_RECORD_VERSION,
    task: {
      taskId: newTaskId(),
      status: 'completed',
      createdAt: iso,
      lastUpdatedAt: iso,
      ttl: 86_400_000,
      pollInterval: 1000
    },
    owner: { ...OWNER, identity },
    kind: 'sampling',
    request: { messages: [{ role: 'user', content: { type: 'text', text: 'retained task' } }], maxTokens: 5 },
    expiresAt: createdAt + 86_400_000,
    outcome: { type: 'result', result: { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'instant' } },
    notes: [],
    sequence: 0
  };
}

/** Writes `count` completed tasks into a data directory, as a previous run would have left them. */
async function seed(dataDir: string, count: number, identity: string): Promise<TaskRepository> {
  const corruptDir = path.join(dataDir, 'corrupt');
  const log = new SegmentLog<TaskRecord>({ dir: path.join(dataDir, 'tasks'), corruptDir, factory: confStoreFactory });
  const repo = new TaskRepository(log, corruptDir);
  const now = Date.now();
  // Written in batches of 100, as a long-running host would have left them.
  for (let i = 0; i < count; i += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, count - i) }, (_, j) => repo.save(completedRecord(identity, now + i + j)))
    );
  }
  // Checkpointed into documents, as a host that has been up a while leaves them.
  repo.flush();
  return repo;
}

function floodEnv(reportFile: string, concurrency: number): Record<string, string> {
  return {
    ...getDefaultEnvironment(),
    FLOOD_COUNT: String(REQUESTS),
    FLOOD_CONCURRENCY: String(concurrency),
    FLOOD_REPORT_FILE: reportFile
  };
}

async function waitForFile(file: string): Promise<FloodReport> {
  const dir = path.dirname(file);
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!fs.existsSync(file)) return;
      try {
        const report = JSON.parse(fs.readFileSync(file, 'utf8')) as FloodReport;
        watcher.close();
        resolve(report);
      } catch {
        // Partly written: wait for the next change.
      }
    };
    const watcher = fs.watch(dir, check);
    watcher.on('error', reject);
    check();
  });
}

async function floodTaskdesk(retained: number, concurrency = 16): Promise<FloodReport> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taskdesk-bench-'));
  const reportFile = path.join(dataDir, 'report.json');
  const config = {
    id: 'flood',
    name: 'Flood',
    transport: {
      type: 'stdio' as const,
      command: process.execPath,
      args: ['--import', 'tsx', peerScript],
      env: floodEnv(reportFile, concurrency)
    }
  };
  const { ownerIdentity } = await import('../../app/mcp/server-config.js');
  const { ServerConfigSchema } = await import('../../app/contract/host-api.js');
  await seed(dataDir, retained, ownerIdentity(ServerConfigSchema.parse(config)));
  const host = createHost({ dataDir, policy: relaxed, sampling: () => instantSamplingRunner(), servers: [config] });
  try {
    return await waitForFile(reportFile);
  } finally {
    await host.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function floodInMemory(retained: number, concurrency = 16): Promise<FloodReport> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'taskdesk-bench-mem-'));
  const reportFile = path.join(dir, 'report.json');
  const taskStore = new InMemoryTaskStore();
  for (let i = 0; i < retained; i++) {
    const task = await taskStore.createTask({ ttl: 86_400_000 }, i, { method: 'sampling/createMessage', params: {} });
    await taskStore.storeTaskResult(task.taskId, 'completed', {
      role: 'assistant',
      content: { type: 'text', text: 'ok' },
      model: 'instant'
    });
  }
  const client = new Client({ name: 'sdk-in-memory', version: '1' }, { capabilities: CLIENT_CAPABILITIES, taskStore });
  client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
    if (!request.params.task || !extra.taskStore) throw new Error('expected a task-augmented request');
    const task = await extra.taskStore.createTask({ ttl: request.params.task.ttl ?? 60_000, pollInterval: 1000 });
    setImmediate(() => {
      void extra.taskStore!.storeTaskResult(task.taskId, 'completed', {
        role: 'assistant',
        content: { type: 'text', text: 'ok' },
        model: 'instant',
        stopReason: 'endTurn'
      });
    });
    return { task };
  });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', peerScript],
      env: floodEnv(reportFile, concurrency)
    })
  );
  try {
    return await waitForFile(reportFile);
  } finally {
    await client.close();
    taskStore.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Mean time to persist one status transition with each number of tasks retained in the store.
 *
 * The stores are measured in alternating blocks (500 transitions each in all), so that a change
 * in machine load during the run weighs on every store alike rather than on whichever ran last.
 */
async function persistCosts(retainedCounts: number[]): Promise<number[]> {
  const rounds = 500;
  const block = 50;
  const stores = await Promise.all(
    retainedCounts.map(async (retained) => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taskdesk-bench-persist-'));
      const repo = await seed(dataDir, retained, 'persist');
      const working = completedRecord('persist', Date.now());
      working.task.status = 'working';
      delete working.outcome;
      await repo.save(working);
      return { dataDir, repo, working, elapsed: 0 };
    })
  );
  try {
    for (let done = 0; done < rounds; done += block) {
      for (const store of stores) {
        const t0 = performance.now();
        for (let i = done; i < done + block; i++) {
          const next = {
            ...store.working,
            task: {
              ...store.working.task,
              status: i % 2 ? ('working' as const) : ('input_required' as const),
              lastUpdatedAt: new Date().toISOString()
            }
          };
          // One transition at a time, each waited for until it is on disk.
          await store.repo.save(next);
        }
        store.elapsed += performance.now() - t0;
      }
    }
    return stores.map((store) => store.elapsed / rounds);
  } finally {
    for (const store of stores) {
      fs.rmSync(store.dataDir, { recursive: true, force: true });
    }
  }
}

/** Time from constructing a host over `count` stored tasks until a `tasks/get` is answered. */
async function coldStart(count: number): Promise<number> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taskdesk-bench-cold-'));
  const peer = peerServer('cold');
  const { ownerIdentity } = await import('../../app/mcp/server-config.js');
  const identity = ownerIdentity({
    id: 'cold',
    name: 'Server cold',
    transport: { type: 'stdio', command: 'in-memory-cold', args: [] },
    autoConnect: true
  });
  const repo = await seed(dataDir, count, identity);
  const probe = repo.all().at(-1)!.task.taskId;
  const t0 = performance.now();
  const fixture = await startHostWith({ cold: peer }, { dir: dataDir, policy: relaxed });
  const task = await peer.server.request({ method: 'tasks/get', params: { taskId: probe } }, GetTaskResultSchema);
  const elapsed = performance.now() - t0;
  if (task.taskId !== probe) throw new Error('cold start answered the wrong task');
  await fixture.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  return elapsed;
}

type Row = { store: string; retained: number; acksPerSecond: number; p50: number; p99: number; peerBusy: number };
const rows: Row[] = [];
// The 10,000-retained pair, which the RESULT line compares, is run ROUNDS times, alternating,
// and compared by medians: a single flood of each swings by a third on this machine, and a median
// of three still moved the ratio by ±0.05 from run to run.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
for (const retained of RETAINED) {
  for (let round = 0; round < (retained === 10_000 ? ROUNDS : 1); round++) {
    rows.push({ store: 'taskdesk (journal + electron-store)', retained, ...summarize(await floodTaskdesk(retained)) });
    rows.push({ store: 'sdk InMemoryTaskStore', retained, ...summarize(await floodInMemory(retained)) });
  }
}
const printRow = (row: Row) =>
  console.log(
    `  ${row.store.padEnd(38)} retained=${String(row.retained).padStart(6)}  acks/s=${row.acksPerSecond.toFixed(0).padStart(6)}  p50=${row.p50.toFixed(2)} ms  p99=${row.p99.toFixed(2)} ms  server busy=${(row.peerBusy * 100).toFixed(0)}%`
  );
console.log(`receiver ack throughput, ${REQUESTS} task-augmented sampling requests over stdio, 16 in flight`);
for (const row of rows) printRow(row);
// More in flight: a durable store shares each fsync'd commit among more tasks (printed only;
// the RESULT line stays at 16 in flight).
const WIDE = 64;
console.log(`the same at ${WIDE} in flight, 10,000 retained`);
printRow({
  store: 'taskdesk (journal + electron-store)',
  retained: 10_000,
  ...summarize(await floodTaskdesk(10_000, WIDE))
});
printRow({ store: 'sdk InMemoryTaskStore', retained: 10_000, ...summarize(await floodInMemory(10_000, WIDE)) });
const [persist100, persist10k] = (await persistCosts([100, 10_000])) as [number, number];
console.log(
  `persist one transition: ${persist100.toFixed(3)} ms at 100 retained, ${persist10k.toFixed(3)} ms at 10,000 retained`
);
const cold = await coldStart(10_000);
console.log(`cold start over 10,000 stored tasks until tasks/get answers: ${cold.toFixed(0)} ms`);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const acksAt10k = (prefix: string) =>
  rows.filter((row) => row.retained === 10_000 && row.store.startsWith(prefix)).map((row) => row.acksPerSecond);
const durable = median(acksAt10k('taskdesk'));
const memory = median(acksAt10k('sdk'));
console.log(
  `median acks/s at 10,000 retained over ${ROUNDS} rounds: taskdesk ${durable.toFixed(0)}, in-memory ${memory.toFixed(0)}`
);
console.log(
  `RESULT durable_vs_memory=${(durable / memory).toFixed(2)} persist_cost_10k_vs_100=${(persist10k / persist100).toFixed(2)} cold_start_10k_ms=${cold.toFixed(0)}`
);
