import { McpError } from '@modelcontextprotocol/sdk/types.js';

/** JSON-RPC error codes the core uses, in the protocol's own numbers. */
export const JsonRpcCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Implementation-defined: the peer sent too many requests or holds too many open tasks. */
  TooManyRequests: -32029,
  /** Implementation-defined (the LSP convention): the work was cancelled before it finished. */
  RequestCancelled: -32800,
  /** MCP's code for a sampling request the user rejected. */
  UserRejected: -1
} as const;

/** An error as data: what crosses every boundary (JSON-RPC, host API, IPC). */
export type { ErrorData } from '../contract/common.js';
import type { ErrorData } from '../contract/common.js';
import { serverErrorText } from '../contract/error-words.js';

/** An error that carries a JSON-RPC code; MCP errors pass through unchanged. */
export class HostError extends Error {
  readonly code: number;
  readonly data: unknown;
  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'HostError';
    this.code = code;
    this.data = data;
  }

  /** The same error as an `McpError`, for handlers the SDK answers with. */
  toMcpError(): McpError {
    return new McpError(this.code, this.message, this.data);
  }
}

/**
 * What work is aborted with when Taskdesk closes. Not a cancel: the task stays as it was stored
 * and its work starts again at the next start (a question waits again), so nothing that sees it
 * may record the work as cancelled or answer the server with it.
 */
export class ShuttingDownError extends Error {
  constructor() {
    super('Taskdesk is shutting down');
    this.name = 'ShuttingDownError';
  }
}

/** The message of anything thrown: an Error's own, anything else as a string. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Turns anything thrown into error data, keeping an MCP or host code when there is one. */
export function toErrorData(error: unknown, fallbackCode: number = JsonRpcCode.InternalError): ErrorData {
  if (error instanceof HostError || error instanceof McpError) {
    // `McpError` leads its message with "MCP error <code>: " (and a server's message may hold
    // the lead of its own McpError): the code travels beside it.
    const message = serverErrorText(error);
    return error.data === undefined ? { code: error.code, message } : { code: error.code, message, data: error.data };
  }
  if (error instanceof Error) return { code: fallbackCode, message: error.message };
  return { code: fallbackCode, message: String(error) };
}

/** Builds an `McpError` from error data, for answering a JSON-RPC request with it. */
export function mcpErrorFrom(error: ErrorData): McpError {
  return new McpError(error.code, error.message, error.data);
}

/** The first error of `error`'s chain of causes (itself first) that is a `type`, if any. */
export function inChain<T>(error: unknown, type: abstract new (...args: never[]) => T): T | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    if (current instanceof type) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
