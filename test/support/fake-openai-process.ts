/**
 * The fake OpenAI-compatible server in a process of its own, as a real local LLM server is:
 * `node --import tsx fake-openai-process.ts`. Every chat request is answered with PACE_COUNT
 * tokens PACE_INTERVAL_MS apart; the first line on stdout is the port.
 */
import { FakeOpenAIServer } from './fake-openai-server.js';

const count = Number(process.env.PACE_COUNT ?? 50);
const intervalMs = Number(process.env.PACE_INTERVAL_MS ?? 10);
const server = await FakeOpenAIServer.start({ models: ['paced'] });
server.enqueue(
  ...Array.from({ length: Number(process.env.PACE_REPLIES ?? 10_000) }, () => ({
    kind: 'pace' as const,
    count,
    intervalMs
  }))
);
process.stdout.write(`${server.port}\n`);
process.stdin.resume();
process.stdin.on('end', () => void server.close().then(() => process.exit(0)));
