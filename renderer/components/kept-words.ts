import type { OutboundTaskView, ServerView } from '../../app/contract/host-api.js';
import { formatDateTime, formatDuration, unitFor, type CountUnit } from './format.js';

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
 * Whether the server of a requested task that ended is another process than the one that ran it:
 * a server Taskdesk starts itself (stdio) that is not running now, or was started again after
 * the task was created (a restart of Taskdesk starts it again). Such a server keeps the task only
 * if it stores its tasks: what is sure is what Taskdesk kept, the result it fetched (`outcome`,
 * kept until the person forgets the task). A server that runs on its own (HTTP) is not judged.
 */
export function startedAnewSince(
  task: Pick<OutboundTaskView, 'createdAt' | 'state'>,
  server: Pick<ServerView, 'transport' | 'state'> | undefined
): boolean {
  if (server?.transport.type !== 'stdio' || !endedOnServer(task.state)) return false;
  const since = server.state.status === 'ready' ? server.state.readySince : undefined;
  return since === undefined || Date.parse(since) > Date.parse(task.createdAt);
}

/**
 * How a task's keeper holds it, beyond its TTL (the props `TaskKept` takes): `gone` (see
 * {@link keptNoLonger}); `lost`, whose server lost it before its time, so it was never kept until
 * then; `anew`, a requested task that ended on a server that no longer holds it for Taskdesk:
 * started again since (see {@link startedAnewSince}) or, with `removed`, removed (no longer in
 * the Desk's list: Taskdesk never asks it again). `anew` is `result` when Taskdesk kept its
 * result, `none` when it has none (an error `tasks/result` answered is none).
 */
export interface KeptHold {
  gone: boolean;
  lost: boolean;
  anew?: 'result' | 'none';
  removed?: true;
}

/**
 * How a task is held (see {@link KeptHold}), from its status and, for a requested task, its
 * server: `undefined` for one removed, as the Desk's list of servers no longer has it.
 */
export function keptHold(
  status: string,
  outbound?: Pick<OutboundTaskView, 'createdAt' | 'state' | 'outcome'>,
  server?: Pick<ServerView, 'transport' | 'state'>
): KeptHold {
  const hold: KeptHold = { gone: keptNoLonger(status), lost: status === 'lost' };
  if (!outbound) return hold;
  const removed = server === undefined && endedOnServer(outbound.state);
  // A result, not an error `tasks/result` answered (a cancelled task's "no result stored").
  if (removed || startedAnewSince(outbound, server))
    hold.anew = outbound.outcome?.type === 'result' ? 'result' : 'none';
  if (removed) hold.removed = true;
  return hold;
}

