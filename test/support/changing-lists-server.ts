/**
 * A server of MCP 2026-07-28 whose tools, prompts and resources change while it runs, built on the
 * v2 server package and served over stdio or Streamable HTTP: it declares `listChanged` for all
 * three, so it tells a client that listens (`subscriptions/listen`, `toolsListChanged`,
 * `promptsListChanged`, `resourcesListChanged`) when one is added.
 *
 * Usage: node --import tsx test/support/changing-lists-server.ts (stdio); imported,
 * {@link serveChangingListsHttp} serves it over HTTP in the importing process.
 *
 * - `add-tool` { name }: adds a tool `name` (which answers "<name> here"); "added <name>".
 * - `add-prompt` { name }: adds a prompt `name`; "added <name>".
 * - `add-resource` { name }: adds a resource `note://<name>`; "added <name>".
 */
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { serveFetchHandler, type FetchHttpServer } from './fetch-http-server.js';

function text(value: string): { content: Array<{ type: 'text'; text: string }> } {
  return { content: [{ type: 'text', text: value }] };
}

const CAPABILITIES = {
  tools: { listChanged: true },
  prompts: { listChanged: true },
  resources: { listChanged: true }
};

type Kind = 'tool' | 'prompt' | 'resource';

/** Registers on `server` what was added at run time: a tool, a prompt or a resource named `name`. */
function register(server: McpServer, kind: Kind, name: string): void {
  if (kind === 'tool')
    server.registerTool(name, { description: 'Added at run time', inputSchema: z.object({}) }, async () =>
      text(`${name} here`)
    );
  else if (kind === 'prompt')
    server.registerPrompt(name, { description: 'Added at run time' }, () => ({
      messages: [{ role: 'user', content: { type: 'text', text: `${name} here` } }]
    }));
  else
    server.registerResource(name, `note://${name}`, { mimeType: 'text/plain' }, () => ({
      contents: [{ uri: `note://${name}`, text: `${name} here` }]
    }));
}

/** Registers the `add-tool`, `add-prompt` and `add-resource` tools on `server`; `added` is told of each addition. */
function registerAdders(server: McpServer, added: (kind: Kind, name: string) => void): void {
  for (const kind of ['tool', 'prompt', 'resource'] as const)
    server.registerTool(
      `add-${kind}`,
      { description: `Adds a ${kind}`, inputSchema: z.object({ name: z.string() }) },
      async ({ name }) => {
        added(kind, name);
        return text(`added ${name}`);
      }
    );
}

/** One server instance (stdio serves one client): what is added is registered on it, which tells a listening client. */
export function buildChangingListsServer(): McpServer {
  const server = new McpServer({ name: 'changing-lists', version: '1.0.0' }, { capabilities: CAPABILITIES });
  registerAdders(server, (kind, name) => register(server, kind, name));
  return server;
}

/**
 * The same over Streamable HTTP on 127.0.0.1. The handler makes a server for each request, so what
 * was added is kept here and each new server registers it; an addition is told through the
 * handler's notifier, which every `subscriptions/listen` stream open on it hears.
 */
export async function serveChangingListsHttp(): Promise<FetchHttpServer> {
  const added: Array<[Kind, string]> = [];
  const handler = createMcpHandler(
    () => {
      const server = new McpServer({ name: 'changing-lists', version: '1.0.0' }, { capabilities: CAPABILITIES });
      registerAdders(server, (kind, name) => {
        added.push([kind, name]);
        register(server, kind, name);
        if (kind === 'tool') handler.notify.toolsChanged();
        else if (kind === 'prompt') handler.notify.promptsChanged();
        else handler.notify.resourcesChanged();
      });
      for (const [kind, name] of added) register(server, kind, name);
      return server;
    },
    { legacy: 'reject' }
  );
  return serveFetchHandler(handler);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  serveStdio(buildChangingListsServer, { legacy: 'reject' });
}
