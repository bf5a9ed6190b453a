import { z } from 'zod';
import {
  GetTaskPayloadResultSchema,
  GetTaskResultSchema,
  RELATED_TASK_META_KEY,
  TaskStatusSchema
} from '@modelcontextprotocol/sdk/types.js';

/**
 * SDK schemas for the messages a followed task brings by the thousand, with the same verdicts
 * and the same data, but without zod's copy of the common, well-formed case.
 *
 * zod's object schemas build a new object for every value they accept (copying each key of a
 * loose one); the answer to every `tasks/get` of every followed task was copied so, and that copy
 * was one of the requestor's largest allocations. A hand check here says whether a value is one
 * the schema accepts unchanged (no key it would drop, nothing in doubt); such a value is handed on
 * as it is, and anything else goes to the schema itself, for its data or its issues.
 * `test/unit/mcp/lean-schemas.test.ts` holds each check to its schema's verdicts. No library
 * checks a value "as zod would" without zod.
 */

/** A schema that gives `schema`'s verdicts, taking the short way for what `isPlain` vouches for. */
export function leanSchema<T extends z.ZodType>(
  schema: T,
  isPlain: (value: unknown) => boolean
): z.ZodType<z.output<T>> {
  return z.unknown().transform((value, ctx): z.output<T> => {
    if (isPlain(value)) return value as z.output<T>;
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues)
      ctx.addIssue({ ...issue, input: value } as Parameters<typeof ctx.addIssue>[0]);
    return z.NEVER;
  });
}

const TASK_KEYS = new Set([
  '_meta',
  'taskId',
  'status',
  'ttl',
  'createdAt',
  'lastUpdatedAt',
  'pollInterval',
  'statusMessage'
]);
const STATUSES = new Set<unknown>(TaskStatusSchema.options);

/** Whether `GetTaskResultSchema` (also `CancelTaskResultSchema`) takes `value` unchanged. */
export function isPlainTaskResult(value: unknown): boolean {
  if (!isRecord(value)) return false;
  // The schema drops keys it does not know (and `__proto__`): a value with one is not unchanged.
  for (const key in value) if (!TASK_KEYS.has(key)) return false;
  const { taskId, status, ttl, createdAt, lastUpdatedAt, pollInterval, statusMessage } = value;
  return (
    typeof taskId === 'string' &&
    STATUSES.has(status) &&
    (ttl === null || Number.isFinite(ttl)) &&
    typeof createdAt === 'string' &&
    typeof lastUpdatedAt === 'string' &&
    (pollInterval === undefined || Number.isFinite(pollInterval)) &&
    (statusMessage === undefined || typeof statusMessage === 'string') &&
    (value._meta === undefined || isPlainRequestMeta(value._meta))
  );
}

/** `GetTaskResultSchema`, without a copy of a well-formed answer. */
export const LeanGetTaskResultSchema = leanSchema(GetTaskResultSchema, isPlainTaskResult);

/**
 * Whether `GetTaskPayloadResultSchema` (any result: a loose object with the SDK's `_meta`) takes
 * `value` unchanged. Its copy is shallow, so a value passes with its parts as they are.
 */
export function isPlainPayloadResult(value: unknown): boolean {
  return isRecord(value) && !hasProtoKey(value) && (value._meta === undefined || isPlainRequestMeta(value._meta));
}

/** `GetTaskPayloadResultSchema` (a `tasks/result` answer), without a copy of a well-formed one. */
export const LeanGetTaskPayloadResultSchema = leanSchema(GetTaskPayloadResultSchema, isPlainPayloadResult);

/**
 * Whether the SDK's `_meta` schema of results and notifications (a loose object with an optional
 * progress token and related task) takes `meta` unchanged.
 */
export function isPlainRequestMeta(meta: unknown): boolean {
  if (!isRecord(meta) || hasProtoKey(meta)) return false;
  if (meta.progressToken !== undefined && !isRequestId(meta.progressToken)) return false;
  const related = meta[RELATED_TASK_META_KEY];
  if (related === undefined) return true;
  if (!isRecord(related) || typeof related.taskId !== 'string') return false;
  // The related task's schema drops its other keys.
  for (const key in related) if (key !== 'taskId') return false;
  return true;
}

/** A JSON-RPC id (or progress token) as the SDK's schema takes one: a string or a safe integer. */
export function isRequestId(value: unknown): boolean {
  return typeof value === 'string' || Number.isSafeInteger(value);
}

/** An object that is not an array (what zod's object schemas take). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether `value` has a key `__proto__` of its own (JSON can make one), which zod leaves out of its copy. */
export function hasProtoKey(value: Record<string, unknown>): boolean {
  for (const key in value) if (key === '__proto__') return true;
  return false;
}
