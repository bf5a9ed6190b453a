/**
 * A stdio server that answers requests with −32601 (method not found), chosen by `refuse`:
 *
 * - `all`: every request, `server/discover` and `initialize` alike (a broken or foreign server:
 *   neither era; a client must fail at once with that error, not wait for a late answer);
 * - `initialize`: only `initialize`; everything else goes to the MCP 2026-07-28 server of
 *   `modern-task-server.ts` (a modern server of another SDK, which knows no `initialize` at all).
 *
 * Usage: node --import tsx test/support/method-not-found-server.ts '{"refuse":"all"}'
 */
import { PassThrough } from 'node:stream';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { buildModernTaskServer } from './modern-task-server.js';

const options = JSON.parse(process.argv[2] ?? '{}') as { refuse?: 'all' | 'initialize' };
const refuse = options.refuse ?? 'all';

/** The modern server, fed the lines this process does not answer itself. */
const input = new PassThrough();
if (refuse === 'initialize')
  serveStdio(buildModernTaskServer, { legacy: 'reject', transport: new StdioServerTransport(input, process.stdout) });

let buffered = '';
process.stdin.on('data', (chunk: Buffer) => {
  buffered += chunk.toString('utf8');
  const lines = buffered.split('\n');
  buffered = lines.pop() ?? '';
  for (const line of lines) handle(line);
});
process.stdin.on('end', () => input.end());

function handle(line: string): void {
  let message: { id?: unknown; method?: unknown };
  try {
    message = JSON.parse(line) as { id?: unknown; method?: unknown };
  } catch {
    return;
  }
  const request = typeof message.method === 'string' && message.id !== undefined;
  if (request && (refuse === 'all' || message.method === 'initialize')) {
    process.stdout.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } })}\n`
    );
    return;
  }
  if (refuse === 'initialize') input.write(`${line}\n`);
}
