import { DateTime } from './date-time.js';
import type { CountUnit } from './format.js';
import { keptCounting, keptInFull, keptLine, type TaskDirection } from './kept-words.js';
import { useNowCounting } from './use-now.js';

/**
 * How long a task and its result are kept, and by whom, counting down ({@link keptLine}'s words):
 * the one way the Desk says a task's lifetime (Tasks, Tools, the Assistant, an Inbox question's
 * task, which leaves the Inbox unanswered when its time has passed). `unitMs` is how finely it
 * counts: seconds by default, whole minutes (a long list need not tick every second), or the unit
 * for what is left (the Tasks screen's `minutesThenSeconds`); `until` adds the date
 * it ends; `gone` (a task lost or expired, see `keptNoLonger`) says it is no longer kept rather
 * than count down, and `lost` says so even once its time has passed; `anew` (see `keptHold`) says
 * what Taskdesk kept of a task whose server was started again since, or `removed`. It keeps a
 * clock only while there is time left: none without a time limit, and none once its time has
 * passed or it is gone (a long list of ended tasks ticks for none of them).
 * The clock moves when the words change, not on an interval of its own: two lines on one task in
 * the same unit (a row and its detail) say the same at the same moment.
 */
export function TaskKept({
  direction,
  expiresAt,
  warnAt,
  unitMs = 1000,
  until = true,
  midLine = false,
  compact = false,
  by = false,
  warned = false,
  gone = false,
  lost = false,
  anew,
  removed = false
}: {
  direction: TaskDirection;
  expiresAt: string | undefined;
  warnAt?: string | undefined;
  unitMs?: CountUnit;
  until?: boolean;
  midLine?: boolean;
  /**
   * The Tasks screen's words ("Kept for 9 min more"), for a column headed "Kept": who keeps it,
   * and its date, are its tooltip ({@link keptInFull}).
   */
  compact?: boolean;
  /** With `compact`, who keeps it said after "kept" ("Kept by the server for 9 min more"), as a task's detail says it; no tooltip. */
  by?: boolean;
  /** The host said its time is nearly up: it warns as from `warnAt`. */
  warned?: boolean;
  /** Its keeper let it go (lost, expired): "no longer kept", no countdown. */
  gone?: boolean;
  /** Its server lost it before its time: "no longer kept" even once that time has passed. */
  lost?: boolean;
  /** It ended on a server started again since (see `keptHold`): what Taskdesk kept, no countdown. */
  anew?: 'result' | 'none' | undefined;
  /** With `anew`: its server was removed, rather than started again. */
  removed?: boolean | undefined;
}) {
  const end = expiresAt === undefined ? NaN : Date.parse(expiresAt);
  const now = useNowCounting(
    end,
    unitMs,
    keptCounting(expiresAt, Date.now(), gone || lost || anew !== undefined),
    warnAt === undefined ? NaN : Date.parse(warnAt)
  );
  const line = keptLine(direction, expiresAt, now, {
    warnAt,
    unitMs,
    midLine,
    compact,
    by,
    warned,
    gone,
    lost,
    anew,
    removed
  });
  // No date to show for an end not known (nor for none), nor for a task let go before its end.
  const dated = !Number.isNaN(end) && !line.gone;
  return (
    <span
      className={`task-kept${line.warning ? ' countdown-warning' : ''}`}
      data-warning={line.warning ? 'true' : undefined}
      title={
        compact && !by
          ? keptInFull(direction, expiresAt, now, { warnAt, unitMs, warned, gone, lost, anew, removed })
          : undefined
      }
    >
      {/* Decoration: "only" says it is nearly up, and a screen reader need not say "warning sign". */}
      {line.warning ? <span aria-hidden="true">⚠ </span> : null}
      {line.words}
      {dated && (line.ended || until) ? (
        <>
          {line.ended ? ' ' : ', until '}
          <DateTime iso={expiresAt} />
        </>
      ) : null}
    </span>
  );
}
