/**
 * A legacy (2025-11-25) task tool server over stdio that exits when it receives
 * `server/discover`, as some servers do on any request before `initialize`.
 *
 * Usage: node --import tsx test/support/legacy-strict-server.ts
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { systemClock } from '../../app/core/clock.js';
import { createTaskToolServer } from './task-tool-server.js';

const { server } = createTaskToolServer({ clock: systemClock, pollInterval: 100 });
const transport = new StdioServerTransport();
await server.connect(transport);
const handle = transport.onmessage;
transport.onmessage = (message: JSONRPCMessage) => {
  if ('method' in message && message.method === 'server/discover') {
    process.stderr.write('unknown request before initialize: exiting\n');
    process.exit(1);
  }
  handle?.(message);
};
