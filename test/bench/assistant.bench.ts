/**
 * The assistant against the same work done by hand (`npm run bench:assistant`).
 *
 * A local OpenAI-compatible test server, in a process of its own, answers a request that offers
 * tools with a call of the first tool, and every other request with TOKENS tokens INTERVAL ms
 * apart (real timers). CONVERSATIONS conversations at once each make one user turn through a
 * Taskdesk host (policy auto): the model calls `echo` on an SDK server joined in memory, gets its
 * result, and streams its answer. In the same run the same turns are done directly: the `openai`
 * SDK for both model calls and an SDK `Client` for the tool call. Each turn is timed from the
 * send to the first token of the answer and to its end.
 *
 * Each side keeps one host (and its provider client, server connection and store), or one
 * `openai` client, SDK server and `Client`, for all its rounds, as a desktop app keeps one while
 * it runs; each round starts CONVERSATIONS new conversations on it. Until December 2026 every
 * round started a new host: the garbage of starting it (its stores, its server connection, the
 * fifty new conversations) was collected inside the assistant's window: garbage collection took
 * 14 ms of its first 100 against 4 in the direct side's first 75 (CPU profiles of 8 rounds), and
 * 4.7 against 4.3 with one host. No person's turn pays for starting the app.
 *
 * The assistant's side is watched through one `assistant.partial` listener that routes each
 * event to its conversation, as a window does; until December 2026 each conversation had a
 * listener of its own that looked at every conversation's events (50 × 50 calls per token
 * batch), bench code with no counterpart on the direct side.
 *
 * Figures are printed, with each round's first-token medians (the spread between runs is large
 * on a shared machine) and each side's main-thread CPU per turn; nothing is asserted. The last
 * line is the RESULT line (bar: both ≤ 1.1).
 *
 * Ten measured rounds a side (`BENCH_ROUNDS`), alternating. With three, one build gave
 * `first_token_overhead` 1.064, 1.237 and 1.022 in three runs of one session (December 2026):
 * a median over 150 turns that go in step is a few rounds' luck. Ten rounds (500 turns a side,
 * about ten seconds more) gave 1.105, 1.169 and 1.099 on the same build.
 *
 * With ASSISTANT_BENCH_PROFILE=<dir>, each measured round of each side is CPU-profiled (the
 * inspector's Profiler, in this process) into <dir>/taskdesk-<round>.cpuprofile and
 * <dir>/direct-<round>.cpuprofile; the profiler's own cost then shows in both sides' figures.
 * Beside each, <dir>/<side>-<round>.first-tokens-us holds the moment every first token of the
 * round was in (the monotonic clock in µs, as the profile's sample times), so that a profile can
 * be cut to the part the first-token figure measures.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { InMemoryKeyStore } from '../../app/sampling/key-store.js';
import { StreamAccumulator } from '../../app/sampling/stream-accumulator.js';
import { setHostHeapGrowth } from '../../app/host/heap-growth.js';
import { startProfile } from '../support/cpu-profile.js';
import { addThreadCpu, formatThreadCpu, threadCpuByName, threadCpuSince } from '../support/thread-cpu.js';
import { peerServer, startHostWith } from '../support/host-fixture.js';

// The heap growth main/main.ts and browser mode set before they create the host.
setHostHeapGrowth();

const TOKENS = Number(process.env.BENCH_TOKENS ?? 50);
const INTERVAL = Number(process.env.BENCH_INTERVAL_MS ?? 10);
const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP_ROUNDS ?? 1);

interface Turn {
  firstToken: number;
  total: number;
}

/**
 * A round's turns and the CPU it took: the main thread's until every first token was in and for
 * the whole round, and every thread's of this process (the model worker's among them, and V8's
 * and libuv's helpers on both sides) until every first token, by thread.
 */
interface Round {
  turns: Turn[];
  firstTokensCpuMs: number;
  cpuMs: number;
  firstTokensThreads: Map<string, number>;
}

/**
 * Times the turns `run` starts (each calls `firstToken` once, when its first token is in) for
 * main-thread CPU, and profiles them under `profileName` when one is given.
 */
async function measure(
  profileName: string | undefined,
  run: (firstToken: () => void) => Promise<Turn[]>
): Promise<Round> {
  const stopProfile = profileName
    ? await startProfile('ASSISTANT_BENCH_PROFILE', profileName)
    : () => Promise.resolve();
  const cpu = mainThreadCpu();
  const threadsBefore = threadCpuByName();
  let firstTokensThreads = new Map<string, number>();
  let firstTokens = 0;
  let firstTokensCpuMs = NaN;
  let firstTokensAt = 0n;
  const turns = await run(() => {
    if (++firstTokens !== CONVERSATIONS) return;
    firstTokensCpuMs = cpu();
    firstTokensThreads = threadCpuSince(threadsBefore);
    firstTokensAt = process.hrtime.bigint();
  });
  const cpuMs = cpu();
  await stopProfile();
  // Where the profile's first-token window ends: V8's profiler stamps samples with the same
  // monotonic clock, in microseconds.
  if (profileName && process.env.ASSISTANT_BENCH_PROFILE)
    fs.writeFileSync(
      path.join(process.env.ASSISTANT_BENCH_PROFILE, `${profileName}.first-tokens-us`),
      String(firstTokensAt / 1000n)
    );
  return { turns, firstTokensCpuMs, cpuMs, firstTokensThreads };
}

