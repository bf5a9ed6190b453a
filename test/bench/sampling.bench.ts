/**
 * Sampling through Taskdesk against the model alone (`npm run bench:sampling`).
 *
 * A local OpenAI-compatible test server, in a process of its own as Ollama or LM Studio would
 * be, streams every answer at a fixed, realistic pace (TOKENS tokens, INTERVAL ms apart, on real
 * timers). CONCURRENT task-augmented sampling
 * requests go through a Taskdesk host (policy: approve automatically, no review) from an SDK
 * server joined in memory; in the same run the same number of requests go straight to the test
 * server with the `openai` SDK. A Taskdesk request is timed from the moment the server sends it
 * until its task turns `completed` (the server's own polling is not Taskdesk's cost); a direct
 * one from the call until its stream ends.
 *
 * Figures are printed; nothing is asserted. The last line is the RESULT line.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { setHostHeapGrowth } from '../../app/host/heap-growth.js';
import { peerServer, startHostWith } from '../support/host-fixture.js';

// The heap growth main/main.ts and browser mode set before they create the host.
setHostHeapGrowth();

const TOKENS = Number(process.env.BENCH_TOKENS ?? 50);
const INTERVAL = Number(process.env.BENCH_INTERVAL_MS ?? 10);
const CONCURRENT = Number(process.env.BENCH_CONCURRENT ?? 100);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

const serverScript = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'support', 'fake-openai-process.ts');
const child = spawn(process.execPath, ['--import', 'tsx', serverScript], {
  env: { ...process.env, PACE_COUNT: String(TOKENS), PACE_INTERVAL_MS: String(INTERVAL) },
  stdio: ['pipe', 'pipe', 'inherit']
});
const [firstChunk] = (await once(child.stdout, 'data')) as [Buffer];
const baseURL = `http://127.0.0.1:${Number(firstChunk.toString().trim())}/v1`;

async function throughTaskdesk(): Promise<number[]> {
  const peer = peerServer('bench');
  const fixture = await startHostWith(
    { bench: peer },
    {
      keyStore: new InMemoryKeyStore(),
      policy: { maxActiveTasksPerServer: 10_000, operationsPerSecond: 1e6, operationsBurst: 1e6 }
    }
  );
  const { host } = fixture;
  await host.call('providers.save', {
    id: 'local',
    name: 'Local',
    baseURL,
    models: [{ name: 'paced' }],
    defaultModel: 'paced'
  });
  await host.call('sampling.setPolicy', { serverId: 'bench', policy: { mode: 'auto', reviewCompletion: false } });
  const completedAt = new Map<string, number>();
  const allDone = new Promise<void>((resolve) => {
    host.on('task.changed', ({ taskId, task }) => {
      if (task?.task.status === 'completed' && !completedAt.has(taskId)) {
        completedAt.set(taskId, performance.now());
        if (completedAt.size === CONCURRENT) resolve();
      }
      if (task?.task.status === 'failed') throw new Error(`task failed: ${task.task.statusMessage}`);
    });
  });
  const sentAt = new Map<string, number>();
  await Promise.all(
    Array.from({ length: CONCURRENT }, async (_, i) => {
      const t0 = performance.now();
      const { task } = await peer.server.request(
        {
          method: 'sampling/createMessage',
          params: {
            messages: [{ role: 'user', content: { type: 'text', text: `story ${i}` } }],
            maxTokens: TOKENS,
            task: { ttl: 600_000 }
          }
        },
        CreateTaskResultSchema
      );
      sentAt.set(task.taskId, t0);
    })
  );
  await allDone;
  await fixture.dispose();
  return [...sentAt].map(([taskId, t0]) => completedAt.get(taskId)! - t0);
}

async function direct(): Promise<number[]> {
  const client = new OpenAI({ baseURL, apiKey: 'unused', maxRetries: 0 });
  return Promise.all(
    Array.from({ length: CONCURRENT }, async (_, i) => {
      const t0 = performance.now();
      const stream = await client.chat.completions.create({
        model: 'paced',
        stream: true,
        max_tokens: TOKENS,
        messages: [{ role: 'user', content: `story ${i}` }]
      });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
      if (!text) throw new Error('empty stream');
      return performance.now() - t0;
    })
  );
}

// One warm-up round of each, not counted: the first pass compiles both code paths.
await throughTaskdesk();
await direct();
const taskdesk: number[] = [];
const plain: number[] = [];
// Alternate, so that drift of the machine falls on both sides alike.
for (let round = 0; round < ROUNDS; round++) {
  taskdesk.push(...(await throughTaskdesk()));
  plain.push(...(await direct()));
}
child.stdin.end();
await once(child, 'exit');

console.log(
  `${ROUNDS} rounds (after one warm-up round each) of ${CONCURRENT} concurrent requests, each streamed as ${TOKENS} tokens ${INTERVAL} ms apart (ideal ${TOKENS * INTERVAL} ms)`
);
console.log(
  `  through Taskdesk (task-augmented, auto policy): p50=${percentile(taskdesk, 50).toFixed(1)} ms  p99=${percentile(taskdesk, 99).toFixed(1)} ms`
);
console.log(
  `  direct openai SDK:                             p50=${percentile(plain, 50).toFixed(1)} ms  p99=${percentile(plain, 99).toFixed(1)} ms`
);
console.log(
  `RESULT engine_overhead=${(percentile(taskdesk, 50) / percentile(plain, 50)).toFixed(3)} engine_overhead_p99=${(percentile(taskdesk, 99) / percentile(plain, 99)).toFixed(3)}`
);
