import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One HTTP request the endpoint received: its method, lower-case headers and parsed JSON body. */
export interface ReceivedHttpRequest {
  httpMethod: string;
  headers: Record<string, string>;
  body?: { id?: unknown; method?: string; params?: Record<string, unknown> };
  /** The HTTP status the endpoint answered with. */
  status?: number;
  /** Whether its answer is still open (an SSE answer the server or the client has not ended). */
  open?: boolean;
  /** Settles when the endpoint has begun its answer (its status and headers are sent). */
  answered?: Promise<void>;
  /** Settles when its answer is closed, by either side. */
  closed?: Promise<void>;
}

/** What {@link serveFetchHandler} serves: its address, what it received, and a way to wait for a request. */
export interface FetchHttpServer {
  url: string;
  received: ReceivedHttpRequest[];
  /** The first request received, or to come, that `matches`. */
  request(matches: (request: ReceivedHttpRequest) => boolean): Promise<ReceivedHttpRequest>;
  close(): Promise<void>;
}

/** A handler of web-standard requests, as the v2 server package's `createMcpHandler` makes. */
export interface FetchHandler {
  fetch(request: Request): Promise<Response>;
  close(): Promise<void>;
}

/**
 * Serves `handler` over HTTP on 127.0.0.1 at `/mcp`, an answer streamed as it comes (an SSE
 * answer may stay open until the client closes it). Every request is recorded, with its headers
 * as they arrived, so tests can check the wire.
 */
export async function serveFetchHandler(handler: FetchHandler): Promise<FetchHttpServer> {
  const received: ReceivedHttpRequest[] = [];
  const waiting: Array<{
    matches: (request: ReceivedHttpRequest) => boolean;
    found: (request: ReceivedHttpRequest) => void;
  }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers = new Headers();
      const record: ReceivedHttpRequest = { httpMethod: req.method ?? '', headers: {} };
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value !== 'string') continue;
        headers.set(name, value);
        record.headers[name] = value;
      }
      const body =
        chunks.length > 0 && req.method !== 'GET' && req.method !== 'HEAD' ? Buffer.concat(chunks) : undefined;
      if (body) {
        try {
          record.body = JSON.parse(body.toString('utf8')) as ReceivedHttpRequest['body'];
        } catch {
          // Not JSON: recorded without a body.
        }
      }
      received.push(record);
      for (const waiter of waiting.splice(0))
        if (waiter.matches(record)) waiter.found(record);
        else waiting.push(waiter);
      let closed = false;
      record.closed = new Promise<void>((resolve) =>
        res.on('close', () => {
          closed = true;
          record.open = false;
          resolve();
        })
      );
      let answered = () => {};
      record.answered = new Promise<void>((resolve) => (answered = resolve));
      void handler
        .fetch(
          new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, ...(body && { body }) })
        )
        .then(async (response) => {
          record.status = response.status;
          response.headers.forEach((value, name) => res.setHeader(name, value));
          res.writeHead(response.status);
          // Open unless the client left before the answer began.
          record.open = !closed;
          answered();
          if (!response.body) return void res.end();
          const reader = response.body.getReader();
          res.on('close', () => void reader.cancel().catch(() => undefined));
          for (let next = await reader.read(); !next.done; next = await reader.read()) res.write(next.value);
          res.end();
        })
        .catch(() => {
          res.destroy();
          answered();
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    received,
    request: (matches) => {
      const seen = received.find(matches);
      return seen ? Promise.resolve(seen) : new Promise((found) => waiting.push({ matches, found }));
    },
    close: async () => {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  };
}
