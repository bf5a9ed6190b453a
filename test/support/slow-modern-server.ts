/**
 * A server of MCP 2026-07-28 (the tools of `modern-task-server.ts`, modern-only) that is slow
 * to start: it reads nothing until its second line has arrived, that is until the client gave
 * up waiting for the answer to `server/discover` and sent `initialize`, then serves both lines
 * at once. It behaves like a server whose first run downloads its package (npx, uvx), without
 * a test having to wait for a clock.
 *
 * Usage: node --import tsx test/support/slow-modern-server.ts
 */
import { PassThrough } from 'node:stream';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { buildModernTaskServer } from './modern-task-server.js';

const input = new PassThrough();
let held = '';
let started = false;

process.stdin.on('data', (chunk: Buffer) => {
  if (started) return void input.write(chunk);
  held += chunk.toString('utf8');
  if (held.split('\n').length - 1 < 2) return;
  started = true;
  serveStdio(buildModernTaskServer, { legacy: 'reject', transport: new StdioServerTransport(input, process.stdout) });
  input.write(held);
});
process.stdin.on('end', () => input.end());
