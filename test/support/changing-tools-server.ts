/**
 * A server of MCP 2026-07-28 whose tools change while it runs, built on the v2 server package and
 * served over stdio: it declares `tools.listChanged`, so it tells a client that listens
 * (`subscriptions/listen`, `toolsListChanged`) when a tool is added.
 *
 * Usage: node --import tsx test/support/changing-tools-server.ts
 *
 * - `add-tool` { name }: adds a tool `name` (which answers "<name> here"); "added <name>".
 */
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

function text(value: string): { content: Array<{ type: 'text'; text: string }> } {
  return { content: [{ type: 'text', text: value }] };
}

/** One server instance (stdio serves one client). */
export function buildChangingToolsServer(): McpServer {
  const server = new McpServer(
    { name: 'changing-tools', version: '1.0.0' },
    { capabilities: { tools: { listChanged: true } } }
  );
  server.registerTool(
    'add-tool',
    { description: 'Adds a tool', inputSchema: z.object({ name: z.string() }) },
    async ({ name }) => {
      server.registerTool(name, { description: `Added at run time`, inputSchema: z.object({}) }, async () =>
        text(`${name} here`)
      );
      return text(`added ${name}`);
    }
  );
  return server;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  serveStdio(buildChangingToolsServer, { legacy: 'reject' });
}
