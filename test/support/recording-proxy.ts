import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request that went through the proxy: HTTP method, lower-case headers, JSON-RPC method, and the answer's status. */
export interface ProxiedRequest {
  httpMethod: string;
  headers: Record<string, string>;
  /** The JSON-RPC method of a POST body, when it has one. */
  method?: string;
  status?: number;
}

/**
 * What the proxy does itself with one JSON-RPC request instead of forwarding it: `hold` answers
 * 200 with an event stream that never carries anything (a server that does not answer in time),
 * `refuse` answers `status` with a JSON-RPC error for the request's id.
 */
export type ProxyIntercept =
  { hold: true } | { refuse: { status: number; code: number; message: string; data?: unknown } };

/**
 * A thin HTTP proxy on 127.0.0.1 in front of `target` that records each request and streams
 * the answer back unchanged (SSE included), so a test can see what a client put on the wire
 * to a server it does not own. `intercept` may answer a request itself (see {@link ProxyIntercept}).
 */
export async function recordingProxy(
  target: URL,
  options: { intercept?: (request: { id?: unknown; method: string }) => ProxyIntercept | undefined } = {}
): Promise<{ url: string; received: ProxiedRequest[]; close(): Promise<void> }> {
  const received: ProxiedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const record: ProxiedRequest = { httpMethod: req.method ?? '', headers: {} };
      for (const [name, value] of Object.entries(req.headers))
        if (typeof value === 'string') record.headers[name] = value;
      let id: unknown;
      try {
        const message = JSON.parse(body.toString('utf8')) as { id?: unknown; method?: unknown };
        if (typeof message.method === 'string') record.method = message.method;
        id = message.id;
      } catch {
        // No JSON body (a GET, a DELETE).
      }
      received.push(record);
      const intercepted = record.method === undefined ? undefined : options.intercept?.({ id, method: record.method });
      if (intercepted && 'hold' in intercepted) {
        record.status = 200;
        res.writeHead(200, { 'content-type': 'text/event-stream' }).flushHeaders();
        return;
      }
      if (intercepted) {
        const { status, ...error } = intercepted.refuse;
        record.status = status;
        res
          .writeHead(status, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: id ?? null, error }));
        return;
      }
      const upstream = http.request(
        new URL(req.url ?? '/', target),
        { method: req.method, headers: { ...req.headers, host: target.host } },
        (answer) => {
          record.status = answer.statusCode;
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        }
      );
      upstream.on('error', () => res.destroy());
      res.on('close', () => upstream.destroy());
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${target.pathname}`,
    received,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  };
}
