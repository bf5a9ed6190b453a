/**
 * When to poll `tasks/get` next.
 *
 * The receiver's `pollInterval` is honoured exactly: the next poll is due at the time the
 * previous one was sent (or the task was created) plus the interval, so a task that runs
 * for `d` ms with interval `p` costs `ceil(d / p)` polls. When the receiver gives no
 * interval the requestor backs off: 1 s, doubling after every poll that shows no change,
 * up to 10 s; any change starts again at 1 s.
 *
 * A poll goes out in the first slot of {@link POLL_SLOT_MS} (aligned on the clock) at or after
 * the time it is due: never early, at most that much late. Polls of many tasks due within a slot
 * then go out together, in one write, instead of one timer, one write and one wake-up of the
 * server each.
 */
export interface PollPolicy {
  /** Interval used when the receiver gives none, after a change. Default 1000 ms. */
  initialMs: number;
  /** Upper bound of the backoff. Default 10 000 ms. */
  maxMs: number;
  /** Lower bound on any interval, so a receiver answering `pollInterval: 0` cannot make the host spin. Default 100 ms. */
  minMs: number;
}

/** The documented defaults. */
export const DEFAULT_POLL_POLICY: PollPolicy = { initialMs: 1000, maxMs: 10_000, minMs: 100 };

/** The interval to wait before the next poll. */
export function pollIntervalMs(policy: PollPolicy, serverInterval: number | undefined, backoffMs: number): number {
  const interval = serverInterval !== undefined && Number.isFinite(serverInterval) ? serverInterval : backoffMs;
  return Math.max(policy.minMs, interval);
}

/** The backoff after a poll: reset on a change, doubled (up to the cap) otherwise. */
export function nextBackoffMs(policy: PollPolicy, currentMs: number, changed: boolean): number {
  return changed ? policy.initialMs : Math.min(policy.maxMs, currentMs * 2);
}

/** Width of the slots polls are gathered into (see above). */
export const POLL_SLOT_MS = 10;

/** The time a poll due at `dueMs` goes out: the start of the first slot at or after it. */
export function pollSlot(dueMs: number): number {
  return Math.ceil(dueMs / POLL_SLOT_MS) * POLL_SLOT_MS;
}
