import http from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Clock } from '../../app/core/clock.js';
import type { ClockedTaskStore } from './requestor-task-store.js';
import { createTaskToolServer } from './task-tool-server.js';

/**
 * The task tool server over Streamable HTTP on 127.0.0.1, one `McpServer` per session and one
 * task store for all of them, so a task outlives the session (and the client) that created it.
 */
export async function startTaskToolHttpServer(options: {
  clock: Clock;
  store: ClockedTaskStore;
  /** Passed to every session's server (`TaskToolServerOptions.immediateResponse`). */
  immediateResponse?: string;
}): Promise<{ url: URL; close(): Promise<void> }> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const httpServer = http.createServer((req, res) => {
    void (async () => {
      const sessionId = req.headers['mcp-session-id'];
      let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
      if (!transport) {
        if (req.method !== 'POST' || sessionId !== undefined) {
          res.writeHead(404).end();
          return;
        }
        const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => {
            transports.set(id, created);
          }
        });
        created.onclose = () => {
          if (created.sessionId) transports.delete(created.sessionId);
        };
        const { server } = createTaskToolServer({
          clock: options.clock,
          store: options.store,
          ...(options.immediateResponse !== undefined && { immediateResponse: options.immediateResponse })
        });
        await server.connect(created);
        transport = created;
      }
      await transport.handleRequest(req, res);
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const { port } = httpServer.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    close: async () => {
      for (const transport of transports.values()) await transport.close();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    }
  };
}