/** Main-thread CPU (ms) used between the call and the returned function's. */
function mainThreadCpu(): () => number {
  const start = process.threadCpuUsage();
  return () => {
    const used = process.threadCpuUsage(start);
    return (used.user + used.system) / 1000;
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

function echoServer(): McpServer {
  const mcp = new McpServer({ name: 'bench', version: '1.0.0' }, { capabilities: { tools: {} } });
  mcp.registerTool('echo', { description: 'Echoes', inputSchema: { message: z.string() } }, async ({ message }) => ({
    content: [{ type: 'text', text: `Echo: ${message}` }]
  }));
  return mcp;
}

const serverScript = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'support', 'fake-openai-process.ts');
const child = spawn(process.execPath, ['--import', 'tsx', serverScript], {
  env: {
    ...process.env,
    PACE_COUNT: String(TOKENS),
    PACE_INTERVAL_MS: String(INTERVAL),
    PACE_TOOL_FIRST: '1',
    PACE_TOOL_ARGUMENTS: '{"message":"hi"}'
  },
  stdio: ['pipe', 'pipe', 'inherit']
});
const [firstChunk] = (await once(child.stdout, 'data')) as [Buffer];
const baseURL = `http://127.0.0.1:${Number(firstChunk.toString().trim())}/v1`;

/**
 * The assistant's side: one host for every round, as a desktop app keeps one while it runs (see
 * above), with the provider, the policy and the server set up once.
 */
async function taskdeskSide() {
  const fixture = await startHostWith(
    { bench: { ...peerServer('bench'), server: echoServer().server } },
    { keyStore: new InMemoryKeyStore() }
  );
  const { host } = fixture;
  await host.call('providers.save', { id: 'local', name: 'Local', baseURL, models: [{ name: 'paced' }] });
  await host.call('assistant.setPolicy', { serverId: 'bench', policy: { mode: 'auto', alwaysAllow: [] } });
  // One listener for all conversations, as a window has: fifty listeners that each look at every
  // conversation's events would cost the bench itself N² calls the direct side never makes.
  const waiting = new Map<string, (update: { text: string; done?: true }) => void>();
  const off = host.on('assistant.partial', (update) => waiting.get(update.conversationId)?.(update));
  /** One round: CONVERSATIONS new conversations, one turn each. */
  const round = async (profileName?: string): Promise<Round> => {
    const ids: string[] = [];
    for (let i = 0; i < CONVERSATIONS; i++)
      ids.push((await host.call('assistant.create', { providerId: 'local', model: 'paced', serverIds: ['bench'] })).id);
    return measure(profileName, (onFirstToken) =>
      Promise.all(
        ids.map(
          (conversationId, i) =>
            new Promise<Turn>((resolve, reject) => {
              let firstToken: number | undefined;
              waiting.set(conversationId, (update) => {
                if (update.text === '') return;
                if (firstToken === undefined) {
                  firstToken = performance.now() - t0;
                  onFirstToken();
                }
                if (update.done) {
                  waiting.delete(conversationId);
                  resolve({ firstToken, total: performance.now() - t0 });
                }
              });
              const t0 = performance.now();
              host.call('assistant.send', { conversationId, text: `turn ${i}` }).catch(reject);
            })
        )
      )
    );
  };
  const close = async () => {
    off();
    await fixture.dispose();
  };
  return { round, close };
}

/** The same turns by hand: one SDK server, `Client` and `openai` client for every round. */
async function directSide() {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const mcp = echoServer();
  await mcp.connect(serverSide);
  const mcpClient = new Client({ name: 'bench', version: '1.0.0' });
  await mcpClient.connect(clientSide);
  const llm = new OpenAI({ baseURL, apiKey: 'unused', maxRetries: 0 });
  const round = (profileName?: string): Promise<Round> =>
    measure(profileName, (onFirstToken) =>
      Promise.all(
        Array.from({ length: CONVERSATIONS }, async (_, i): Promise<Turn> => {
          const t0 = performance.now();
          const { tools } = await mcpClient.listTools();
          const functions = tools.map((tool) => ({
            type: 'function' as const,
            function: { name: tool.name, parameters: tool.inputSchema }
          }));
          const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: `turn ${i}` }];
          // Both model calls of the turn: the conversation so far (\`messages\` grows in place).
          const ask = () => llm.chat.completions.create({ model: 'paced', stream: true, messages, tools: functions });
          const first = new StreamAccumulator();
          for await (const chunk of await ask()) first.add(chunk);
          const call = first.result().toolCalls[0]!;
          const result = await mcpClient.callTool({
            name: call.name,
            arguments: JSON.parse(call.arguments) as Record<string, unknown>
          });
          const text = (result.content as Array<{ type: string; text?: string }>)
            .map((block) => block.text ?? '')
            .join('\n');
          messages.push(
            {
              role: 'assistant',
              content: null,
              tool_calls: [{ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }]
            },
            { role: 'tool', tool_call_id: call.id, content: text }
          );
          let firstToken: number | undefined;
          const answer = new StreamAccumulator();
          for await (const chunk of await ask())
            if (answer.add(chunk) !== '' && firstToken === undefined) {
              firstToken = performance.now() - t0;
              onFirstToken();
            }
          if (answer.text === '' || firstToken === undefined) throw new Error('empty answer');
          return { firstToken, total: performance.now() - t0 };
        })
      )
    );
  const close = async () => {
    await mcpClient.close();
    await mcp.close();
  };
  return { round, close };
}

