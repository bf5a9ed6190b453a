import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ErrorData } from '../contract/host-api.js';
import { isHostMethod, unknownHostMethod } from '../contract/known-method.js';
import { JsonRpcCode } from '../core/errors.js';
import type { Host } from '../host/host.js';
import { openEventStream } from './event-stream.js';
import { RequestGuard, newToken, type Refusal } from './request-guard.js';
import { SECURITY_HEADERS, serveStatic } from './static-files.js';

/** What browser mode needs of the host: the contract's two methods and the load warnings. */
export type BrowserHost = Pick<Host, 'dispatch' | 'on' | 'warnings'>;

/** Options of {@link startBrowserServer}. */
export interface BrowserServerOptions {
  host: BrowserHost;
  /** The built renderer: index.html, styles.css and the compiled modules. */
  rendererDir: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** The access token (browser mode keeps one in its data directory); a fresh random one by default. */
  token?: string;
}

/** A running browser-mode server. */
export interface BrowserServer {
  /** The page to open, token included. */
  readonly url: string;
  readonly origin: string;
  readonly port: number;
  readonly token: string;
  /** Ends every event stream and stops listening. */
  close(): Promise<void>;
}

/** Largest `/api/call` body: host API params are small; this bounds what a bad client can make us buffer. */
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Serves the renderer and the host API contract over HTTP on 127.0.0.1 (browser mode).
 *
 * - `GET /` and static files: the built renderer, with a strict CSP.
 * - `POST /api/call` `{ method, params }` → the `HostReply` JSON of `host.dispatch`, which
 *   validates params against the contract. Errors are data, with their MCP codes.
 * - `GET /api/events`: Server-Sent Events, one `{ event, payload }` per host event.
 *
 * The API answers only our own page: see {@link RequestGuard}.
 */
export async function startBrowserServer(options: BrowserServerOptions): Promise<BrowserServer> {
  const token = options.token ?? newToken();
  const streams = new Set<() => void>();
  let guard: RequestGuard | undefined;
  const server = http.createServer((request, response) => {
    // The guard needs the bound port, known once listening; no request arrives before then.
    void route(request, response, guard!).catch((error: unknown) => {
      if (!response.headersSent)
        sendJson(response, 500, { ok: false, error: { code: JsonRpcCode.InternalError, message: String(error) } });
      else response.destroy();
    });
  });

  async function route(request: IncomingMessage, response: ServerResponse, requestGuard: RequestGuard): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/api/call') {
      if (request.method !== 'POST') return refuse(response, 405, 'Use POST', { allow: 'POST' });
      const refusal = requestGuard.checkApi(request, { tokenInQuery: false, requireOrigin: true });
      if (refusal) return refuseWith(response, refusal);
      return handleCall(request, response);
    }
    if (url.pathname === '/api/events') {
      if (request.method !== 'GET') return refuse(response, 405, 'Use GET', { allow: 'GET' });
      const refusal = requestGuard.checkApi(request, { tokenInQuery: true, requireOrigin: false });
      if (refusal) return refuseWith(response, refusal);
      const end = openEventStream(options.host, response, SECURITY_HEADERS);
      streams.add(end);
      response.on('close', () => streams.delete(end));
      return;
    }
    if (url.pathname.startsWith('/api/')) return refuse(response, 404, 'No such API');
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return refuse(response, 405, 'Use GET', { allow: 'GET, HEAD' });
    const hostRefusal = requestGuard.checkHost(request);
    if (hostRefusal) return refuseWith(response, hostRefusal);
    if (!(await serveStatic(options.rendererDir, url.pathname, response, request.method === 'HEAD')))
      refuse(response, 404, 'Not found');
  }

  async function handleCall(request: IncomingMessage, response: ServerResponse): Promise<void> {
    // A form or a no-cors fetch cannot send this type, so a foreign page cannot skip CORS preflight.
    if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
      return refuse(response, 415, 'Send application/json');
    }
    const body = await readBody(request);
    if (body === undefined) return refuse(response, 413, 'Body too large');
    let message: unknown;
    try {
      message = JSON.parse(body);
    } catch {
      return sendJson(response, 400, {
        ok: false,
        error: { code: JsonRpcCode.ParseError, message: 'The body is not JSON' }
      });
    }
    const { method, params } = (typeof message === 'object' && message !== null ? message : {}) as {
      method?: unknown;
      params?: unknown;
    };
    if (!isHostMethod(method)) return sendJson(response, 200, { ok: false, error: unknownHostMethod(method) });
    const reply = await options.host.dispatch(method, params);
    sendJson(response, 200, reply);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  guard = new RequestGuard(token, port);
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/?token=${encodeURIComponent(token)}`,
    origin,
    port,
    token,
    close: async () => {
      for (const end of [...streams]) end();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // A browser keeps its connections alive after the last response; close would wait on them.
      server.closeAllConnections();
      await closed;
    }
  };
}

/** Reads a request body as text, or undefined when it is larger than the limit. */
function readBody(request: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Keep reading without keeping: destroying the request would also drop our 413 answer.
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    ...SECURITY_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text))
  });
  response.end(text);
}

function refuse(response: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  const error: ErrorData = { code: JsonRpcCode.InvalidRequest, message };
  const text = JSON.stringify({ ok: false, error });
  response.writeHead(status, {
    ...SECURITY_HEADERS,
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text))
  });
  response.end(text);
}

function refuseWith(response: ServerResponse, refusal: Refusal): void {
  refuse(response, refusal.status, refusal.message);
}

export { TOKEN_HEADER } from './request-guard.js';
