import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createHost } from '../../app/host/host.js';
import { networkFailureText } from '../../app/mcp/network-failure.js';
import { tempDir } from '../support/host-fixture.js';

/** A port nothing listens on: one the system just gave out and took back. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('a Streamable HTTP server that cannot be reached', () => {
  it('says what the network said (nothing listening at the address and port), not "fetch failed"', async () => {
    const port = await closedPort();
    const data = tempDir();
    const host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      servers: [{ id: 'web', name: 'Web', transport: { type: 'http', url: `http://127.0.0.1:${port}/mcp` } }]
    });
    try {
      const view = await host.connect('web');
      assert.equal(view.state.status, 'failed');
      assert.equal(
        view.state.reason,
        `Could not connect: Nothing is listening at 127.0.0.1:${port} (ECONNREFUSED). Is the server running, and is the URL's port right?`
      );
    } finally {
      await host.close();
      data.remove();
    }
  });

  it('names an unknown host, and leaves an error it has no words for alone', () => {
    // As Node's fetch fails on a name DNS does not know (built here: this machine may have no DNS).
    const error = new TypeError('fetch failed', {
      cause: Object.assign(new Error('getaddrinfo ENOTFOUND mcp.nowhere.example'), {
        code: 'ENOTFOUND',
        hostname: 'mcp.nowhere.example'
      })
    });
    assert.equal(
      networkFailureText(error),
      'The host name mcp.nowhere.example was not found: is the URL right? (ENOTFOUND).'
    );
    assert.equal(networkFailureText(new Error('something else')), undefined);
  });

  it('says so when the URL has a port fetch refuses, rather than "fetch failed"', async () => {
    const data = tempDir();
    const host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      servers: [{ id: 'web', name: 'Web', transport: { type: 'http', url: 'http://127.0.0.1:1/mcp' } }]
    });
    try {
      const view = await host.connect('web');
      assert.equal(view.state.status, 'failed');
      assert.equal(
        view.state.reason,
        'Could not connect: Taskdesk cannot connect to this port: it is one of the ports web clients refuse (as browsers do). Use another port.'
      );
    } finally {
      await host.close();
      data.remove();
    }
  });
});

describe('a Streamable HTTP address that takes the connection but never answers', () => {
  it('says what was waited for, how long, and what to check, not "Request timed out"', async () => {
    // Accepts every connection and reads what it is sent, but never writes a byte back.
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => {
      sockets.add(socket);
      socket.resume();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    const data = tempDir();
    const host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      connectTimeoutMs: 1_000,
      servers: [{ id: 'web', name: 'Web', transport: { type: 'http', url: `http://127.0.0.1:${port}/mcp` } }]
    });
    try {
      const view = await host.connect('web');
      assert.equal(view.state.status, 'failed');
      assert.equal(
        view.state.reason,
        `Could not connect: 127.0.0.1:${port} accepted the connection but sent no answer in 1 s. Is it an MCP server, and is the URL's path right?`
      );
      assert.ok(sockets.size > 0, 'the connection was taken');
    } finally {
      await host.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
      data.remove();
    }
  });
});

describe('a Streamable HTTP server that answers with an HTTP error', () => {
  /** What each path answers: a status, headers and a body. */
  const answers: Record<string, { status: number; headers?: Record<string, string>; body: string }> = {
    '/v1': {
      status: 404,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ error: { message: 'Unknown path /v1', type: 'invalid_request_error' } })
    },
    '/mcp': {
      status: 404,
      headers: { 'content-type': 'text/html' },
      body: '<html><head><title>404 Not Found</title></head><body><h1>404 Not Found</h1></body></html>'
    },
    '/keyed/mcp': {
      status: 401,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        error: 'invalid_token',
        error_description: 'The API key sk-live-KeYsEcReT-1 is not valid'
      })
    },
    '/forbidden/mcp': { status: 403, headers: { 'content-type': 'text/plain' }, body: 'Forbidden' },
    '/sse': {
      status: 405,
      headers: { 'content-type': 'text/html' },
      body: '<!DOCTYPE html><html><head><title>Error</title></head><body><pre>Cannot POST /sse</pre></body></html>'
    },
    '/broken/mcp': {
      status: 500,
      headers: { 'content-type': 'text/plain' },
      body: `database is down\n${'x'.repeat(400)}`
    },
    '/down/mcp': { status: 503, body: '' },
    '/page': { status: 200, headers: { 'content-type': 'text/html' }, body: '<html><body>Welcome</body></html>' }
  };
  let server: http.Server;
  let base: string;
  before(async () => {
    server = http.createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        const path = (request.url ?? '').split('?')[0]!;
        // No OAuth here: the well-known and registration paths an OAuth client tries are not found.
        const answer = answers[path] ?? { status: 404, headers: { 'content-type': 'text/plain' }, body: 'not found' };
        response.writeHead(answer.status, answer.headers).end(answer.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  /** The failure reason of connecting to `path` (with `headers`, if given). */
  async function reasonAt(path: string, headers?: Record<string, string>): Promise<string | undefined> {
    const data = tempDir();
    const host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      servers: [
        { id: 'web', name: 'Web', transport: { type: 'http', url: `${base}${path}`, ...(headers && { headers }) } }
      ]
    });
    try {
      const view = await host.connect('web');
      assert.equal(view.state.status, 'failed');
      return view.state.reason;
    } finally {
      await host.close();
      data.remove();
    }
  }

  it('says the status in words, with a hint and the message of the body, not the raw body', async () => {
    assert.equal(
      await reasonAt('/v1'),
      `Could not connect: The server at ${base}/v1 answered 404 Not Found: is the address right? (MCP servers usually end in /mcp.) It said: "Unknown path /v1".`
    );
    // The body only repeats the status: not quoted. The path ends in /mcp already: no hint about it.
    assert.equal(
      await reasonAt('/mcp'),
      `Could not connect: The server at ${base}/mcp answered 404 Not Found: is the address right, and is an MCP server there?`
    );
    assert.equal(
      await reasonAt('/sse'),
      `Could not connect: The server at ${base}/sse answered 405 Method Not Allowed: it does not take MCP requests at this address. (Taskdesk speaks Streamable HTTP, whose address usually ends in /mcp, not the older SSE transport.) It said: "Cannot POST /sse".`
    );
    assert.equal(
      await reasonAt('/forbidden/mcp', { 'X-Api-Key': 'abcd' }),
      `Could not connect: The server at ${base}/forbidden/mcp answered 403 Forbidden: it refuses access. Do the credentials in the server's settings allow it, and does the server accept requests from this machine?`
    );
    assert.equal(
      await reasonAt('/down/mcp'),
      `Could not connect: The server at ${base}/down/mcp answered 503 Service Unavailable: the server, or a proxy in front of it, is not available just now. Is it running?`
    );
    assert.equal(
      await reasonAt('/page'),
      `Could not connect: The server at ${base}/page answered with a web page (text/html), not MCP: is the address that of an MCP server? (MCP servers usually end in /mcp.)`
    );
  });

  it('cuts a long body short', async () => {
    const reason = (await reasonAt('/broken/mcp'))!;
    assert.match(
      reason,
      new RegExp(
        `^Could not connect: The server at ${base}/broken/mcp answered 500 Internal Server Error: the server failed; its own log should say why\\. It said: "database is down x+…"\\.$`
      )
    );
    assert.ok(reason.length < 400, reason);
  });

  it('names a refused credential, hidden, and a URL without its secrets', async () => {
    const reason = await reasonAt('/keyed/mcp?api_key=sk-live-KeYsEcReT-1&team=core', {
      Authorization: 'Bearer sk-live-KeYsEcReT-1'
    });
    assert.equal(
      reason,
      `Could not connect: The server at ${base}/keyed/mcp answered 401 Unauthorized: it did not take the credentials Taskdesk sent. Check the Authorization header (or the key) in the server's settings (Edit…). It said: "The API key [redacted] is not valid".`
    );
  });

  it('says a 401 from a server without OAuth wants a credential, rather than quoting the failed sign-in', async () => {
    const reason = (await reasonAt('/keyed/mcp'))!;
    assert.match(
      reason,
      new RegExp(
        `^Could not connect: The server at ${base}/keyed/mcp asks for authorization, and Taskdesk could not sign in to it with OAuth \\(.+\\)\\. If it takes an API key or a token instead, add it as a header \\(Authorization\\) in the server's settings \\(Edit…\\)\\.$`
      )
    );
    assert.ok(reason.length < 400, reason);
  });
});
