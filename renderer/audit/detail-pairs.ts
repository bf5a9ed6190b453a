import { AUDIT_DURATION_FIELDS, auditFieldWords, saidBySentence } from '../../app/contract/audit-words.js';
import { formatDuration } from '../components/format.js';
import { partsInWords } from '../../app/contract/request-changes.js';
import { KIND_WORDS } from '../components/kind-words.js';

/** One line of an audit entry's detail, as the Audit log shows it. */
export interface DetailPair {
  /** The field as the entry has it (what search and export use). */
  field: string;
  /** Its name in words. */
  name: string;
  value: string;
  /** The value is data (arguments, a list), shown as compact JSON in code. */
  json: boolean;
}

/** A kind's words within a line ("question"), from {@link KIND_WORDS} ("Question"). */
const inLine = (words: string) => `${words[0]!.toLowerCase()}${words.slice(1)}`;

/** What an entry's `kind` is, in the words every screen names it by. */
const KIND_DETAIL_WORDS: Record<string, string> = {
  elicitation: inLine(KIND_WORDS.elicitation),
  sampling: inLine(KIND_WORDS.sampling),
  'sampling-approval': `${inLine(KIND_WORDS.sampling)} to approve`,
  'sampling-review': 'model’s answer to review',
  'tool-call': inLine(KIND_WORDS['tool-call'])
};

/** What each protocol era is, in the MCP versions a person can look up. */
const ERA_WORDS: Record<string, string> = {
  legacy: 'MCP 2025-11-25 or earlier',
  modern: 'MCP 2026-07-28'
};

/**
 * An entry's detail as name and value, one pair a line, in words where the log keeps code:
 * durations as the rest of the Desk says them ("10 min"), the protocol as a version, the
 * server program by its name and version, yes and no for flags. Text shows as it is; only what is
 * truly data (a tool's arguments, a list) stays JSON. With the entry's `type`, what its sentence
 * says already ("Disconnected", of its `status`) is not said again, nor the fields `taskSays`,
 * which the Task column says (the question a task asks: see `auditTaskQuestion`).
 */
export function detailPairs(
  detail: Record<string, unknown>,
  type?: string,
  taskSays: readonly string[] = []
): DetailPair[] {
  const pairs: DetailPair[] = [];
  for (const [field, value] of Object.entries(detail)) {
    if (type !== undefined && saidBySentence(type, field)) continue;
    if (taskSays.includes(field)) continue;
    // The version says which era it is; the era alone only where the version was not kept.
    if (field === 'era' && typeof detail.protocolVersion === 'string') continue;
    // What a question or model request was asked for is the Task column's to say, in words (the
    // call of Taskdesk's, or its request, `relatedCall`: see `auditTaskWords`), its id in the
    // tooltip there: not again here as an id.
    if (field === 'relatedTaskId' || field === 'relatedCall') continue;
    const words = valueWords(field, value);
    const plain = words ?? (typeof value === 'string' ? value : undefined);
    pairs.push({
      field,
      name: auditFieldWords(field),
      value: plain ?? JSON.stringify(value) ?? String(value),
      json: plain === undefined
    });
  }
  return pairs;
}

/** A value in words, for the fields that have them; undefined for the rest. */
function valueWords(field: string, value: unknown): string | undefined {
  if (AUDIT_DURATION_FIELDS.has(field)) {
    // A ttl not asked for is kept as null: nothing to say.
    if (value === null) return '—';
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return formatDuration(value);
    return undefined;
  }
  if (field === 'era' && typeof value === 'string') return ERA_WORDS[value] ?? value;
  if (field === 'protocolVersion' && typeof value === 'string') return `MCP ${value}`;
  if (field === 'serverInfo' && typeof value === 'object' && value !== null) {
    const { name, version } = value as { name?: unknown; version?: unknown };
    if (typeof name === 'string') return typeof version === 'string' ? `${name} ${version}` : name;
    return undefined;
  }
  // Which parts of a model request or answer the person changed (never their content).
  if (field === 'changed' && Array.isArray(value) && value.every((part) => typeof part === 'string'))
    return partsInWords(value);
  if (field === 'kind' && typeof value === 'string') return KIND_DETAIL_WORDS[value] ?? value;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') return String(value);
  return undefined;
}
