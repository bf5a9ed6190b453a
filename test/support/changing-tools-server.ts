/**
 * A server of MCP 2026-07-28 whose tools change while it runs, built on the v2 server package and
 * served over stdio or Streamable HTTP: it declares `tools.listChanged`, so it tells a client that
 * listens (`subscriptions/listen`, `toolsListChanged`) when a tool is added.
 *
 * Usage: node --import tsx test/support/changing-tools-server.ts (stdio); imported,
 * {@link serveChangingToolsHttp} serves it over HTTP in the importing process.
 *
 * - `add-tool` { name }: adds a tool `name` (which answers "<name> here"); "added <name>".
 */
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { serveFetchHandler, type FetchHttpServer } from './fetch-http-server.js';

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

/**
 * The same over Streamable HTTP on 127.0.0.1. The handler makes a server for each request, so the
 * tools added are kept here and each new server registers them; an added tool is told through the
 * handler's notifier, which every `subscriptions/listen` stream open on it hears.
 */
export async function serveChangingToolsHttp(): Promise<FetchHttpServer> {
  const added: string[] = [];
  const handler = createMcpHandler(
    () => {
      const server = new McpServer(
        { name: 'changing-tools', version: '1.0.0' },
        { capabilities: { tools: { listChanged: true } } }
      );
      const register = (name: string) =>
        server.registerTool(name, { description: `Added at run time`, inputSchema: z.object({}) }, async () =>
          text(`${name} here`)
        );
      server.registerTool(
        'add-tool',
        { description: 'Adds a tool', inputSchema: z.object({ name: z.string() }) },
        async ({ name }) => {
          added.push(name);
          register(name);
          handler.notify.toolsChanged();
          return text(`added ${name}`);
        }
      );
      for (const name of added) register(name);
      return server;
    },
    { legacy: 'reject' }
  );
  return serveFetchHandler(handler);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  serveStdio(buildChangingToolsServer, { legacy: 'reject' });
}
