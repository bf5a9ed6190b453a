import type { InboundTask } from '../contract/host-api.js';
import type { TaskRecord } from '../receiver/task-record.js';
import { cancelledByOf } from '../receiver/cancelled-by.js';

/** Longest string kept in a summary (characters); longer ones end with "…". */
const MAX_STRING = 240;
/** Array items and object keys kept per level. */
const MAX_ITEMS = 12;
/** Levels kept; deeper values become "…". */
const MAX_DEPTH = 5;

/**
 * A task as lists show it (`tasks.list`, `task.changed`): every field of the full view, with the
 * request, outcome and notes shortened (long strings cut, long lists and deep values left out)
 * and `truncated: true` when anything was; `tasks.get` gives the whole record.
 *
 * A server may store megabytes per task; a list of them must not copy and send all of that on
 * every call. Summaries are made once per stored version (versions are never changed once
 * saved) and shared.
 */
export function inboundSummary(record: Readonly<TaskRecord>): InboundTask {
  let summary = summaries.get(record);
  if (!summary) {
    const state = { truncated: false };
    const cancelledBy = cancelledByOf(record);
    summary = {
      task: shortenStatus(record.task, state),
      serverId: record.owner.serverId,
      serverName: record.owner.serverName,
      kind: record.kind,
      request: shorten(record.request, 0, state) as Record<string, unknown>,
      ...(record.outcome && { outcome: shorten(record.outcome, 0, state) as NonNullable<InboundTask['outcome']> }),
      notes: shorten(record.notes, 0, state) as InboundTask['notes'],
      ...(cancelledBy && { cancelledBy }),
      ...(state.truncated && { truncated: true })
    };
    summaries.set(record, summary);
  }
  return summary;
}

const summaries = new WeakMap<object, InboundTask>();

/** The task's own fields; only a long status message (an error's text, say) is cut. */
function shortenStatus(task: TaskRecord['task'], state: { truncated: boolean }): TaskRecord['task'] {
  const message = task.statusMessage;
  if (message === undefined || message.length <= MAX_STRING * 4) return { ...task };
  state.truncated = true;
  return { ...task, statusMessage: `${message.slice(0, MAX_STRING * 4 - 1)}…` };
}

function shorten(value: unknown, depth: number, state: { truncated: boolean }): unknown {
  if (typeof value === 'string') {
    if (value.length <= MAX_STRING) return value;
    state.truncated = true;
    return `${value.slice(0, MAX_STRING - 1)}…`;
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) {
    state.truncated = true;
    return Array.isArray(value) ? [] : {};
  }
  if (Array.isArray(value)) {
    if (value.length > MAX_ITEMS) state.truncated = true;
    return value.slice(0, MAX_ITEMS).map((item) => shorten(item, depth + 1, state));
  }
  const out: Record<string, unknown> = {};
  let kept = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (kept++ === MAX_ITEMS) {
      state.truncated = true;
      break;
    }
    // defineProperty: a key such as `__proto__` stays a plain key.
    Object.defineProperty(out, key, {
      value: shorten((value as Record<string, unknown>)[key], depth + 1, state),
      enumerable: true,
      writable: true,
      configurable: true
    });
  }
  return out;
}
