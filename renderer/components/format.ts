const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** A date as the user's locale writes it. */
export function formatDateTime(date: Date): string {
  return dateTimeFormat.format(date);
}

const timeFormat = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
const dayFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
const dayYearFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/**
 * A date in few words, for a list's line (the conversation list): its time when it is today
 * ("7:31 PM"), its day when it is this year ("Dec 3"), else its day and year ("Dec 3, 2025").
 */
export function formatShortDate(date: Date, now: Date): string {
  if (date.toDateString() === now.toDateString()) return timeFormat.format(date);
  return date.getFullYear() === now.getFullYear() ? dayFormat.format(date) : dayYearFormat.format(date);
}

/** When something happened, after a verb: "at 7:31 PM" today, else "on Dec 3" (see {@link formatShortDate}). */
export function formatWhen(date: Date, now: Date): string {
  return `${date.toDateString() === now.toDateString() ? 'at' : 'on'} ${formatShortDate(date, now)}`;
}

/** `text`, trimmed, ending as a sentence: a full stop added unless it ends with one (or ?, !, …, or a closing bracket). */
export function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?…)]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/**
 * How finely a countdown says what is left: a unit in ms (`60_000`: whole minutes), or the unit
 * for what is left (`left` ms), so that one countdown may say minutes, then seconds near its end.
 */
export type CountUnit = number | ((left: number) => number);

/** The unit `unit` counts in with `left` ms left (see {@link CountUnit}). */
export function unitFor(unit: CountUnit, left: number): number {
  return typeof unit === 'function' ? unit(left) : unit;
}

/** A duration (a ttl) in the largest whole units that fit, e.g. "1 h 30 min", "45 s". */
export function formatDuration(ms: number): string {
  const parts: string[] = [];
  let rest = Math.round(ms / 1000);
  for (const [unit, seconds] of [
    ['d', 86_400],
    ['h', 3_600],
    ['min', 60],
    ['s', 1]
  ] as const) {
    const amount = Math.floor(rest / seconds);
    if (amount > 0) parts.push(`${amount} ${unit}`);
    rest -= amount * seconds;
  }
  return parts.length > 0 ? parts.join(' ') : `${ms} ms`;
}

/** "in 5 min" or "3 h ago", from `now`, in the largest unit that fits. */
export function formatRelative(date: Date, now: number): string {
  const ms = date.getTime() - now;
  const abs = Math.abs(ms);
  const text = abs < 1000 ? 'now' : formatDuration(abs).split(' ').slice(0, 2).join(' ');
  if (text === 'now') return text;
  return ms > 0 ? `in ${text}` : `${text} ago`;
}

/** A value from a server as text: strings and numbers as they are, anything else as JSON, or `fallback` when absent. */
export function asText(value: unknown, fallback: string): string {
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** A long random id shortened for display; the full id stays available to copy. */
export function shortId(id: string): string {
  return id.length > 12 ? `${id.slice(0, 8)}…` : id;
}

/** Whether a string is an absolute http(s) URL. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** A text cut to `max` characters with an ellipsis. */
export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
