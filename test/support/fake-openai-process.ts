/**
 * The fake OpenAI-compatible server in a process of its own, as a real local LLM server is:
 * `node --import tsx fake-openai-process.ts`. Every chat request is answered with PACE_COUNT
 * tokens PACE_INTERVAL_MS apart; the first line on stdout is the port. With PACE_TOOL_FIRST=1 a
 * request that offers tools and ends with the person's message is answered with a call of the
 * first tool offered (arguments PACE_TOOL_ARGUMENTS), as a model that uses a tool, then answers.
 */
import { FakeOpenAIServer } from './fake-openai-server.js';

const count = Number(process.env.PACE_COUNT ?? 50);
const intervalMs = Number(process.env.PACE_INTERVAL_MS ?? 10);
const toolFirst = process.env.PACE_TOOL_FIRST === '1';
let calls = 0;
const server = await FakeOpenAIServer.start({
  models: ['paced'],
  respond: (body) =>
    toolFirst && body.tools?.[0] && body.messages.at(-1)?.role === 'user'
      ? {
          kind: 'tool-calls',
          calls: [
            {
              id: `call_${++calls}`,
              name: body.tools[0].function.name,
              arguments: process.env.PACE_TOOL_ARGUMENTS ?? '{}'
            }
          ]
        }
      : { kind: 'pace', count, intervalMs }
});
if (!toolFirst)
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
