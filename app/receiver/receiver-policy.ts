import type { TaskKind } from './task-record.js';

/**
 * The numbers the receiver runs by. Each is documented in the README under
 * "Task receiver policy"; change both together.
 */
export interface ReceiverPolicy {
  /** TTL used when a request names none, and the most a request can ask for, per request type (ms). */
  ttl: Record<TaskKind, { default: number; max: number }>;
  /** The `pollInterval` suggested to requestors, per request type (ms). */
  pollInterval: Record<TaskKind, number>;
  /** Non-terminal tasks one server may hold at once. */
  maxActiveTasksPerServer: number;
  /** Task operations (creates, tasks/get, tasks/result, tasks/list, tasks/cancel) per second per server. */
  operationsPerSecond: number;
  /** Operations a server may send in one burst above the steady rate. */
  operationsBurst: number;
  /** Largest request params accepted, in bytes of JSON. */
  maxRequestBytes: number;
  /** Tasks per `tasks/list` page (the requestor cannot ask for more). */
  listPageSize: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The defaults documented in the README. */
export const defaultReceiverPolicy: ReceiverPolicy = {
  ttl: {
    // A model answers in minutes, but with the "ask" policy a person approves it first.
    sampling: { default: 30 * MINUTE, max: DAY },
    // People answer slowly: a question may wait over a weekend.
    elicitation: { default: DAY, max: 7 * DAY }
  },
  pollInterval: { sampling: 1_000, elicitation: 5_000 },
  maxActiveTasksPerServer: 100,
  operationsPerSecond: 50,
  operationsBurst: 200,
  maxRequestBytes: 1024 * 1024,
  listPageSize: 50
};

/**
 * The TTL a task gets: the requested one capped by the maximum, or the default. A fractional
 * TTL is rounded up to whole milliseconds (0.5 is 1 ms, never 0: a task is not gone before it
 * is acknowledged by rounding alone).
 */
export function effectiveTtl(policy: ReceiverPolicy, kind: TaskKind, requested: number | undefined | null): number {
  const { default: fallback, max } = policy.ttl[kind];
  if (requested === undefined || requested === null || !Number.isFinite(requested) || requested <= 0) return fallback;
  return Math.min(Math.ceil(requested), max);
}
