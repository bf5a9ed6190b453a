import type { z } from 'zod';
import {
  JSONRPCErrorResponseSchema,
  JSONRPCMessageSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  JSONRPCResultResponseSchema,
  type JSONRPCMessage
} from '@modelcontextprotocol/sdk/types.js';
import { JsonRpcCode } from '../core/errors.js';
import { hasProtoKey, isPlainRequestMeta, isRecord, isRequestId } from './lean-schemas.js';

/**
 * Checks on what an untrusted peer sent, before the SDK sees it.
 *
 * The SDK drops a message its envelope schema refuses (no answer, even with a readable id),
 * and answers a request whose params its handler schema refuses with −32603 and a raw zod
 * dump. These checks give each such request the JSON-RPC answer it is owed, with a message a
 * server author can read.
 */

/** A JSON-RPC id as JSON-RPC allows one (null: the id could not be read). */
export type JsonRpcId = string | number | null;

/** An error answer to send back. */
export interface Refusal {
  id: JsonRpcId;
  error: { code: number; message: string; data?: unknown };
}

/** The deepest nesting of arrays and objects accepted in a message, by default. */
export const DEFAULT_MAX_DEPTH = 128;

/** A JSON-RPC error response for a refusal. */
export function errorResponse(refusal: Refusal): JSONRPCMessage {
  return { jsonrpc: '2.0', id: refusal.id, error: refusal.error } as unknown as JSONRPCMessage;
}

/** The id of a message when it is one JSON-RPC allows (a string or a number), else undefined. */
export function readableId(value: unknown): string | number | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : undefined;
}

/**
 * Whether `value` nests arrays and objects deeper than `max`. Iterative, so a hostile
 * message cannot exhaust the stack here (zod and `JSON.stringify` recurse, and would).
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth + 1 > max) return true;
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children)
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: depth + 1 });
  }
  return false;
}

/**
 * What is wrong with a parsed message's envelope, as the error to answer with, or undefined
 * when it is a well-formed request, notification or response. A broken request is answered
 * −32600 with its id when the id is readable, `id: null` otherwise; a broken `_meta` is −32602
 * (it is part of the params). Returns `undefined` too for what deserves no answer (a broken
 * notification, a broken response): {@link isWellFormed} tells those apart.
 */
export function envelopeRefusal(value: unknown, maxDepth: number): Refusal | undefined {
  if (Array.isArray(value)) return invalid(null, 'Batches are not supported: MCP sends one JSON-RPC message per line');
  if (typeof value !== 'object' || value === null) return invalid(null, 'A JSON-RPC message must be an object');
  const message = value as Record<string, unknown>;
  const id = readableId(message);
  const isRequest = 'method' in message && 'id' in message;
  const isResponse = !('method' in message) && ('result' in message || 'error' in message);
  if (!isRequest && !isResponse && 'id' in message && id !== undefined && !('method' in message))
    return invalid(id, 'Invalid request: a JSON-RPC request needs "method", a response "result" or "error"');
  if (!isRequest) return undefined;
  if (id === undefined) return invalid(null, 'Invalid request: "id" must be a string or a number');
  if (message.jsonrpc !== '2.0') return invalid(id, 'Invalid request: "jsonrpc" must be "2.0"');
  if (typeof message.method !== 'string') return invalid(id, 'Invalid request: "method" must be a string');
  if (
    'params' in message &&
    (typeof message.params !== 'object' || message.params === null || Array.isArray(message.params))
  )
    return invalid(id, 'Invalid request: "params" must be an object');
  if (nestsDeeperThan(message.params, maxDepth))
    return {
      id,
      error: {
        code: JsonRpcCode.InvalidParams,
        message: `Invalid params: nested more than ${maxDepth} levels deep`,
        data: { maxDepth }
      }
    };
  if (isPlainRequest(message)) return undefined;
  const parsed = JSONRPCRequestSchema.safeParse(message);
  if (parsed.success) return undefined;
  const inParams = parsed.error.issues.every((issue) => issue.path[0] === 'params');
  return {
    id,
    error: {
      code: inParams ? JsonRpcCode.InvalidParams : JsonRpcCode.InvalidRequest,
      message: `${inParams ? 'Invalid params' : 'Invalid request'}: ${describeIssues(parsed.error, inParams ? ['params'] : [])}`
    }
  };
}