/** Whether a requested task ended as its server told it (completed, failed, cancelled), not lost or expired. */
function endedOnServer(state: string): boolean {
  return state === 'completed' || state === 'failed' || state === 'cancelled';
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
 * The unit the Tasks screen counts a task's time left in, with `left` ms left: whole minutes, and
 * seconds only in its last minute, where they matter. Every row counts so, running or ended,
 * received or requested, and so does its detail: a column headed "Kept" reads alike down its rows
 * ("Kept for 59 min more" beside "Kept for 12 min more", never "Kept for 59 min 27 s more").
 */
export function minutesThenSeconds(left: number): number {
  return left < 60_000 ? 1_000 : 60_000;
}

/**
 * How long a task and its result are still kept (its TTL from creation): "Taskdesk keeps the task
 * and its result for 9 min more", "… without a time limit", "… for a time not known" (an end that
 * is no date), and once the time has passed "… kept the task and its result until" (the date
 * follows). `gone` (see {@link keptNoLonger}): once its time has passed it says so as above;
 * before, "… no longer keeps the task and its result", never a countdown. What is left is
 * rounded down to `unitMs` (a unit, or the unit for what is left, as {@link minutesThenSeconds}
 * gives it), so a line in whole minutes never says more than one in seconds does, nor more than
 * is left; under one unit it is "for less than 1 min more" ("for 0 s more" would read as gone,
 * and "only" adds nothing to it). `warned` warns as `warnAt` does: the
 * host said its time is nearly up. `lost`: no longer kept, whatever the time (its server lost it
 * before, and did not keep it until then). `anew` (see {@link KeptHold}): "Taskdesk keeps its
 * result; the server was started again since", or that the server may no longer keep it, never a
 * countdown the server's new process does not hold; with `removed`, "… the server was removed",
 * or that the server was removed and Taskdesk no longer asks it for the task (what the server
 * still holds, an HTTP server's own, is not known to Taskdesk).
 *
 * `compact`: the Tasks screen's words, the same in a task's row and in its detail. Each starts
 * with what is kept, so that a column headed "Kept" reads alike down its rows: "Kept for 9 min
 * more", "Kept for only 1 min more", "Kept without a time limit", "Kept for a time not known",
 * "Was kept until" (the date follows: in the past tense, it cannot be read as a time still to
 * come), "No longer kept", and for `anew` "Result kept by Taskdesk" or "May no longer be kept"
 * ("No longer kept", as a lost task's, once its server was `removed`). `by` (the detail, and the
 * row's tooltip) says who keeps it right after "kept": "Kept by the server for 9 min more", "Was
 * kept by Taskdesk until", "No longer kept by the server", and why for `anew`: "Result kept by
 * Taskdesk; the server was started again since", "May no longer be kept by the server, which was
 * started again since", "No longer kept: the server was removed, and Taskdesk no longer asks it
 * for the task".
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
    by = false,
    warned = false,
    gone = false,
    lost = false,
    anew,
    removed = false
  }: {
    warnAt?: string | undefined;
    unitMs?: CountUnit;
    midLine?: boolean;
    compact?: boolean;
    by?: boolean;
    warned?: boolean;
    gone?: boolean;
    lost?: boolean;
    anew?: 'result' | 'none' | undefined;
    removed?: boolean;
  } = {}
): KeptLine {
  // Who keeps it, where it is said: the Tasks screen's words put it after "kept" (`by`); the
  // sentence every other screen uses starts with it.
  const keeper = direction === 'received' ? 'Taskdesk' : 'the server';
  const kept = by ? ` by ${keeper}` : '';
  const lead = (past = false) =>
    compact ? `${past ? 'Was kept' : 'Kept'}${kept} ` : `${keptWords(direction, { past, midLine })} `;
  const end = expiresAt === undefined ? NaN : Date.parse(expiresAt);
  const left = end - now;
  if (anew !== undefined && !gone && !lost) {
    // Started again since: its new process keeps the task only if it stores its tasks. Removed:
    // Taskdesk never asks it again, whatever it keeps.
    const since = removed ? 'removed' : 'started again since';
    const server = `${midLine ? 'the' : 'The'} server`;
    const words = compact
      ? anew === 'result'
        ? `Result kept by Taskdesk${by ? `; the server was ${since}` : ''}`
        : removed
          ? `No longer kept${by ? ': the server was removed, and Taskdesk no longer asks it for the task' : ''}`
          : `May no longer be kept${by ? ' by the server, which was started again since' : ''}`
      : anew === 'result'
        ? `Taskdesk keeps its result; the server was ${since}`
        : removed
          ? `${server} was removed; Taskdesk no longer asks it for the task`
          : `${server} was started again since, and may no longer keep the task`;
    return { words, ended: true, warning: false, gone: true };
  }
  if (left <= 0 && !lost) return { words: `${lead(true)}until`, ended: true, warning: false };
  if (gone || lost) {
    const words = compact
      ? `No longer kept${kept}`
      : keptWords(direction, { midLine }).replace(/ keeps /, ' no longer keeps ');
    return { words, ended: true, warning: false, gone: true };
  }
  if (expiresAt === undefined) return { words: `${lead()}without a time limit`, ended: false, warning: false };
  // An end that is no date is a limit not known, not none.
  if (Number.isNaN(end)) return { words: `${lead()}for a time not known`, ended: false, warning: false };
  const warning = warned || (warnAt !== undefined && now >= Date.parse(warnAt));
  const unit = unitFor(unitMs, left);
  const whole = Math.floor(left / unit) * unit;
  const time = whole > 0 ? `${warning ? 'only ' : ''}${formatDuration(whole)}` : `less than ${formatDuration(unit)}`;
  const words = `${lead()}for ${time} more`;
  return { words, ended: false, warning };
}

/**
 * A task's lifetime in the Tasks screen's words with who keeps it and its date, as plain text:
 * what its detail says ("Kept by the server for 9 min more, until Dec 4, 2026, 2:05:00 PM", "Was
 * kept by Taskdesk until Dec 4, 2026, 2:05:00 PM"), for the tooltip of its row, which says only
 * how long. No date for a task without one, nor for a task let go before its end.
 */
export function keptInFull(
  direction: TaskDirection,
  expiresAt: string | undefined,
  now: number,
  options: Omit<NonNullable<Parameters<typeof keptLine>[3]>, 'compact' | 'by' | 'midLine'> = {}
): string {
  const line = keptLine(direction, expiresAt, now, { ...options, compact: true, by: true });
  const end = expiresAt === undefined ? NaN : Date.parse(expiresAt);
  if (Number.isNaN(end) || line.gone) return line.words;
  return `${line.words}${line.ended ? ' ' : ', until '}${formatDateTime(new Date(end))}`;
}
