import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, it } from 'node:test';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ServerConfigInput } from '../../app/contract/host-api.js';
import { createHost } from '../../app/host/host.js';
import { nextEvent, tempDir } from '../support/host-fixture.js';

type Protocol = ServerConfigInput['protocol'];

/** A stdio server started as `node -e script args…`. */
function nodeServer(script: string, options: { args?: string[]; protocol?: Protocol } = {}): ServerConfigInput {
  return {
    id: 'server',
    name: 'Server',
    transport: { type: 'stdio', command: process.execPath, args: ['-e', script, ...(options.args ?? [])] },
    ...(options.protocol && { protocol: options.protocol })
  };
}

/** The failure reason of connecting to `server` (the connect must fail). */
async function reasonOf(server: ServerConfigInput, connectTimeoutMs?: number): Promise<string | undefined> {
  const data = tempDir('start-failures-');
  const host = createHost({
    dataDir: data.dir,
    autoConnect: false,
    loginEnv: async () => ({ ...process.env }),
    ...(connectTimeoutMs !== undefined && { connectTimeoutMs }),
    servers: [server]
  });
  try {
    const view = await host.connect(server.id);
    assert.equal(view.state.status, 'failed', view.state.reason);
    return view.state.reason;
  } finally {
    await host.close();
    data.remove();
  }
}

/**
 * A raw JSON-RPC server over stdio: each request it reads is answered by `answer` (a function
 * body over `m`, the message, that returns the answer's `result` or `error` fields, or undefined
 * for none), after `start` ran.
 */
function rawServer(start: string, answer: string): string {
  return `${start}
const answer = (m) => { ${answer} };
let buffered = '';
process.stdin.on('data', (chunk) => {
  buffered += chunk;
  const lines = buffered.split('\\n');
  buffered = lines.pop();
  for (const line of lines.filter(Boolean)) {
    const m = JSON.parse(line);
    if (m.id === undefined) continue;
    const fields = answer(m);
    if (fields) process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, ...fields }) + '\\n');
  }
});`;
}

const INITIALIZED = `if (m.method === 'initialize') return { result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'raw', version: '1' } } };`;

describe('a stdio server whose process exits', () => {
  it('while connecting: the reason says it exited and with which code, with what it wrote to stderr', async () => {
    assert.equal(
      await reasonOf(nodeServer('process.exit(3)')),
      'Could not connect: The server exited with code 3 before it answered'
    );
    assert.equal(
      await reasonOf(nodeServer("console.error('boom: missing API_KEY'); process.exit(1)")),
      'Could not connect: The server exited with code 1 before it answered (stderr: boom: missing API_KEY)'
    );
  });

  it('while connecting, killed by a signal: the reason names the signal', async () => {
    assert.equal(
      await reasonOf(nodeServer("process.kill(process.pid, 'SIGKILL')")),
      'Could not connect: The server was stopped by signal SIGKILL before it answered'
    );
  });

  it('pinned to a revision: the same words, with the revision hint for 2026-07-28', async () => {
    const crash = "console.error('boom: missing API_KEY'); process.exit(1)";
    assert.equal(
      await reasonOf(nodeServer(crash, { protocol: '2025-11-25' })),
      'Could not connect: The server exited with code 1 before it answered (stderr: boom: missing API_KEY)'
    );
    assert.equal(
      await reasonOf(nodeServer(crash, { protocol: '2026-07-28' })),
      'Could not connect: The server is set to MCP 2026-07-28, but it exited with code 1 before it answered server/discover. Set its protocol to "auto" or 2025-11-25 if it speaks the earlier revision. (stderr: boom: missing API_KEY)'
    );
  });

  it('after it was ready: "The server exited with code N", with its stderr', async () => {
    const data = tempDir('start-failures-');
    // A legacy server (it answers server/discover with an error) that exits when asked for its tools.
    const script = rawServer(
      '',
      `if (m.method === 'server/discover') return { error: { code: -32601, message: 'Method not found' } };
       ${INITIALIZED}
       if (m.method === 'tools/list') { console.error('Error: lost the database'); process.exit(4); }
       return { error: { code: -32601, message: 'Method not found' } };`
    );
    const host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      loginEnv: async () => ({ ...process.env }),
      servers: [nodeServer(script)]
    });
    try {
      const failed = nextEvent(host, 'server.state', ({ state }) => state.status === 'failed');
      const view = await host.connect('server');
      assert.equal(view.state.status, 'ready', view.state.reason);
      await host.call('tools.list', { serverId: 'server', refresh: true }).catch(() => undefined);
      const { state } = await failed;
      assert.equal(state.reason, 'The server exited with code 4 (stderr: Error: lost the database)');
    } finally {
      await host.close();
      data.remove();
    }
  });

  it('says what did not answer in time, and for how long, and keeps the reason of a missing command', async () => {
    assert.equal(
      await reasonOf(
        nodeServer("console.error('waiting for the database'); setInterval(() => {}, 1000)", {
          protocol: '2025-11-25'
        }),
        1_000
      ),
      `Could not connect: ${process.execPath} started but did not answer in 1 s. Is it an MCP server? (stderr: waiting for the database)`
    );
    // Set to 2026-07-28, which has no initialize: the probe waited, said in seconds as well.
    assert.equal(
      await reasonOf(
        nodeServer("console.error('waiting for the database'); setInterval(() => {}, 1000)", {
          protocol: '2026-07-28'
        }),
        1_500
      ),
      'Could not connect: The server is set to MCP 2026-07-28, but it did not answer server/discover in 1.5 s. Set its protocol to "auto" or 2025-11-25 if it speaks the earlier revision. (stderr: waiting for the database)'
    );
    const missing = await reasonOf({
      id: 'server',
      name: 'Server',
      transport: { type: 'stdio', command: 'taskdesk-no-such-command', args: [] }
    });
    assert.match(missing ?? '', /^Could not connect: The command "taskdesk-no-such-command" was not found in /);
  });
});

