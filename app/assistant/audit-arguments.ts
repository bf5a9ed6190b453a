import { REDACTED, SECRET_NAME } from '../core/redact-url.js';
import { redactSecrets } from '../sampling/redact.js';

/** Longest string kept whole in an audit entry's arguments. */
const MAX_STRING = 512;
/** Items of an array, and keys of an object, kept. */
const MAX_ITEMS = 50;
/** Nesting kept; deeper values are named, not copied. */
const MAX_DEPTH = 6;
/** The arguments as a whole, in JSON characters, past which only a summary is kept. */
const MAX_TOTAL = 16 * 1024;
/**
 * A name that counts or bounds something (`maxTokens`, `max_tokens`, `tokenCount`, `keyLimit`):
 * under it a number is a quantity, not a credential, although the name says "token" or "key".
 */
const QUANTITY_NAME =
  /^(?:(?:max|min|num|total|count)(?:[-_]|[A-Z])|(?:MAX|MIN|NUM|TOTAL|COUNT)_)|(?:[-_](?:count|limit|length|size|COUNT|LIMIT|LENGTH|SIZE)|[a-z0-9](?:Count|Limit|Length|Size))S?s?$/;

/**
 * Whether a value under `name` is hidden: anything under a credential's name (`token`, `auth`…),
 * but a boolean, and a number under a name that counts (a secret is text, or a code; `maxTokens:
 * 1000` is neither), so that the log still says what was asked.
 */
function hidden(name: string, value: unknown): boolean {
  if (value === null || value === '' || typeof value === 'boolean' || !SECRET_NAME.test(name)) return false;
  return !(typeof value === 'number' && QUANTITY_NAME.test(name));
}

/**
 * Tool-call arguments as the audit log keeps them: values under names that look like
 * credentials (`token`, `password`, `api_key`…) hidden, strings passed through the sampling
 * redaction (key shapes, `Bearer …`, URL credentials, and the given provider keys), long strings,
 * arrays and deep values cut with a note of what was cut. An audit log is read by people and
 * copied around; a secret the model put in a call must not live on in it.
 */
export function auditArguments(
  args: Record<string, unknown> | undefined,
  knownKeys: readonly (string | undefined)[] = []
): unknown {
  if (args === undefined) return undefined;
  const kept = walk(args, 0, knownKeys);
  const text = JSON.stringify(kept);
  if (text.length <= MAX_TOTAL) return kept;
  return { truncated: true, characters: text.length, start: `${text.slice(0, 2048)}…` };
}

function walk(value: unknown, depth: number, keys: readonly (string | undefined)[]): unknown {
  if (typeof value === 'string') {
    const clean = redactSecrets(value, keys);
    return clean.length <= MAX_STRING
      ? clean
      : `${clean.slice(0, MAX_STRING)}… (${clean.length - MAX_STRING} more characters)`;
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return Array.isArray(value) ? `[array of ${value.length}]` : '[object]';
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((item) => walk(item, depth + 1, keys));
    if (value.length > MAX_ITEMS) items.push(`… (${value.length - MAX_ITEMS} more items)`);
    return items;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  const out: Record<string, unknown> = {};
  for (const [name, item] of entries.slice(0, MAX_ITEMS))
    out[name] = hidden(name, item) ? REDACTED : walk(item, depth + 1, keys);
  if (entries.length > MAX_ITEMS) out['…'] = `${entries.length - MAX_ITEMS} more keys`;
  return out;
}