// Warm-up rounds of each, not counted: the first passes compile both code paths.
const assistantSide = await taskdeskSide();
const byHand = await directSide();
for (let round = 0; round < WARMUP; round++) {
  await assistantSide.round();
  await byHand.round();
}
const taskdesk: Turn[] = [];
const plain: Turn[] = [];
// Alternate, so that drift of the machine falls on both sides alike.
const rounds: string[] = [];
const cpu = { taskdesk: { firstTokens: 0, whole: 0 }, direct: { firstTokens: 0, whole: 0 } };
const threads = { taskdesk: [] as Array<Map<string, number>>, direct: [] as Array<Map<string, number>> };
for (let round = 0; round < ROUNDS; round++) {
  const a = await assistantSide.round(`taskdesk-${round + 1}`);
  const b = await byHand.round(`direct-${round + 1}`);
  taskdesk.push(...a.turns);
  plain.push(...b.turns);
  cpu.taskdesk.firstTokens += a.firstTokensCpuMs;
  cpu.taskdesk.whole += a.cpuMs;
  cpu.direct.firstTokens += b.firstTokensCpuMs;
  cpu.direct.whole += b.cpuMs;
  threads.taskdesk.push(a.firstTokensThreads);
  threads.direct.push(b.firstTokensThreads);
  const p50 = (turns: Turn[]) => median(turns.map((t) => t.firstToken)).toFixed(0);
  rounds.push(`round ${round + 1}: first token p50 ${p50(a.turns)} / ${p50(b.turns)} ms`);
}
await assistantSide.close();
await byHand.close();
child.stdin.end();
await once(child, 'exit');

const show = (turns: Turn[]) =>
  `first token p50=${median(turns.map((t) => t.firstToken)).toFixed(1)} ms  whole turn p50=${median(turns.map((t) => t.total)).toFixed(1)} ms`;
console.log(
  `${ROUNDS} rounds (after ${WARMUP} warm-up round${WARMUP === 1 ? '' : 's'} each) of ${CONVERSATIONS} concurrent conversations, one turn each: a tool call, then ${TOKENS} tokens ${INTERVAL} ms apart (ideal ${TOKENS * INTERVAL} ms)`
);
console.log(`  through the assistant (auto policy): ${show(taskdesk)}`);
console.log(`  openai SDK + SDK Client by hand:     ${show(plain)}`);
console.log(`  (assistant / by hand) ${rounds.join('; ')}`);
const perTurn = (ms: number) => (ms / (ROUNDS * CONVERSATIONS)).toFixed(2);
console.log(
  `  main-thread CPU per turn (assistant / by hand): until every first token ${perTurn(cpu.taskdesk.firstTokens)} / ${perTurn(cpu.direct.firstTokens)} ms, whole round ${perTurn(cpu.taskdesk.whole)} / ${perTurn(cpu.direct.whole)} ms`
);
// A round's CPU until every first token by thread of this process: the assistant's model worker
// ("later-node-thread") does what the direct side's main thread does for its model calls.
const perRoundThreads = (readings: Array<Map<string, number>>) =>
  formatThreadCpu(new Map([...addThreadCpu(readings)].map(([name, ms]) => [name, ms / ROUNDS])));
console.log(`  CPU a round until every first token by thread (ms), assistant: ${perRoundThreads(threads.taskdesk)}`);
console.log(`  CPU a round until every first token by thread (ms), by hand: ${perRoundThreads(threads.direct)}`);
const ratio = (pick: (t: Turn) => number) => median(taskdesk.map(pick)) / median(plain.map(pick));
console.log(
  `RESULT assistant_overhead=${ratio((t) => t.total).toFixed(3)} first_token_overhead=${ratio((t) => t.firstToken).toFixed(3)}`
);