describe('a server that does not answer initialize in time', () => {
  // MCP 2025-11-25, cancellation: "The initialize request MUST NOT be cancelled by clients."

  it('is given up by closing the connection, never with notifications/cancelled, and the reason says what did not answer in how long', async () => {
    const data = tempDir('start-failures-');
    const [client, server] = InMemoryTransport.createLinkedPair();
    const received: JSONRPCMessage[] = [];
    server.onmessage = (message) => void received.push(message);
    const closed = new Promise<void>((resolve) => (server.onclose = resolve));
    await server.start();
    const host = createHost({
      dataDir: data.dir,
      autoConnect: false,
      connectTimeoutMs: 300,
      servers: [
        {
          id: 'server',
          name: 'Server',
          transport: { type: 'stdio', command: 'unused', args: [] },
          protocol: '2025-11-25'
        }
      ],
      transportFactory: () => client
    });
    try {
      const view = await host.connect('server');
      assert.equal(view.state.status, 'failed');
      assert.equal(
        view.state.reason,
        'Could not connect: unused started but did not answer in 300 ms. Is it an MCP server?'
      );
      // Once the server's end is closed, nothing more can reach it.
      await closed;
      const methods = received.map((message) => ('method' in message ? message.method : 'answer'));
      assert.ok(methods.includes('initialize'), JSON.stringify(methods));
      assert.ok(!methods.includes('notifications/cancelled'), JSON.stringify(methods));
    } finally {
      await host.close();
      data.remove();
    }
  });

  it('over stdio: no notifications/cancelled reaches the process, and the reason quotes its stderr as before', async () => {
    const data = tempDir('start-failures-');
    const log = path.join(data.dir, 'methods.log');
    const script = `const fs = require('node:fs');
console.error('waiting for the database');
process.stdin.on('data', (chunk) => {
  for (const line of String(chunk).split('\\n').filter(Boolean)) fs.appendFileSync(${JSON.stringify(log)}, JSON.parse(line).method + '\\n');
});
setInterval(() => {}, 1000);`;
    try {
      assert.equal(
        await reasonOf(nodeServer(script, { protocol: '2025-11-25' }), 1_000),
        `Could not connect: ${process.execPath} started but did not answer in 1 s. Is it an MCP server? (stderr: waiting for the database)`
      );
      // The host closed the process (and waited for it) before it reported the failure.
      const methods = fs.readFileSync(log, 'utf8').split('\n').filter(Boolean);
      assert.deepEqual(methods, ['initialize']);
    } finally {
      data.remove();
    }
  });
});

describe('the stderr a failed connect quotes', () => {
  // Startup chatter that looks like an error: quoted, it would read as the cause.
  const chatter = "console.error('Error: no cache directory, starting without one');";

  it('none when a server set to 2026-07-28 answers server/discover as a 2025-11-25 server', async () => {
    const script = rawServer(chatter, `return { error: { code: -32601, message: 'Method not found' } };`);
    assert.equal(
      await reasonOf(nodeServer(script, { protocol: '2026-07-28' })),
      'Could not connect: The server is set to MCP 2026-07-28, but it answered server/discover as an MCP 2025-11-25 server does. Set its protocol to "auto" or 2025-11-25 if it speaks the earlier revision.'
    );
  });

  it('none when a server set to 2026-07-28 speaks none of its versions', async () => {
    const script = rawServer(
      chatter,
      `return { error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2099-01-01'] } } };`
    );
    assert.equal(
      await reasonOf(nodeServer(script, { protocol: '2026-07-28' })),
      'Could not connect: The server does not speak MCP 2026-07-28 (it speaks 2099-01-01): Unsupported protocol version'
    );
  });

  it('none when a server set to 2025-11-25 refuses initialize', async () => {
    const script = rawServer(
      chatter,
      `return { error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'] } } };`
    );
    assert.equal(
      await reasonOf(nodeServer(script, { protocol: '2025-11-25' })),
      'Could not connect: Unsupported protocol version'
    );
  });

  it("only the failed process's own, not the probe's process's before it", async () => {
    const data = tempDir('start-failures-');
    try {
      // The first process (the probe's) fails in its own words; the fresh one started after it, in others.
      const script = `const fs = require('node:fs');
const first = !fs.existsSync(process.argv[1]);
fs.writeFileSync(process.argv[1], 'started');
if (first) { console.error('Error: first process choked on server/discover'); process.exit(2); }
console.error('boom: missing API_KEY'); process.exit(1);`;
      assert.equal(
        await reasonOf(nodeServer(script, { args: [path.join(data.dir, 'started')] })),
        'Could not connect: The server exited with code 1 before it answered (stderr: boom: missing API_KEY)'
      );
    } finally {
      data.remove();
    }
  });
});

