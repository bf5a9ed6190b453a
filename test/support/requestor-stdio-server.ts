/**
 * The task tool server as a child process over stdio, on the wall clock.
 *
 * Usage: node --import tsx test/support/requestor-stdio-server.ts '{"pollInterval":500}'
 * Its task store lives in memory, so a new process has forgotten every task.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { systemClock } from '../../app/core/clock.js';
import { createTaskToolServer } from './task-tool-server.js';

const options = JSON.parse(process.argv[2] ?? '{}') as { pollInterval?: number; statusNotifications?: boolean };
const { server } = createTaskToolServer({
  clock: systemClock,
  pollInterval: options.pollInterval,
  statusNotifications: options.statusNotifications ?? false
});
await server.connect(new StdioServerTransport());
