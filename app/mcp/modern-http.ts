import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { fetchWithinOrigin, type FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import type { ServerConfig } from './server-config.js';
import {
  MODERN_PROTOCOL_VERSION,
  MetaKey,
  discoverRequest,
  eraOfAnswer,
  isModernErrorCode,
  probeAnswerOf,
  type EraProbe,
  type ProbeAnswer
} from './modern-protocol.js';
import { errorMessage } from '../core/errors.js';

/**
 * Streamable HTTP for the modern MCP generation (2026-07-28).
 *
 * The era probe (a modern `server/discover` POST before anything else, read the way the
 * transport's backward-compatibility section asks), and the transport for a modern server:
 * the SDK's Streamable HTTP client with a `fetch` that adds the request metadata headers
 * (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`) derived from each outgoing message.
 * There are no sessions and no GET stream in this revision; the SDK opens neither without
 * `initialize`.
 */

type HttpTransportConfig = Extract<ServerConfig['transport'], { type: 'http' }>;

/**
 * The body field each method's `Mcp-Name` header mirrors: the core methods of SEP-2243, and
 * `tasks/*` of the tasks extension (SEP-2663: the taskId, so that a load balancer can route
 * every request of a task to the instance that holds it).
 */
const MCP_NAME_SOURCE: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId'
};

/** The Base64 sentinel's markers (SEP-2243, Value Encoding). */
const SENTINEL_START = '=?base64?';
const SENTINEL_END = '?=';

/**
 * A header value for `value`: as is when it is plain visible ASCII (inner spaces and tabs
 * allowed, none at either end), otherwise the Base64 sentinel `=?base64?…?=` of its UTF-8
 * bytes. A plain value that looks like the sentinel is encoded too, so it cannot be misread.
 */
export function headerValue(value: string): string {
  // An empty value is sent as it is (an empty header), not encoded.
  if (value.length === 0) return value;
  const plain = /^[\x21-\x7e](?:[\x20-\x7e\t]*[\x21-\x7e])?$/.test(value);
  const lookalike = value.startsWith(SENTINEL_START) && value.endsWith(SENTINEL_END);
  return plain && !lookalike
    ? value
    : `${SENTINEL_START}${Buffer.from(value, 'utf8').toString('base64')}${SENTINEL_END}`;
}

/**
 * The request metadata headers of one modern request: `MCP-Protocol-Version` (the version its
 * envelope names), `Mcp-Method`, and `Mcp-Name` for the methods that name something.
 */
export function modernRequestHeaders(message: { method: string; params?: unknown }): Record<string, string> {
  const params = asObject(message.params);
  const version = asObject(params._meta)[MetaKey.protocolVersion];
  const headers: Record<string, string> = {
    'mcp-protocol-version': typeof version === 'string' ? version : MODERN_PROTOCOL_VERSION,
    'mcp-method': message.method
  };
  const field = Object.hasOwn(MCP_NAME_SOURCE, message.method) ? MCP_NAME_SOURCE[message.method] : undefined;
  const name = field === undefined ? undefined : params[field];
  if (typeof name === 'string') headers['mcp-name'] = headerValue(name);
  return headers;
}

/**
 * Sends `server/discover` as the first modern request over Streamable HTTP and reads the era.
 *
 * A `DiscoverResult` means modern. A 4xx whose body is a modern JSON-RPC error (−32022, or a
 * header or capability refusal: −32020, −32021) means modern too, read as on stdio (the refusals
 * fail with a reason rather than fall back). No answer within `timeoutMs` is `silent`. Anything
 * else (another status or error, 404 with −32601 included, no JSON-RPC body, no connection)
 * means legacy, and `initialize` follows as before. User-configured headers go with the probe.
 *
 * A 404 with −32601 is not proof of a modern server: a legacy server that routes unknown methods
 * that way answers the same, so it gets its `initialize` (a modern one then refuses it, and the
 * connect fails with that error).
 */
export async function probeHttpEra(
  transport: HttpTransportConfig,
  clientInfo: { name: string; version: string },
  timeoutMs: number,
  signal?: AbortSignal,
  base: FetchLike = (url, init) => fetch(url, init)
): Promise<EraProbe> {
  const deadline = AbortSignal.timeout(timeoutMs);
  const first = await probeOnce(transport, clientInfo, deadline, timeoutMs, signal, base);
  // A server that refuses our version (−32022) yet lists it as supported: the first choice was
  // refused for another reason (a version negotiated per request); try once more, as SEP-2575 asks.
  if ('era' in first || !namesOurVersion(first.answer)) return 'era' in first ? first : readProbe(first);
  const second = await probeOnce(transport, clientInfo, deadline, timeoutMs, signal, base);
  return 'era' in second ? second : readProbe(second);
}

