import type { z } from 'zod';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CancelTaskRequestSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  ListTasksRequestSchema,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageExtraInfo
} from '@modelcontextprotocol/sdk/types.js';
import type { ErrorData } from '../core/errors.js';
import { JsonRpcCode } from '../core/errors.js';
import { DEFAULT_MAX_DEPTH, describeIssues, errorResponse, nestsDeeperThan } from './jsonrpc-checks.js';
import { isRequestId } from './lean-schemas.js';
import { METHOD_NOT_FOUND } from './sdk-seams.js';

/**
 * The requests the task receiver answers, each with the SDK's schema for it. The receiver
 * counts these against the server's rate limit itself; the gate counts every other request.
 */
const RECEIVER_REQUESTS: ReadonlyMap<string, z.ZodType> = new Map<string, z.ZodType>([
  ['sampling/createMessage', CreateMessageRequestSchema],
  ['elicitation/create', ElicitRequestSchema],
  ['tasks/get', GetTaskRequestSchema],
  ['tasks/result', GetTaskPayloadRequestSchema],
  ['tasks/list', ListTasksRequestSchema],
  ['tasks/cancel', CancelTaskRequestSchema]
]);

/** Options for {@link GatedTransport}. */
export interface RequestGateOptions {
  /**
   * Takes one token of the server's rate limit for a request the receiver does not count
   * (unknown methods, `ping`, refused requests); returns the error to answer when none is left.
   */
  admit(): ErrorData | undefined;
  /** The deepest nesting accepted in params (default {@link DEFAULT_MAX_DEPTH}). */
  maxDepth?: number;
  /**
   * Whether requests from the server are to be dropped unanswered: true once the server is
   * known to speak MCP 2026-07-28, which has no server-initiated requests (its stdio transport:
   * the server must not write requests, the client must not write responses).
   */
  dropsRequests?(): boolean;
  /**
   * Whether the client has a handler for a method (see `handlesRequest`): any other request is
   * answered here as the SDK would answer it (−32601), once counted. Without it, every request
   * goes on to the SDK.
   */
  handles?(method: string): boolean;
}

/**
 * Why a request from a server is refused before any handler sees it, or undefined.
 *
 * Params nested too deep are −32602 (zod recurses and would exhaust the stack); params the
 * SDK's schema for a receiver method refuses are −32602 naming the field and what was
 * expected, where the SDK would answer −32603 with a raw zod dump.
 */
export function requestRefusal(request: JSONRPCRequest, maxDepth = DEFAULT_MAX_DEPTH): ErrorData | undefined {
  if (nestsDeeperThan(request.params, maxDepth))
    return {
      code: JsonRpcCode.InvalidParams,
      message: `Invalid params: nested more than ${maxDepth} levels deep`,
      data: { maxDepth }
    };
  const schema = RECEIVER_REQUESTS.get(request.method);
  if (!schema) return undefined;
  const parsed = schema.safeParse({ method: request.method, params: request.params });
  if (parsed.success) return undefined;
  return {
    code: JsonRpcCode.InvalidParams,
    message: `Invalid params for ${request.method}: ${describeIssues(parsed.error, ['params'])}`
  };
}

/**
 * Whether a message is a request by its keys. The stdio and HTTP transports deliver only what
 * the SDK's envelope schema accepts (the line reader; the SDK's own parse), whose branches are
 * strict, so there a `method` and an `id` make a request; an in-memory transport delivers
 * anything, so the id, the method and the absence of an answer's keys are checked too. Asking
 * the schema again would cost every message, poll answers included, a copy or a failed parse.
 * What this refuses goes on to the SDK, which ignores what it cannot read.
 */
function isRequestShaped(message: JSONRPCMessage): message is JSONRPCRequest {
  if (!('method' in message) || !('id' in message) || 'result' in message || 'error' in message) return false;
  return typeof message.method === 'string' && isRequestId(message.id);
}

/**
 * A transport with a gate in front of the client: every request a server sends is checked
 * ({@link requestRefusal}) and counted against its rate limit before the SDK dispatches it,
 * whatever the transport (stdio, Streamable HTTP, in memory); with `handles`, a request for a
 * method the client has no handler for is answered here, as the SDK would answer it.
 *
 * A decorator rather than a handler: the SDK answers `ping` itself (and, without `handles`,
 * unknown methods), and validates params before our handlers run; only a transport sees a
 * request first.
 */
export class GatedTransport implements Transport {
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /** The transport underneath (the one that spawned the process or holds the HTTP session). */
  readonly inner: Transport;
  readonly #options: RequestGateOptions;

  constructor(inner: Transport, options: RequestGateOptions) {
    this.inner = inner;
    this.#options = options;
    inner.onmessage = (message, extra) => this.#receive(message, extra);
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  /** The protocol version an HTTP transport negotiated (undefined on others). */
  get protocolVersion(): string | undefined {
    const version = (this.inner as { protocolVersion?: unknown }).protocolVersion;
    return typeof version === 'string' ? version : undefined;
  }

  /** The child process id of a stdio transport (null on others). */
  get pid(): number | null {
    const pid = (this.inner as { pid?: unknown }).pid;
    return typeof pid === 'number' ? pid : null;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  #receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    if (!isRequestShaped(message)) {
      this.onmessage?.(message, extra);
      return;
    }
    if (this.#options.dropsRequests?.()) return;
    const refusal = requestRefusal(message, this.#options.maxDepth);
    if (refusal || !RECEIVER_REQUESTS.has(message.method)) {
      const limited = this.#options.admit();
      if (limited) return this.#reply(message, limited);
    }
    if (refusal) return this.#reply(message, refusal);
    if (this.#options.handles && !this.#options.handles(message.method)) return this.#reply(message, METHOD_NOT_FOUND);
    this.onmessage?.(message, extra);
  }

  #reply(request: JSONRPCRequest, error: ErrorData): void {
    this.inner
      .send(errorResponse({ id: request.id, error }))
      .catch((cause: unknown) => this.onerror?.(cause instanceof Error ? cause : new Error(String(cause))));
  }
}
