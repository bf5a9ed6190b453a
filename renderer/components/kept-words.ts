import { formatDuration } from './format.js';

/**
 * Which way a task goes: `received` (a server's request Taskdesk runs, so Taskdesk keeps it for
 * the server) or `requested` (a tool call Taskdesk asked for, so the server keeps it for Taskdesk).
 */
export type TaskDirection = 'received' | 'requested';

/**
 * Who keeps a task and its result until its TTL ends, and whether it still does, as the start of
 * a sentence: "Taskdesk keeps the task and its result", "The server kept the task and its result".
 * Every screen that tells a task's lifetime starts with these words; `midLine` writes "the server"
 * for the middle of a line.
 */
export function keptWords(direction: TaskDirection, { past = false, midLine = false } = {}): string {
  const keeper = direction === 'received' ? 'Taskdesk' : midLine ? 'the server' : 'The server';
  return `${keeper} ${past ? 'kept' : 'keeps'} the task and its result`;
}

/** A task's lifetime at `now`, in words; `ended` when its time has passed (the words then end "until"). */
export interface KeptLine {
  words: string;
  ended: boolean;
  /**
   * Within its last stretch (from `warnAt`): the words say "only", and where they are shown a ⚠
   * goes before them, hidden from screen readers (the words are the warning; the sign is not said).
   */
  warning: boolean;
  /** Its keeper let it go before its time passed ("no longer kept"): no date follows. */
  gone?: true;
}

/**
 * Whether a task's keeper no longer keeps it, whatever time its TTL had left: a requested task
 * `lost` (its server no longer knows it) or `expired` (its result can no longer be fetched).
 */
export function keptNoLonger(status: string): boolean {
  return status === 'lost' || status === 'expired';
}

/**
 * Whether a task's lifetime still counts down at `now` (a clock is worth keeping for it): not
 * without a time limit, nor once its time has passed (the words then no longer change), nor once
 * its keeper let it go (`gone`).
 */
export function keptCounting(expiresAt: string | undefined, now: number, gone = false): boolean {
  return !gone && expiresAt !== undefined && Date.parse(expiresAt) > now;
}

/**
 * How long a task and its result are still kept (its TTL from creation): "Taskdesk keeps the task
 * and its result for 9 min more", "… without a time limit", "… for a time not known" (an end that
 * is no date), and once the time has passed "… kept the task and its result until" (the date
 * follows; `compact`, "was kept until", which cannot be read as a time still to come). `gone`
 * (see {@link keptNoLonger}): once its time has passed it says so as above; before, "… no longer
 * keeps the task and its result" (`compact`, "no longer kept"), never a countdown. What is left is
 * rounded up to `unitMs` ("for 0 s more" would read as gone). `warned` warns as `warnAt` does: the
 * host said its time is nearly up.
 */
export function keptLine(
  direction: TaskDirection,
  expiresAt: string | undefined,
  now: number,
  {
    warnAt,
    unitMs = 1000,
    midLine = false,
    compact = false,
    warned = false,
    gone = false
  }: {
    warnAt?: string | undefined;
    unitMs?: number;
    midLine?: boolean;
    compact?: boolean;
    warned?: boolean;
    gone?: boolean;
  } = {}
): KeptLine {
  // A table's "Kept" column says the rest of the sentence; its header and the row say who keeps it.
  const lead = (past = false) => (compact ? '' : `${keptWords(direction, { past, midLine })} `);
  const end = expiresAt === undefined ? NaN : Date.parse(expiresAt);
  const left = end - now;
  if (left <= 0) return { words: compact ? 'was kept until' : `${lead(true)}until`, ended: true, warning: false };
  if (gone) {
    const words = compact
      ? 'no longer kept'
      : keptWords(direction, { midLine }).replace(/ keeps /, ' no longer keeps ');
    return { words, ended: true, warning: false, gone: true };
  }
  if (expiresAt === undefined) return { words: `${lead()}without a time limit`, ended: false, warning: false };
  // An end that is no date is a limit not known, not none.
  if (Number.isNaN(end)) return { words: `${lead()}for a time not known`, ended: false, warning: false };
  const warning = warned || (warnAt !== undefined && now >= Date.parse(warnAt));
  const time = formatDuration(Math.ceil(left / unitMs) * unitMs);
  const words = `${lead()}for ${warning ? 'only ' : ''}${time} more`;
  return { words, ended: false, warning };
}