/**
 * The message as the SDK reads it, or undefined when its envelope schema refuses it.
 *
 * Accepts exactly what the SDK's `JSONRPCMessageSchema` accepts, for less: that schema is a union
 * of four strict schemas tried in turn, and every branch that fails first builds its issues (a
 * response failed two, a notification one). A message's keys leave only one branch possible
 * (`method` and `id`: a request; `method` alone: a notification; `result`: a result response;
 * `error`: an error response), so only that one is checked. The commonest message, a result
 * response with nothing unusual in it (the answer to every poll of every followed task), is
 * checked by hand instead of by zod, which would copy it whole for nothing: the SDK's Protocol
 * checks it again against `JSONRPCResultResponseSchema`, and the request's result schema after
 * that. Anything else in a response goes to the schema. `test/unit/mcp/jsonrpc-envelope.test.ts`
 * holds this to the union's verdicts.
 */
export function asJsonRpcMessage(value: unknown): JSONRPCMessage | undefined {
  if (!isRecord(value)) return undefined;
  const message = value;
  if ('method' in message) {
    if (!('id' in message)) return parsed(JSONRPCNotificationSchema, message);
    return isPlainRequest(message) ? (message as JSONRPCMessage) : parsed(JSONRPCRequestSchema, message);
  }
  if ('result' in message)
    return isPlainResultResponse(message) ? (message as JSONRPCMessage) : parsed(JSONRPCResultResponseSchema, message);
  if ('error' in message) return parsed(JSONRPCErrorResponseSchema, message);
  return parsed(JSONRPCMessageSchema, message);
}

function parsed(schema: z.ZodType, value: unknown): JSONRPCMessage | undefined {
  const result = schema.safeParse(value);
  return result.success ? (result.data as JSONRPCMessage) : undefined;
}

/**
 * Whether `JSONRPCResultResponseSchema` accepts `message` and would give back the same data: only
 * `jsonrpc` "2.0", an id that is a string or a safe integer, and a `result` object whose `_meta`,
 * if any, holds a well-formed progress token and related task, with no key the schema would drop
 * from what it copies (see `lean-schemas.ts`). False does not mean refused, only "ask the schema".
 */
export function isPlainResultResponse(message: Record<string, unknown>): boolean {
  // The schema is strict, and reads keys with `for...in` as this does.
  for (const key in message) if (key !== 'jsonrpc' && key !== 'id' && key !== 'result') return false;
  if (message.jsonrpc !== '2.0' || !isRequestId(message.id)) return false;
  const result = message.result;
  if (!isRecord(result) || hasProtoKey(result)) return false;
  return result._meta === undefined || isPlainRequestMeta(result._meta);
}

/**
 * Whether `JSONRPCRequestSchema` accepts `message` and would give back the same data: only
 * `jsonrpc` "2.0", an id that is a string or a safe integer, a string `method`, and `params`, if
 * any, an object (the schema keeps its other keys) whose `_meta`, if any, holds a well-formed
 * progress token and related task. Every request a server sends is read here, a flood of them
 * too: zod would copy each one, and build a list of issues for each branch of a union it fails.
 * False does not mean refused, only "ask the schema".
 */
export function isPlainRequest(message: Record<string, unknown>): boolean {
  // The schema is strict, and reads keys with `for...in` as this does.
  for (const key in message)
    if (key !== 'jsonrpc' && key !== 'id' && key !== 'method' && key !== 'params') return false;
  if (message.jsonrpc !== '2.0' || !isRequestId(message.id) || typeof message.method !== 'string') return false;
  const params = message.params;
  if (params === undefined) return true;
  if (!isRecord(params) || hasProtoKey(params)) return false;
  return params._meta === undefined || isPlainRequestMeta(params._meta);
}