describe('a server whose answer to initialize Taskdesk cannot accept', () => {
  // Startup chatter that looks like an error: the answer is the reason, this is not quoted.
  const chatter = "console.error('Error: no cache directory, starting without one');";
  /** A legacy stdio server (it answers server/discover with an error) that answers initialize with `result`. */
  const answering = (result: string, protocol?: Protocol): ServerConfigInput =>
    nodeServer(
      rawServer(
        chatter,
        `if (m.method === 'initialize') return { result: ${result} };
         return { error: { code: -32601, message: 'Method not found' } };`
      ),
      { ...(protocol && { protocol }) }
    );

  it('names the fields that are wrong and what was expected, not the raw validation error', async () => {
    assert.equal(
      await reasonOf(answering(`{ protocolVersion: 5, capabilities: {}, serverInfo: { name: 'raw', version: '1' } }`)),
      "Could not connect: The server's answer to initialize is not valid: protocolVersion must be a string (got a number)."
    );
    assert.equal(
      await reasonOf(answering(`{ protocolVersion: m.params.protocolVersion }`, '2025-11-25')),
      "Could not connect: The server's answer to initialize is not valid: capabilities is missing; serverInfo is missing."
    );
    assert.equal(
      await reasonOf(
        answering(`{ protocolVersion: 5, capabilities: 3, serverInfo: { name: 1, version: 2 }, instructions: 4 }`)
      ),
      "Could not connect: The server's answer to initialize is not valid: protocolVersion must be a string (got a number); capabilities must be an object (got a number); serverInfo.name must be a string (got a number); and 2 more."
    );
  });

  it('says which protocol version it speaks that Taskdesk does not, auto or set to 2025-11-25', async () => {
    const result = `{ protocolVersion: '2099-01-01', capabilities: {}, serverInfo: { name: 'raw', version: '1' } }`;
    const words =
      'Could not connect: The server speaks MCP 2099-01-01, which Taskdesk does not support (it speaks 2026-07-28, and 2024-11-05 to 2025-11-25).';
    assert.equal(await reasonOf(answering(result)), words);
    assert.equal(await reasonOf(answering(result, '2025-11-25')), words);
  });

  it('set to 2025-11-25 but answering with 2026-07-28: says that revision has no initialize, and what to set', async () => {
    assert.equal(
      await reasonOf(
        answering(
          `{ protocolVersion: '2026-07-28', capabilities: {}, serverInfo: { name: 'raw', version: '1' } }`,
          '2025-11-25'
        )
      ),
      'Could not connect: The server answered initialize with MCP 2026-07-28, a revision without initialize (Taskdesk reaches such a server through server/discover). Set its protocol to "auto" or 2026-07-28.'
    );
  });

  it('over Streamable HTTP: the same words, and a result that is not an object says so', async () => {
    let result: unknown;
    const server = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        if (request.method !== 'POST') return void response.writeHead(405).end();
        const message = JSON.parse(body) as { id?: number; method: string };
        if (message.id === undefined) return void response.writeHead(202).end();
        const fields =
          message.method === 'initialize' ? { result } : { error: { code: -32601, message: 'Method not found' } };
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: message.id, ...fields }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const web: ServerConfigInput = {
      id: 'server',
      name: 'Server',
      transport: { type: 'http', url: `http://127.0.0.1:${port}/mcp` }
    };
    try {
      result = { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 7, version: '1' } };
      assert.equal(
        await reasonOf(web),
        "Could not connect: The server's answer to initialize is not valid: serverInfo.name must be a string (got a number)."
      );
      result = 'hello';
      assert.equal(
        await reasonOf(web),
        "Could not connect: The server's answer to initialize is not valid: result must be an object (got a string)."
      );
      result = { protocolVersion: '2099-01-01', capabilities: {}, serverInfo: { name: 'raw', version: '1' } };
      assert.equal(
        await reasonOf(web),
        'Could not connect: The server speaks MCP 2099-01-01, which Taskdesk does not support (it speaks 2026-07-28, and 2024-11-05 to 2025-11-25).'
      );
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