/** Whether an answer is −32022 naming our version among those the server supports. */
function namesOurVersion(answer: ProbeAnswer | undefined): boolean {
  if (!answer || !('error' in answer) || answer.error.code !== -32022) return false;
  const supported = asObject(answer.error.data).supported;
  return Array.isArray(supported) && supported.includes(MODERN_PROTOCOL_VERSION);
}

/** One `server/discover` POST: its response and answer, or what its failure means. */
async function probeOnce(
  transport: HttpTransportConfig,
  clientInfo: { name: string; version: string },
  deadline: AbortSignal,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  base: FetchLike
): Promise<EraProbe | { response: Response; answer: ProbeAnswer | undefined }> {
  const request = discoverRequest(clientInfo);
  let response: Response;
  let answer: ProbeAnswer | undefined;
  try {
    // Redirects are followed within the origin only, as the SDK's transport does (the user's headers go along).
    // The user's headers, then ours set over them (whatever case the user wrote a name in).
    const headers = new Headers(transport.headers);
    headers.set('content-type', 'application/json');
    headers.set('accept', 'application/json, text/event-stream');
    for (const [name, value] of Object.entries(modernRequestHeaders(request))) headers.set(name, value);
    response = await fetchWithinOrigin(base)(transport.url, {
      method: 'POST',
      headers,
      body: JSON.stringify(request),
      signal: signal ? AbortSignal.any([deadline, signal]) : deadline
    });
    answer = await readAnswer(response);
  } catch (error) {
    if (signal?.aborted) throw new Error('Disconnected while connecting', { cause: error });
    if (deadline.aborted) return { era: 'silent', why: `no answer to server/discover in ${timeoutMs} ms` };
    return { era: 'legacy', why: `server/discover failed: ${errorMessage(error)}` };
  }
  return { response, answer };
}

/** What one answered probe says about the era. */
function readProbe({ response, answer }: { response: Response; answer: ProbeAnswer | undefined }): EraProbe {
  if (response.ok)
    return answer
      ? eraOfAnswer(answer)
      : { era: 'legacy', why: `server/discover: HTTP ${response.status} without a JSON-RPC answer` };
  // −32022, −32020, −32021 in a 4xx: read as on stdio (transport spec, Backward Compatibility).
  if (answer && 'error' in answer && isModernErrorCode(answer.error.code)) return eraOfAnswer(answer);
  return {
    era: 'legacy',
    why: `server/discover: HTTP ${response.status}${answer && 'error' in answer ? ` (${answer.error.code}: ${answer.error.message})` : ''}`
  };
}

/**
 * The JSON-RPC error of a request that failed through the SDK's Streamable HTTP transport: the
 * one in the body a `StreamableHTTPError` (a 4xx or 5xx answer) quotes, or an `McpError`'s own
 * (its code, and its message without the SDK's prefix). Undefined when there is none (a network
 * error, a body that is not JSON-RPC).
 */
export function jsonRpcErrorOf(error: unknown): { code: number; message: string } | undefined {
  if (error instanceof StreamableHTTPError) {
    const body = error.message.indexOf('{');
    const found = body < 0 ? undefined : jsonRpcError(error.message.slice(body));
    return found && { code: found.code, message: found.message };
  }
  if (!(error instanceof McpError)) return undefined;
  return { code: error.code, message: error.message.replace(/^MCP error -?\d+: /, '') };
}

/**
 * The Streamable HTTP transport to a modern server: the SDK's, with {@link modernHttpFetch}
 * over `base` (the OAuth fetch of a server that signs in: bearer token, refresh, step-up).
 */
export function modernHttpTransport(
  transport: HttpTransportConfig,
  base?: FetchLike,
  extraHeaders?: ExtraHeaders
): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(transport.url), {
    ...(transport.headers && { requestInit: { headers: transport.headers } }),
    fetch: modernHttpFetch(base, extraHeaders)
  });
}

/** Headers one outgoing request carries besides the standard ones (the `Mcp-Param-*` of a tool call). */
export type ExtraHeaders = (message: { method: string; params?: unknown }) => Record<string, string> | undefined;