function invalid(id: JsonRpcId, message: string): Refusal {
  return { id, error: { code: JsonRpcCode.InvalidRequest, message } };
}

/** At most this many issues are named in one message. */
const MAX_ISSUES = 3;

/**
 * A short account of what a schema refused: `task.ttl: expected a number, got null`, for at
 * most three fields. `strip` is the path prefix the reader already knows (`params`).
 */
export function describeIssues(error: z.ZodError, strip: readonly PropertyKey[] = []): string {
  const issues = flatten(error.issues);
  const parts = issues.slice(0, MAX_ISSUES).map((issue) => {
    const path = issue.path.slice(strip.length).map(String).join('.');
    return `${path || '(params)'}: ${describeIssue(issue)}`;
  });
  const more = issues.length - MAX_ISSUES;
  return parts.join('; ') + (more > 0 ? ` (and ${more} more)` : '');
}

/** Issues with unions opened: the branch with the fewest issues says best what was meant. */
function flatten(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  return issues.flatMap((issue) => {
    if (issue.code !== 'invalid_union' || issue.errors.length === 0) return [issue];
    const best = issue.errors.reduce((a, b) => (b.length < a.length ? b : a));
    return flatten(best.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] })));
  });
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type') {
    // zod keeps no input in its issues; its message names what it received.
    const received = /received (\w+)/.exec(issue.message)?.[1];
    return received === undefined || received === 'undefined'
      ? `required (${withArticle(issue.expected)})`
      : `expected ${withArticle(issue.expected)}, got ${received === 'null' ? 'null' : withArticle(received)}`;
  }
  if (issue.code === 'invalid_value') return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
  if (issue.code === 'unrecognized_keys') return `unexpected ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  // Other issues (sizes, formats, custom checks): zod's own message is already one line.
  return issue.message;
}

function withArticle(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/**
 * The top-level `id` and whether there is a `method`, read from the start of a message too
 * large to parse (its first bytes, kept while the rest was skipped). A tiny scanner rather
 * than a parser: it only follows strings and nesting at the top level. No library reads a
 * prefix of JSON this way; a streaming parser would buffer what we chose not to.
 */
export function topLevelFields(prefix: string): { id?: string | number; method: boolean } {
  let depth = 0;
  let i = 0;
  let key: string | undefined;
  let expectKey = false;
  let method = false;
  let id: string | number | undefined;
  const readString = (): string | undefined => {
    const start = i;
    i++;
    while (i < prefix.length && prefix[i] !== '"') i += prefix[i] === '\\' ? 2 : 1;
    if (i >= prefix.length) return undefined;
    i++;
    try {
      return JSON.parse(prefix.slice(start, i)) as string;
    } catch {
      return undefined;
    }
  };
  for (; i < prefix.length;) {
    const ch = prefix[i]!;
    if (ch === '"') {
      const text = readString();
      if (text === undefined) break;
      if (depth === 1 && expectKey) {
        key = text;
        expectKey = false;
      } else if (depth === 1 && key === 'id' && id === undefined) id = text;
      continue;
    }
    if (ch === '{' || ch === '[') {
      depth++;
      if (depth === 1) expectKey = ch === '{';
    } else if (ch === '}' || ch === ']') depth--;
    else if (ch === ',' && depth === 1) expectKey = true;
    else if (ch === ':' && depth === 1) {
      if (key === 'method') method = true;
      if (key === 'id') {
        const number = /^\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(prefix.slice(i + 1, i + 40));
        if (number && id === undefined) id = Number(number[1]);
      }
    }
    i++;
  }
  return id === undefined ? { method } : { id, method };
}
