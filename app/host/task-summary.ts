import type { InboundTask } from '../contract/host-api.js';
import type { TaskRecord } from '../receiver/task-record.js';
import { inboundMarks } from './inbound-view.js';

/** Longest string kept in a summary (characters); longer ones end with "…". */
const MAX_STRING = 240;
/** Array items and object keys kept per level. */
const MAX_ITEMS = 12;
/** Levels of lists and objects kept; deeper ones are left empty. */
const MAX_DEPTH = 5;
/**
 * Levels kept of an elicitation's `requestedSchema`, counted from the schema itself.
 *
 * The spec keeps that schema flat (an object of primitive fields), but a multi-select option
 * (`properties.<field>.items.anyOf[i]`, holding its title) is its sixth level and a single-select
 * one (`properties.<field>.oneOf[i]`) its fifth, where the request's five levels keep only its
 * first four; lists show an answer under its options' titles, so they need them.
 */
const SCHEMA_DEPTH = 6;
/**
 * Values kept in each part of a summary (its request, outcome and notes); past that, lists and
 * objects are left empty.
 *
 * With {@link MAX_STRING} this bounds a part's values whatever their depth: at most 1,000 of at
 * most 240 characters, where 12 items a level over five levels alone allowed about 250,000, so
 * the schema's extra levels cannot make a summary larger than before.
 */
const MAX_VALUES = 1000;

/** What shortening a part has used and whether it left anything out. */
interface ShortenState {
  truncated: boolean;
  /** Values this part may still keep. */
  valuesLeft: number;
}

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
    const part = (): ShortenState => ({ truncated: false, valuesLeft: MAX_VALUES });
    const request = part();
    const outcome = part();
    const notes = part();
    summary = {
      task: shortenStatus(record.task, state),
      serverId: record.owner.serverId,
      serverName: record.owner.serverName,
      kind: record.kind,
      request: shortenRequest(record, request),
      ...(record.outcome && {
        outcome: shorten(record.outcome, MAX_DEPTH, outcome) as NonNullable<InboundTask['outcome']>
      }),
      notes: shorten(record.notes, MAX_DEPTH, notes) as InboundTask['notes'],
      ...inboundMarks(record),
      ...((state.truncated || request.truncated || outcome.truncated || notes.truncated) && { truncated: true })
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

/** A request shortened; an elicitation's `requestedSchema` keeps {@link SCHEMA_DEPTH} levels of its own. */
function shortenRequest(record: Readonly<TaskRecord>, state: ShortenState): Record<string, unknown> {
  const request = record.request;
  if (record.kind !== 'elicitation' || !Object.hasOwn(request, 'requestedSchema'))
    return shorten(request, MAX_DEPTH, state) as Record<string, unknown>;
  return shortenObject(request, state, (key, item) =>
    shorten(item, key === 'requestedSchema' ? SCHEMA_DEPTH : MAX_DEPTH - 1, state)
  );
}

/** A value with `levels` levels of lists and objects kept, long strings and lists cut. */
function shorten(value: unknown, levels: number, state: ShortenState): unknown {
  if (state.valuesLeft > 0) state.valuesLeft -= 1;
  if (typeof value === 'string') {
    if (value.length <= MAX_STRING) return value;
    state.truncated = true;
    return `${value.slice(0, MAX_STRING - 1)}…`;
  }
  if (value === null || typeof value !== 'object') return value;
  if (levels <= 0 || state.valuesLeft === 0) {
    state.truncated = true;
    return Array.isArray(value) ? [] : {};
  }
  if (Array.isArray(value)) {
    const kept: unknown[] = [];
    for (const item of value.slice(0, MAX_ITEMS)) {
      if (state.valuesLeft === 0) break;
      kept.push(shorten(item, levels - 1, state));
    }
    if (kept.length < value.length) state.truncated = true;
    return kept;
  }
  return shortenObject(value as Record<string, unknown>, state, (_key, item) => shorten(item, levels - 1, state));
}

/** An object's first {@link MAX_ITEMS} keys (while values are left), each value as `each` shortens it. */
function shortenObject(
  value: Record<string, unknown>,
  state: ShortenState,
  each: (key: string, item: unknown) => unknown
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let kept = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (kept++ === MAX_ITEMS || state.valuesLeft === 0) {
      state.truncated = true;
      break;
    }
    // defineProperty: a key such as `__proto__` stays a plain key.
    Object.defineProperty(out, key, {
      value: each(key, value[key]),
      enumerable: true,
      writable: true,
      configurable: true
    });
  }
  return out;
}
