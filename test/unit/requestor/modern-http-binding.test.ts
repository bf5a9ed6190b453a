import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { headerValue, modernHttpFetch, modernRequestHeaders } from '../../../app/mcp/modern-http.js';
import { MODERN_PROTOCOL_VERSION, envelope } from '../../../app/mcp/modern-protocol.js';

/** The 2026-07-28 Streamable HTTP binding in isolation: the request metadata headers and the `fetch` the SDK transport is given. */

const meta = envelope({ name: 'taskdesk-test', version: '0.0.0' }, { tasks: true });

/** A `fetch` that records what it was asked and answers with `answer`. */
function recordingFetch(answer: () => Response) {
  const calls: Array<{ url: string; init: RequestInit | undefined; headers: Headers }> = [];
  const base = async (url: string | URL, init?: RequestInit) => {
    calls.push({ url: String(url), init, headers: new Headers(init?.headers) });
    return answer();
  };
  return { calls, base };
}

function post(message: Record<string, unknown>, headers: Record<string, string> = {}): RequestInit {
  return {
    method: 'POST',
    headers: new Headers({ 'content-type': 'application/json', ...headers }),
    body: JSON.stringify({ jsonrpc: '2.0', ...message })
  };
}

describe('modern request metadata headers', () => {
  it('mirrors the version, the method, and the name a method names', () => {
    assert.deepEqual(
      modernRequestHeaders({ method: 'tools/call', params: { name: 'echo', arguments: {}, _meta: meta } }),
      {
        'mcp-protocol-version': MODERN_PROTOCOL_VERSION,
        'mcp-method': 'tools/call',
        'mcp-name': 'echo'
      }
    );
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      assert.equal(modernRequestHeaders({ method, params: { taskId: 't-1', _meta: meta } })['mcp-name'], 't-1', method);
    }
    assert.equal(
      modernRequestHeaders({ method: 'resources/read', params: { uri: 'file:///a b', _meta: meta } })['mcp-name'],
      'file:///a b'
    );
    assert.equal(modernRequestHeaders({ method: 'tools/list', params: { _meta: meta } })['mcp-name'], undefined);
    assert.equal(
      modernRequestHeaders({
        method: 'server/discover',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2027-01-01' } }
      })['mcp-protocol-version'],
      '2027-01-01'
    );
  });

  it('encodes a value that is not plain visible ASCII with the Base64 sentinel', () => {
    assert.equal(headerValue('us-west1'), 'us-west1');
    assert.equal(headerValue('a b\tc'), 'a b\tc');
    assert.equal(headerValue('Hello, 世界'), '=?base64?SGVsbG8sIOS4lueVjA==?=');
    assert.equal(headerValue(' padded '), '=?base64?IHBhZGRlZCA=?=');
    assert.equal(headerValue('line1\nline2'), '=?base64?bGluZTEKbGluZTI=?=');
    assert.equal(headerValue('=?base64?literal?='), '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=');
  });
});

describe('the fetch given to the SDK transport for a modern server', () => {
  it('adds the headers of each request and keeps the ones already set', async () => {
    const { calls, base } = recordingFetch(() => Response.json({ jsonrpc: '2.0', id: 7, result: {} }));
    const modernFetch = modernHttpFetch(base);
    await modernFetch(
      'http://127.0.0.1/mcp',
      post(
        { id: 7, method: 'tools/call', params: { name: 'echo', _meta: meta } },
        { authorization: 'Bearer me', 'mcp-method': 'forged' }
      )
    );
    const headers = calls[0]!.headers;
    assert.equal(headers.get('authorization'), 'Bearer me');
    assert.equal(headers.get('mcp-method'), 'tools/call');
    assert.equal(headers.get('mcp-name'), 'echo');
    assert.equal(headers.get('mcp-protocol-version'), MODERN_PROTOCOL_VERSION);
  });

  it('passes a GET through unchanged and posts no notification', async () => {
    const { calls, base } = recordingFetch(() => new Response(null, { status: 405 }));
    const modernFetch = modernHttpFetch(base);
    assert.equal((await modernFetch('http://127.0.0.1/mcp', { method: 'GET' })).status, 405);
    assert.equal(calls[0]?.headers.get('mcp-method'), null);
    const accepted = await modernFetch(
      'http://127.0.0.1/mcp',
      post({ method: 'notifications/cancelled', params: { requestId: 3 } })
    );
    assert.equal(accepted.status, 202);
    assert.equal(calls.length, 1, 'the notification never left');
  });

  it('hands a JSON-RPC error on a 4xx to the SDK as the answer to the request, with its code', async () => {
    const error = { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2099-01-01'] } };
    const { base } = recordingFetch(() => Response.json({ jsonrpc: '2.0', id: null, error }, { status: 400 }));
    const response = await modernHttpFetch(base)(
      'http://127.0.0.1/mcp',
      post({ id: 'r-1', method: 'tools/list', params: { _meta: meta } })
    );
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { jsonrpc: '2.0', id: 'r-1', error });
  });

  it('leaves a 4xx without a JSON-RPC body as it is', async () => {
    const { base } = recordingFetch(() => new Response('no such thing', { status: 404 }));
    const response = await modernHttpFetch(base)(
      'http://127.0.0.1/mcp',
      post({ id: 1, method: 'tools/list', params: { _meta: meta } })
    );
    assert.equal(response.status, 404);
    assert.equal(await response.text(), 'no such thing');
  });

  it('closes a request’s response when the SDK cancels it (the HTTP way to cancel)', async () => {
    const { calls, base } = recordingFetch(
      () => new Response(new ReadableStream(), { headers: { 'content-type': 'text/event-stream' } })
    );
    const modernFetch = modernHttpFetch(base);
    await modernFetch(
      'http://127.0.0.1/mcp',
      post({ id: 11, method: 'tasks/get', params: { taskId: 't', _meta: meta } })
    );
    await modernFetch(
      'http://127.0.0.1/mcp',
      post({ id: 12, method: 'tasks/get', params: { taskId: 'u', _meta: meta } })
    );
    const [first, second] = calls.map((call) => call.init?.signal);
    assert.equal(first?.aborted, false);
    await modernFetch(
      'http://127.0.0.1/mcp',
      post({ method: 'notifications/cancelled', params: { requestId: 11, reason: 'timed out' } })
    );
    assert.equal(first?.aborted, true);
    assert.equal(second?.aborted, false, 'only the cancelled request');
  });
});
