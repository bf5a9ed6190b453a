import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createHost } from '../../app/host/host.js';
import { instantSamplingRunner } from '../support/instant-runner.js';
import { TASK_RECORD_VERSION, type TaskRecord } from '../../app/receiver/task-record.js';
import { TaskRepository } from '../../app/receiver/task-repository.js';
import { newTaskId } from '../../app/receiver/task-receiver.js';
import { SegmentLog } from '../../app/store/segment-log.js';
import { confStoreFactory } from '../../app/store/json-file-store.js';
import { ownerIdentity } from '../../app/mcp/server-config.js';
import { ServerConfigSchema } from '../../app/contract/host-api.js';
function completedRecord(identity: string, createdAt: number): TaskRecord {
  const iso = new Date(createdAt).toISOString();
  return { schemaVersion: TASK_RECORD_VERSION, task: { taskId: newTaskId(), status: 'completed', createdAt: iso, lastUpdatedAt: iso, ttl: 86_400_000, pollInterval: 1000 },
    owner: { serverId: 'flood', serverName: 'Flood', identity }, kind: 'sampling', request: { messages: [{ role: 'user', content: { type: 'text', text: 'retained task' } }], maxTokens: 5 },
    expiresAt: createdAt + 86_400_000, outcome: { type: 'result', result: { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'instant' } }, notes: [], sequence: 0 };
}
async function seed(dataDir: string, count: number, identity: string) {
  const corruptDir = path.join(dataDir, 'corrupt');
  const repo = new TaskRepository(new SegmentLog<TaskRecord>({ dir: path.join(dataDir, 'tasks'), corruptDir, factory: confStoreFactory }), corruptDir);
  const now = Date.now();
  for (let i = 0; i < count; i += 100) await Promise.all(Array.from({ length: Math.min(100, count - i) }, (_, j) => repo.save(completedRecord(identity, now + i + j))));
  repo.close();
}
const here = path.dirname(fileURLToPath(import.meta.url));
const peerScript = path.join(here, '..', 'support', 'task-peer-server.ts');
const relaxed = { operationsPerSecond: 1e6, operationsBurst: 1e6, maxActiveTasksPerServer: 1e6 };
async function waitForFile(file: string): Promise<any> {
  for (;;) { try { return JSON.parse(fs.readFileSync(file, 'utf8')); } catch { await new Promise(r => setTimeout(r, 20)); } }
}
for (let r = 0; r < Number(process.env.R ?? 5); r++) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'taskdesk-prof-'));
  const reportFile = path.join(dataDir, 'report.json');
  const env = { ...getDefaultEnvironment(), FLOOD_COUNT: String(process.env.N ?? 4000), FLOOD_CONCURRENCY: '16', FLOOD_REPORT_FILE: reportFile, ...(process.env.PEER_PROF ? { NODE_OPTIONS: '--cpu-prof --cpu-prof-dir=/tmp/prof2' } : {}) };
  const config = { id: 'flood', name: 'Flood', transport: { type: 'stdio' as const, command: process.execPath, args: ['--import', 'tsx', peerScript], env } };
  await seed(dataDir, Number(process.env.SEED ?? 0), ownerIdentity(ServerConfigSchema.parse(config)));
  const host = createHost({ dataDir, policy: relaxed, sampling: () => instantSamplingRunner(), servers: [{ id: 'flood', name: 'Flood', transport: { type: 'stdio', command: process.execPath, args: ['--import', 'tsx', peerScript], env } }] });
  const c0 = process.cpuUsage();
  const rep = await waitForFile(reportFile);
  const c = process.cpuUsage(c0);
  console.log('acks/s', (rep.latencies.length / rep.elapsedMs * 1000).toFixed(0), 'peer us/task', (rep.peerCpuMs * 1000 / rep.latencies.length).toFixed(0), 'host us/task (incl. startup)', ((c.user + c.system) / rep.latencies.length).toFixed(0));
  await host.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTaskStore } from '@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { CLIENT_CAPABILITIES } from '../../app/mcp/server-connection.js';
for (let r = 0; r < Number(process.env.RM ?? 0); r++) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'taskdesk-bench-mem-'));
  const reportFile = path.join(dir, 'report.json');
  const taskStore = new InMemoryTaskStore();
  const client = new Client({ name: 'sdk-in-memory', version: '1' }, { capabilities: CLIENT_CAPABILITIES, taskStore });
  client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
    const task = await extra.taskStore!.createTask({ ttl: request.params.task!.ttl ?? 60_000, pollInterval: 1000 });
    setImmediate(() => { void extra.taskStore!.storeTaskResult(task.taskId, 'completed', { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'instant', stopReason: 'endTurn' }); });
    return { task };
  });
  const env = { ...getDefaultEnvironment(), FLOOD_COUNT: String(process.env.N ?? 4000), FLOOD_CONCURRENCY: '16', FLOOD_REPORT_FILE: reportFile };
  await client.connect(new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', peerScript], env }));
  const c0 = process.cpuUsage();
  const rep = await waitForFile(reportFile);
  const c = process.cpuUsage(c0);
  console.log('MEM acks/s', (rep.latencies.length / rep.elapsedMs * 1000).toFixed(0), 'peer us/task', (rep.peerCpuMs * 1000 / rep.latencies.length).toFixed(0), 'host us/task', ((c.user + c.system) / rep.latencies.length).toFixed(0));
  await client.close(); taskStore.cleanup(); fs.rmSync(dir, { recursive: true, force: true });
}
for (const k of ['__lat', '__sync']) { const lat = (((globalThis as any)[k] ?? []) as number[]).sort((a, b) => a - b); if (lat.length) console.log(k, 'n', lat.length, 'p50', lat[lat.length >> 1]!.toFixed(3), 'p90', lat[Math.floor(lat.length * 0.9)]!.toFixed(3), 'mean', (lat.reduce((a, b) => a + b, 0) / lat.length).toFixed(3)); }
console.log('writes', (globalThis as any).__writes, 'entries', (globalThis as any).__entries);
