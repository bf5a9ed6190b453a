import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';

/**
 * A forward HTTP proxy on 127.0.0.1 for tests, as a corporate one is reached through
 * `http_proxy`: it takes requests whose target is an absolute URI (`GET http://host/path`),
 * records each target, and answers them from `routes`: by the target's host, either a local
 * port the request is passed on to (streamed both ways, as a proxy passes an event stream) or an
 * answer of its own. A host without a route, or whose port nothing listens at, gets 502, as from
 * a proxy that cannot reach it. A tunnel (`CONNECT`) is always refused, with
 * `options.tunnelStatus` (502 by default).
 */
export async function startForwardProxy(
  routes: Record<string, number | ((res: http.ServerResponse) => void)>,
  options: { tunnelStatus?: number } = {}
) {
  const seen: string[] = [];
  const authorizations: Array<string | undefined> = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    authorizations.push(req.headers['proxy-authorization']);
    let target: URL;
    try {
      target = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('not an absolute URI: this is a proxy');
      return;
    }
    const route = routes[target.host] ?? routes[target.hostname];
    if (route === undefined) {
      res.writeHead(502).end(`no route to ${target.host}`);
      return;
    }
    if (typeof route === 'function') {
      route(res);
      return;
    }
    const upstream = http.request(
      {
        host: '127.0.0.1',
        port: route,
        method: req.method,
        path: `${target.pathname}${target.search}`,
        headers: req.headers
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      }
    );
    // A target that cannot be reached gets 502 from the proxy, as Squid and the like answer it.
    upstream.on('error', () =>
      res.headersSent ? res.destroy() : res.writeHead(502).end(`cannot reach ${target.host}`)
    );
    req.pipe(upstream);
  });
  // A tunnel (`CONNECT host:443`, for an https address) is refused with `tunnelStatus`: no test
  // here opens one (that needs TLS at the far end), only one a proxy turns down.
  server.on('connect', (req: http.IncomingMessage, socket: Duplex) => {
    seen.push(`${req.method} ${req.url}`);
    authorizations.push(req.headers['proxy-authorization']);
    const status = options.tunnelStatus ?? 502;
    socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ''}\r\nContent-Length: 0\r\n\r\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    /** Each request's method and target, in order. */
    seen,
    /** Each request's `Proxy-Authorization`, in the same order. */
    authorizations,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  };
}
