/**
 * A legacy (2025-11-25) task tool server over stdio that mishandles the `server/discover` probe
 * in one of the ways real legacy servers do, chosen by `onProbe`:
 *
 * - `choke`: fails on it without answering and without exiting, then exits on the next line
 *   (as the Python SDK before 1.9.4 does: its session dies, its stdin thread lives until the next line);
 * - `error-exit`: answers it with an error, then exits;
 * - `ignore`: never answers it, and serves everything after as usual.
 *
 * With `log`, every request it reads is appended to that file as "<pid> <method>" first, so a test
 * can count what each process saw.
 *
 * Usage: node --import tsx test/support/legacy-probe-server.ts '{"onProbe":"choke","log":"/tmp/seen.log"}'
 */
import fs from 'node:fs';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { systemClock } from '../../app/core/clock.js';
import { createTaskToolServer } from './task-tool-server.js';

const options = JSON.parse(process.argv[2] ?? '{}') as { onProbe?: 'choke' | 'error-exit' | 'ignore'; log?: string };
const { server } = createTaskToolServer({ clock: systemClock, pollInterval: 100 });
const transport = new StdioServerTransport();
await server.connect(transport);
const handle = transport.onmessage;
let choked = false;

transport.onmessage = (message: JSONRPCMessage) => {
  const method = 'method' in message ? message.method : undefined;
  if (method !== undefined && 'id' in message && options.log)
    fs.appendFileSync(options.log, `${process.pid} ${method}\n`);
  if (choked) {
    process.stderr.write('Traceback (most recent call last): ValidationError: server/discover\n');
    process.exit(1);
  }
  if (method !== 'server/discover' || !('id' in message)) return void handle?.(message);
  switch (options.onProbe ?? 'ignore') {
    case 'choke':
      choked = true;
      return;
    case 'error-exit': {
      const answer = { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } };
      process.stdout.write(`${JSON.stringify(answer)}\n`, () => process.exit(1));
      return;
    }
    case 'ignore':
      return;
  }
};
