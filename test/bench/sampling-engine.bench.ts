/**
 * Sampling engine benchmark (`npm run bench:sampling-engine`).
 *
 * The engine (`LlmSamplingRunner`, real `openai` SDK, real HTTP on loopback) against the
 * fake OpenAI-compatible server streaming at a fixed pace, so the model's own time is
 * known and what is left is the engine's:
 *
 * 1. one request, TOKENS tokens INTERVAL ms apart: time to first partial text, total time
 *    over the ideal TOKENS × INTERVAL, and how many progress notifications went out;
 * 2. CONCURRENT such requests at once: wall time over the ideal;
 * 3. one request whose BURST tokens arrive as fast as the socket takes them: tokens/s the
 *    engine maps (accumulation, partial-text callbacks, progress throttle);
 * 4. the paced request of (1) through MCP: an SDK Server asks an SDK Client (in memory)
 *    whose sampling handler is the engine, with progress notifications back to the server.
 *
 * Figures are printed; nothing is asserted. The last line is the RESULT line.
 * It measures the engine alone; `npm run bench:sampling` measures it inside the host.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CreateMessageRequestParamsSchema, CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { mcpErrorFrom } from '../../app/core/errors.js';
import type { WorkContext } from '../../app/receiver/runners.js';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { LlmSamplingRunner } from '../../app/sampling/llm-sampling-runner.js';
import { ProviderRegistry } from '../../app/sampling/provider-registry.js';
import { FakeOpenAIServer } from '../support/fake-openai-server.js';

const TOKENS = Number(process.env.BENCH_TOKENS ?? 200);
const INTERVAL = Number(process.env.BENCH_INTERVAL_MS ?? 5);
const CONCURRENT = Number(process.env.BENCH_CONCURRENT ?? 32);
const BURST = Number(process.env.BENCH_BURST ?? 20_000);

const server = await FakeOpenAIServer.start({ apiKey: 'sk-bench' });
const registry = new ProviderRegistry(new InMemoryKeyStore({ fake: 'sk-bench' }), [
  { id: 'fake', name: 'Fake', baseURL: server.baseURL, models: [{ name: 'fake-small' }], defaultModel: 'fake-small' }
]);
let firstPartialAt: number | undefined;
let partials = 0;
const runner = new LlmSamplingRunner({
  providers: registry,
  onPartial: () => {
    partials++;
    firstPartialAt ??= performance.now();
  }
});
const params = CreateMessageRequestParamsSchema.parse({
  messages: [{ role: 'user', content: { type: 'text', text: 'Tell me a story.' } }],
  maxTokens: 100_000
});

function context(progress: { count: number }): WorkContext {
  return {
    serverId: 'bench',
    serverName: 'Bench',
    signal: new AbortController().signal,
    reportProgress: () => void progress.count++
  };
}

async function paced(count: number, intervalMs: number) {
  server.enqueue({ kind: 'pace', count, intervalMs });
  const progress = { count: 0 };
  firstPartialAt = undefined;
  const t0 = performance.now();
  const outcome = await runner.run(params, context(progress));
  const total = performance.now() - t0;
  if (outcome.type !== 'result') throw new Error(`bench request failed: ${outcome.error.message}`);
  const sent = intervalMs > 0 ? server.paceDurations.at(-1)! : 0;
  return { total, sent, ttft: (firstPartialAt ?? NaN) - t0, progress: progress.count };
}

// Warm up the SDK, the connection pool and the JIT.
await paced(20, 0);

const single = await paced(TOKENS, INTERVAL);
const ideal = TOKENS * INTERVAL;
// The server's timers drift past count × interval; the engine's overhead is measured
// against how long the server actually took to send the stream.
console.log(
  `paced stream, ${TOKENS} tokens ${INTERVAL} ms apart (nominal ${ideal} ms, server sent it in ${single.sent.toFixed(1)} ms)`
);
console.log(
  `  total ${single.total.toFixed(1)} ms (engine overhead ${(single.total - single.sent).toFixed(1)} ms), first partial after ${single.ttft.toFixed(1)} ms, ` +
    `${single.progress} progress notifications (throttled to 250 ms)`
);

server.enqueue(
  ...Array.from({ length: CONCURRENT }, () => ({ kind: 'pace' as const, count: TOKENS, intervalMs: INTERVAL }))
);
const c0 = performance.now();
const outcomes = await Promise.all(Array.from({ length: CONCURRENT }, () => runner.run(params, context({ count: 0 }))));
const concurrentWall = performance.now() - c0;
if (outcomes.some((o) => o.type !== 'result')) throw new Error('a concurrent request failed');
const slowestSend = Math.max(...server.paceDurations.slice(-CONCURRENT));
console.log(
  `${CONCURRENT} concurrent paced streams: wall ${concurrentWall.toFixed(1)} ms, slowest server send ${slowestSend.toFixed(1)} ms ` +
    `(ratio ${(concurrentWall / slowestSend).toFixed(2)})`
);

partials = 0;
const burst = await paced(BURST, 0);
const tokensPerSecond = (BURST / burst.total) * 1000;
console.log(
  `burst of ${BURST} tokens: ${burst.total.toFixed(1)} ms, ${tokensPerSecond.toFixed(0)} tokens/s, ${partials} partial callbacks`
);

// Through MCP, in memory: the server sees the answer and the progress notifications.
const mcpServer = new Server({ name: 'bench-server', version: '1.0.0' }, { capabilities: {} });
const mcpClient = new Client({ name: 'taskdesk-bench', version: '0.1.0' }, { capabilities: { sampling: {} } });
mcpClient.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
  const progressToken = request.params._meta?.progressToken;
  const outcome = await runner.run(request.params, {
    serverId: 'bench-server',
    serverName: 'Bench server',
    signal: extra.signal,
    ...(progressToken !== undefined
      ? {
          reportProgress: (progress: number, total?: number, message?: string) =>
            void extra.sendNotification({
              method: 'notifications/progress',
              params: { progressToken, progress, total, message }
            })
        }
      : {})
  });
  if (outcome.type === 'error') throw mcpErrorFrom(outcome.error);
  return outcome.result;
});
const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
await Promise.all([mcpServer.connect(serverTransport), mcpClient.connect(clientTransport)]);
server.enqueue({ kind: 'pace', count: TOKENS, intervalMs: INTERVAL });
let mcpProgress = 0;
const m0 = performance.now();
await mcpServer.createMessage({ ...params, maxTokens: TOKENS }, { onprogress: () => void mcpProgress++ });
const mcpTotal = performance.now() - m0;
const mcpSent = server.paceDurations.at(-1)!;
console.log(
  `through MCP (in memory): ${mcpTotal.toFixed(1)} ms, server sent in ${mcpSent.toFixed(1)} ms (overhead ${(mcpTotal - mcpSent).toFixed(1)} ms), ` +
    `${mcpProgress} progress notifications at the server`
);
await Promise.all([mcpClient.close(), mcpServer.close()]);
await server.close();

console.log(
  `RESULT paced_overhead_ms=${(single.total - single.sent).toFixed(1)} first_partial_ms=${single.ttft.toFixed(1)} ` +
    `concurrent_${CONCURRENT}_wall_vs_send=${(concurrentWall / slowestSend).toFixed(2)} burst_tokens_per_s=${tokensPerSecond.toFixed(0)} ` +
    `mcp_overhead_ms=${(mcpTotal - mcpSent).toFixed(1)}`
);
