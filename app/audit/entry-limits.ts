import type { AuditEntry } from '../contract/host-api.js';

/** How large one audit entry may be. */
export interface EntryLimits {
  /** Longest string field kept, in UTF-16 code units (default 1,024); longer ones are cut. */
  maxStringChars: number;
  /** Items kept of an array and keys kept of an object in `detail` (default 100). */
  maxItems: number;
  /** Longest line, in bytes (default 16 KiB): a longer entry keeps only a note of its `detail`. */
  maxLineBytes: number;
}

/** The defaults of {@link EntryLimits}. */
export const defaultEntryLimits: EntryLimits = { maxStringChars: 1024, maxItems: 100, maxLineBytes: 16 * 1024 };

const MAX_DEPTH = 8;

/**
 * An entry made small enough to keep: strings cut at `maxStringChars`, long arrays and objects
 * cut at `maxItems`, nesting cut at eight levels. What was cut is listed in `detail.truncated`
 * (the field's path and its original length), so a reader knows the entry is not whole.
 *
 * A server chooses much of what is recorded (a task id it looked up, a reason it gave), and one
 * 300 KB id must not cost the log 300 KB. Returns the entry and its JSON line.
 */
export function limitEntry(
  entry: AuditEntry,
  limits: EntryLimits = defaultEntryLimits
): { entry: AuditEntry; line: string } {
  // Nearly every entry fits: checked without copying anything.
  if (fits(entry, limits, 0)) {
    const line = JSON.stringify(entry);
    if (line.length * 3 <= limits.maxLineBytes || Buffer.byteLength(line) <= limits.maxLineBytes)
      return { entry, line };
  }
  const truncated: Record<string, number> = {};
  const cut = (value: unknown, at: string, depth: number): unknown => {
    if (typeof value === 'string') {
      if (value.length <= limits.maxStringChars) return value;
      truncated[at] = value.length;
      return `${value.slice(0, limits.maxStringChars)}…`;
    }
    if (value === null || typeof value !== 'object') return value;
    if (depth >= MAX_DEPTH) {
      truncated[at] = JSON.stringify(value)?.length ?? 0;
      return '[nested too deep]';
    }
    if (Array.isArray(value)) {
      if (value.length > limits.maxItems) truncated[at] = value.length;
      return value.slice(0, limits.maxItems).map((item, index) => cut(item, `${at}[${index}]`, depth + 1));
    }
    const keys = Object.keys(value);
    if (keys.length > limits.maxItems) truncated[at] = keys.length;
    const out: Record<string, unknown> = {};
    for (const key of keys.slice(0, limits.maxItems)) {
      const name = cut(key, `${at}{key}`, MAX_DEPTH) as string;
      out[name] = cut((value as Record<string, unknown>)[key], `${at}.${name}`, depth + 1);
    }
    return out;
  };
  const limited: AuditEntry = { at: entry.at, type: cut(entry.type, 'type', 0) as string };
  if (entry.serverId !== undefined) limited.serverId = cut(entry.serverId, 'serverId', 0) as string;
  if (entry.serverName !== undefined) limited.serverName = cut(entry.serverName, 'serverName', 0) as string;
  if (entry.taskId !== undefined) limited.taskId = cut(entry.taskId, 'taskId', 0) as string;
  const detail = entry.detail && (cut(entry.detail, 'detail', 0) as Record<string, unknown>);
  if (detail || Object.keys(truncated).length > 0) {
    limited.detail = { ...detail, ...(Object.keys(truncated).length > 0 && { truncated }) };
  }
  let line = JSON.stringify(limited);
  // Most entries are far smaller than the limit: a byte count only when the length says it may be over.
  if (line.length * 3 > limits.maxLineBytes && Buffer.byteLength(line) > limits.maxLineBytes) {
    limited.detail = { truncated: { ...truncated, detail: Buffer.byteLength(JSON.stringify(detail ?? {})) } };
    line = JSON.stringify(limited);
  }
  return { entry: limited, line };
}

/** Whether a value needs no cut: strings, arrays, objects and nesting all within the limits. */
function fits(value: unknown, limits: EntryLimits, depth: number): boolean {
  if (typeof value === 'string') return value.length <= limits.maxStringChars;
  if (value === null || typeof value !== 'object') return true;
  if (depth >= MAX_DEPTH) return false;
  if (Array.isArray(value)) {
    if (value.length > limits.maxItems) return false;
    for (const item of value) if (!fits(item, limits, depth + 1)) return false;
    return true;
  }
  let count = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (++count > limits.maxItems || key.length > limits.maxStringChars) return false;
    if (!fits((value as Record<string, unknown>)[key], limits, depth + 1)) return false;
  }
  return true;
}
