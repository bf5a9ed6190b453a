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
  /**
   * Bytes of request params (tasks and ordinary requests) one server may send per second, and in
   * one burst above that: what a server makes Taskdesk parse, journal and sync, whatever it keeps.
   */
  requestBytesPerSecond: number;
  requestBytesBurst: number;
  /** Tasks per `tasks/list` page (the requestor cannot ask for more). */
  listPageSize: number;
  /**
   * Bytes (of stored JSON) of one server's unfinished tasks: a new task that would go above it is
   * refused. Unfinished work cannot be evicted, so this is what bounds it, with `maxOpenBytesTotal`.
   */
  maxOpenBytesPerServer: number;
  /** Bytes of every server's unfinished tasks together; a new task above it is refused. */
  maxOpenBytesTotal: number;
  /** Finished tasks one server may leave in Taskdesk; above it its oldest finished tasks expire early. */
  maxFinishedTasksPerServer: number;
  /** Finished tasks of all servers together; above it the server holding most loses its oldest. */
  maxFinishedTasksTotal: number;
  /** Bytes of one server's stored tasks (finished and not); above it its oldest finished tasks expire early. */
  maxStoredBytesPerServer: number;
  /** Bytes of all stored tasks together; above it the server holding most loses its oldest finished tasks. */
  maxStoredBytesTotal: number;
  /** Largest outcome (result or error) a task keeps, in bytes of JSON; a larger one fails the task. */
  maxResultBytes: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MiB = 1024 * 1024;

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
  maxRequestBytes: MiB,
  // A person or a model answers a few large requests a second at most; a server sending 25 MB a
  // second (1 MB questions it cancels at once) would keep the disk and the event loop busy.
  requestBytesPerSecond: 2 * MiB,
  requestBytesBurst: 8 * MiB,
  listPageSize: 50,
  // What a server can make Taskdesk keep. A stored byte costs about two in the heap (the record
  // and the JSON text the store keeps of it), so 64 MiB stored keeps a host flooded by one or two
  // servers near 200 MB of heap; every bound holds across restarts (it is applied while loading).
  maxOpenBytesPerServer: 16 * MiB,
  maxOpenBytesTotal: 48 * MiB,
  maxFinishedTasksPerServer: 1_000,
  maxFinishedTasksTotal: 5_000,
  maxStoredBytesPerServer: 32 * MiB,
  maxStoredBytesTotal: 64 * MiB,
  maxResultBytes: MiB
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
