import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { HostError, JsonRpcCode, toErrorData } from '../core/errors.js';

/**
 * How the requestor reads errors from `tasks/*` exchanges.
 *
 * Three kinds matter: the receiver does not know the task (−32602), the exchange failed
 * locally (timeout, connection closed, aborted: nothing was learned about the task), and
 * anything else the receiver answered (which may be the task's own outcome).
 */

/** The JSON-RPC code of an error, when it has one. */
export function errorCodeOf(error: unknown): number | undefined {
  if (error instanceof McpError || error instanceof HostError) return error.code;
  return undefined;
}

/** Whether the receiver answered "no such task" (−32602, Invalid params). */
export function isTaskNotFound(error: unknown): boolean {
  return errorCodeOf(error) === JsonRpcCode.InvalidParams;
}

/**
 * Whether the exchange failed on this side: the SDK's own timeout or connection-closed
 * errors, or an abort. These say nothing about the task, so they are never recorded as
 * its outcome. The SDK reuses −32000/−32001 for these, so the message and data are checked
 * too, lest a receiver's own −32000 be taken for a local failure.
 */
export function isLocalFailure(error: unknown): boolean {
  if (error instanceof McpError) {
    if (error.code === (ErrorCode.RequestTimeout as number)) {
      return typeof error.data === 'object' && error.data !== null && 'timeout' in error.data;
    }
    if (error.code === (ErrorCode.ConnectionClosed as number)) return /Connection closed/i.test(error.message);
    return false;
  }
  // Anything that is not a JSON-RPC error (abort reasons, a response that failed schema
  // parsing, a transport exception) did not come from the receiver as an answer.
  return true;
}

/** Rethrows what a peer or the SDK threw as a `HostError`, keeping an MCP code unchanged. */
export function toHostError(error: unknown): HostError {
  if (error instanceof HostError) return error;
  const data = toErrorData(error);
  return new HostError(data.code, data.message, data.data);
}
