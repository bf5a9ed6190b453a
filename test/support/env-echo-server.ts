/**
 * A stdio MCP server that tells what it was started with: its `env` tool answers the
 * `GREETING` env var, a SHA-256 of `API_TOKEN` (never the token), its working directory and
 * its arguments. At start it writes `STDERR_LINES` numbered lines to stderr (default 1) and one
 * line quoting `API_TOKEN`, so that tests see stderr kept, bounded and redacted.
 *
 * Usage: node --import tsx test/support/env-echo-server.ts [args…]
 */
import { createHash } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const lines = Number(process.env.STDERR_LINES ?? '1');
for (let index = 1; index <= lines; index++) process.stderr.write(`env-echo stderr line ${index}\n`);
process.stderr.write(`env-echo started with token ${process.env.API_TOKEN ?? '(none)'}\n`);

const server = new McpServer({ name: 'env-echo', version: '1.0.0' });
server.registerTool('env', { description: 'What this process was started with' }, () => ({
  content: [
    {
      type: 'text',
      text: JSON.stringify({
        greeting: process.env.GREETING ?? null,
        tokenSha256: process.env.API_TOKEN ? createHash('sha256').update(process.env.API_TOKEN).digest('hex') : null,
        cwd: process.cwd(),
        args: process.argv.slice(2)
      })
    }
  ]
}));
await server.connect(new StdioServerTransport());
