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
 * A thin HTTP proxy on 127.0.0.1 in front of `target` that records each request and streams
 * the answer back unchanged (SSE included), so a test can see what a client put on the wire
 * to a server it does not own.
 */
export async function recordingProxy(target: URL): Promise<{ url: string; received: ProxiedRequest[]; close(): Promise<void> }> {
  const received: ProxiedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const record: ProxiedRequest = { httpMethod: req.method ?? '', headers: {} };
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') record.headers[name] = value;
      try {
        const method = (JSON.parse(body.toString('utf8')) as { method?: unknown }).method;
        if (typeof method === 'string') record.method = method;
      } catch {
        // No JSON body (a GET, a DELETE).
      }
      received.push(record);
      const upstream = http.request(new URL(req.url ?? '/', target), { method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
        record.status = answer.statusCode;
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
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