/**
 * A `fetch` for the SDK's Streamable HTTP client that speaks the 2026-07-28 binding.
 *
 * - Each request POST gets the request metadata headers of its message (headers already
 *   set, such as the user's `Authorization`, stay; ours win on the protocol's own names).
 * - Client notifications are not posted (this revision defines none over HTTP): the SDK's
 *   `notifications/cancelled` instead closes the cancelled request's response, which is how
 *   cancellation is signalled over HTTP.
 * - A 4xx whose body is a JSON-RPC error (modern servers answer −32022, −32021, −32020 and
 *   unknown methods that way) reaches the SDK as that error for the request, with its code,
 *   instead of a transport failure that would drop it.
 *
 * Anything else (GET, a posted response, an unparsable body) goes out unchanged.
 */
export function modernHttpFetch(
  base: FetchLike = (url, init) => fetch(url, init),
  extraHeaders?: ExtraHeaders
): FetchLike {
  /** Each request's own abort, until its response body has been read. */
  const inFlight = new Map<string | number, AbortController>();
  return async (url, init) => {
    const message = init?.method === 'POST' ? outgoingMessage(init.body) : undefined;
    if (!message) return base(url, init);
    if (message.id === undefined) {
      const requestId = asObject(message.params).requestId;
      if (
        message.method === 'notifications/cancelled' &&
        (typeof requestId === 'string' || typeof requestId === 'number')
      ) {
        inFlight.get(requestId)?.abort();
        inFlight.delete(requestId);
      }
      return new Response(null, { status: 202 });
    }
    const id = message.id;
    const controller = new AbortController();
    inFlight.set(id, controller);
    const done = () => {
      if (inFlight.get(id) === controller) inFlight.delete(id);
    };
    const headers = new Headers(init?.headers);
    for (const [name, value] of Object.entries(extraHeaders?.(message) ?? {})) headers.set(name, value);
    for (const [name, value] of Object.entries(modernRequestHeaders(message))) headers.set(name, value);
    try {
      const response = await base(url, {
        ...init,
        headers,
        signal: init?.signal ? AbortSignal.any([init.signal, controller.signal]) : controller.signal
      });
      return await asAnswer(response, id, done);
    } catch (error) {
      done();
      throw error;
    }
  };
}

/** The response as the SDK should see it; `done` runs once its body has been read (or at once). */
async function asAnswer(response: Response, id: string | number, done: () => void): Promise<Response> {
  if (response.status >= 400 && response.status < 500) {
    done();
    const text = await response.text();
    const error = jsonRpcError(text);
    if (error) return Response.json({ jsonrpc: '2.0', id, error });
    return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
  }
  if (!response.ok || response.body === null) {
    done();
    return response;
  }
  const body = response.body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({ flush: done }));
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** The JSON-RPC error of a body, when it is a JSON-RPC error response. */
function jsonRpcError(text: string): { code: number; message: string; data?: unknown } | undefined {
  try {
    const error = asObject(asObject(JSON.parse(text)).error);
    if (typeof error.code !== 'number' || typeof error.message !== 'string') return undefined;
    return { code: error.code, message: error.message, ...(error.data !== undefined && { data: error.data }) };
  } catch {
    return undefined;
  }
}

/** The JSON-RPC request or notification a POST body carries (not a response, not a batch). */
function outgoingMessage(body: unknown): { id?: string | number; method: string; params?: unknown } | undefined {
  if (typeof body !== 'string') return undefined;
  try {
    const message = asObject(JSON.parse(body));
    if (typeof message.method !== 'string') return undefined;
    const id = message.id;
    return {
      method: message.method,
      params: message.params,
      ...((typeof id === 'string' || typeof id === 'number') && { id })
    };
  } catch {
    return undefined;
  }
}

/**
 * The answer to the probe in a JSON or SSE body (an error without an id counts: a server
 * refusing a request before reading it may not echo it; see `probeAnswerOf`). SSE is read only until it.
 */
async function readAnswer(response: Response): Promise<ProbeAnswer | undefined> {
  const contentType = response.headers.get('content-type') ?? '';
  if (!contentType.includes('text/event-stream')) {
    const text = await response.text();
    try {
      return probeAnswerOf(JSON.parse(text), { orphanErrors: true });
    } catch {
      return undefined;
    }
  }
  if (!response.body) return undefined;
  const reader = response.body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  try {
    for (;;) {
      const { value: event, done } = await reader.read();
      if (done) return undefined;
      if (event.data.length === 0) continue;
      try {
        const answer = probeAnswerOf(JSON.parse(event.data), { orphanErrors: true });
        if (answer) return answer;
      } catch {
        // Not JSON: not our answer.
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

function asObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
