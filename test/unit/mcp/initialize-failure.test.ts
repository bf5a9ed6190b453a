import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ErrorCode, JSONRPCMessageSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { initializeFailureText, unansweredText } from '../../../app/mcp/initialize-failure.js';

/** What the SDK's `Client.connect` rejects with when a server answers `initialize` with `result`. */
async function connectError(result: unknown): Promise<unknown> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  serverSide.onmessage = (message) => {
    if ('method' in message && 'id' in message)
      void serverSide.send({ jsonrpc: '2.0', id: message.id, result } as never);
  };
  await serverSide.start();
  const client = new Client({ name: 'taskdesk-test', version: '1' });
  try {
    await client.connect(clientSide);
  } catch (error) {
    return error;
  } finally {
    await client.close();
  }
  assert.fail('initialize should have failed');
}

const serverInfo = { name: 'raw', version: '1' };

describe('the reason for an answer to initialize the SDK rejects', () => {
  it('names each field that is wrong, and what was expected', async () => {
    assert.equal(
      initializeFailureText(await connectError({ protocolVersion: 5, capabilities: {}, serverInfo })),
      "The server's answer to initialize is not valid: protocolVersion must be a string (got a number)."
    );
    assert.equal(
      initializeFailureText(await connectError({ protocolVersion: '2025-11-25' })),
      "The server's answer to initialize is not valid: capabilities is missing; serverInfo is missing."
    );
    assert.equal(
      initializeFailureText(await connectError({ protocolVersion: '2025-11-25', capabilities: null, serverInfo })),
      "The server's answer to initialize is not valid: capabilities must be an object (got null)."
    );
  });

  it('lists three problems, then how many more', async () => {
    const error = await connectError({
      protocolVersion: 5,
      capabilities: 3,
      serverInfo: { name: 1, version: 2 },
      instructions: 4
    });
    assert.equal(
      initializeFailureText(error),
      "The server's answer to initialize is not valid: protocolVersion must be a string (got a number); capabilities must be an object (got a number); serverInfo.name must be a string (got a number); and 2 more."
    );
  });

  it('reads a JSON-RPC message that matched no kind by its closest kind (a result that is not an object)', () => {
    // As the Streamable HTTP transport rejects such an answer: its message schema's error.
    const parsed = JSONRPCMessageSchema.safeParse({ jsonrpc: '2.0', id: 0, result: 'hello' });
    assert.equal(parsed.success, false);
    assert.equal(
      initializeFailureText(parsed.error),
      "The server's answer to initialize is not valid: result must be an object (got a string)."
    );
  });

  it("says which protocol version the server speaks, and Taskdesk's", async () => {
    assert.equal(
      initializeFailureText(await connectError({ protocolVersion: '2099-01-01', capabilities: {}, serverInfo })),
      'The server speaks MCP 2099-01-01, which Taskdesk does not support (it speaks 2026-07-28, and 2024-11-05 to 2025-11-25).'
    );
    assert.equal(
      initializeFailureText(
        await connectError({ protocolVersion: `v ${'x'.repeat(100)}`, capabilities: {}, serverInfo })
      ),
      `The server speaks MCP "v ${'x'.repeat(38)}…", which Taskdesk does not support (it speaks 2026-07-28, and 2024-11-05 to 2025-11-25).`
    );
  });

  it('tells a server that answers with the revision without initialize apart, with a hint when set to 2025-11-25', async () => {
    const error = await connectError({ protocolVersion: '2026-07-28', capabilities: {}, serverInfo });
    const words =
      'The server answered initialize with MCP 2026-07-28, a revision without initialize (Taskdesk reaches such a server through server/discover).';
    assert.equal(initializeFailureText(error), words);
    assert.equal(
      initializeFailureText(error, { pinnedLegacy: true }),
      `${words} Set its protocol to "auto" or 2026-07-28.`
    );
  });

  it('leaves other failures alone: an error answer, a closed connection, anything else', () => {
    assert.equal(initializeFailureText(new McpError(-32602, 'Unsupported protocol version')), undefined);
    assert.equal(initializeFailureText(new McpError(-32000, 'Connection closed')), undefined);
    assert.equal(initializeFailureText(new Error('Not connected')), undefined);
    assert.equal(initializeFailureText('a string'), undefined);
  });
});

describe('the reason for a server that did not answer initialize in time', () => {
  // As ServerConnection gives the connection up when the connect timeout runs out.
  const timedOut = new McpError(ErrorCode.RequestTimeout, 'Request timed out', { timeout: 14_990 });

  it('over HTTP: names the address that took the connection, how long it waited, and what to check', () => {
    assert.equal(
      unansweredText(timedOut, { transport: { type: 'http', url: 'http://127.0.0.1:58888/mcp' }, timeoutMs: 20_000 }),
      "127.0.0.1:58888 accepted the connection but sent no answer in 20 s. Is it an MCP server, and is the URL's path right?"
    );
    // No user info, path or query: only where it connected.
    assert.equal(
      unansweredText(timedOut, {
        transport: { type: 'http', url: 'https://user:pw@mcp.example.com/mcp?token=abc' },
        timeoutMs: 1_500
      }),
      "mcp.example.com accepted the connection but sent no answer in 1.5 s. Is it an MCP server, and is the URL's path right?"
    );
  });

  it('over stdio: names the command that started, and how long it waited', () => {
    assert.equal(
      unansweredText(timedOut, { transport: { type: 'stdio', command: 'node', args: ['x.js'] }, timeoutMs: 20_000 }),
      'node started but did not answer in 20 s. Is it an MCP server?'
    );
    // A package runner's first run is mostly its download.
    for (const command of ['npx', 'C:\\Program Files\\nodejs\\npx.cmd', '/usr/local/bin/uvx'])
      assert.equal(
        unansweredText(timedOut, { transport: { type: 'stdio', command, args: ['-y', 'x'] }, timeoutMs: 20_000 }),
        `${command} started but did not answer in 20 s. It may still be fetching the package (a first run downloads it): press Connect again; if it never answers, is it an MCP server?`
      );
    assert.equal(
      unansweredText(timedOut, { transport: { type: 'stdio', command: 'server', args: [] }, timeoutMs: 300 }),
      'server started but did not answer in 300 ms. Is it an MCP server?'
    );
  });

  it('leaves other failures alone', () => {
    const place = { transport: { type: 'stdio' as const, command: 'npx', args: [] }, timeoutMs: 20_000 };
    assert.equal(unansweredText(new McpError(ErrorCode.ConnectionClosed, 'Connection closed'), place), undefined);
    assert.equal(unansweredText(new McpError(-32602, 'Request timed out'), place), undefined);
    assert.equal(unansweredText(new Error('Request timed out'), place), undefined);
  });
});
