import type { SchemaField } from '../../app/contract/schema-fields.js';
import { fieldAt, partPath } from '../forms/schema-values.js';

/** The host's problems placed on the form: messages by key, and what no field could take. */
export interface PlacedProblems {
  errors: Record<string, string>;
  unplaced: string[];
}

/** A JSON pointer's segments, unescaped: `/edits/0/oldText` → `['edits', '0', 'oldText']`. */
function pointerParts(pointer: string): string[] {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((part) => {
      let text = part;
      try {
        text = decodeURIComponent(part);
      } catch {
        // Not URI-encoded after all: the segment as it stands.
      }
      return text.replaceAll('~1', '/').replaceAll('~0', '~');
    });
}

/**
 * The rest of a path no field of the form holds (`parts` from `from` on), in words before its
 * message: a list's index as the item a person counts (`0` → `Item 1`), a name as it is
 * (`size`, `a.b`). `sent` (the arguments sent) tells a list's index from an object's key.
 */
function restWords(parts: string[], from: number, sent: unknown): string {
  let value = sent;
  let text = '';
  let afterName = false;
  parts.forEach((part, index) => {
    const isIndex = Array.isArray(value) && /^\d+$/.test(part);
    value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[part] : undefined;
    if (index < from) return;
    const word = isIndex ? `item ${Number(part) + 1}` : part;
    text = text === '' ? word : `${text}${afterName && !isIndex ? '.' : ', '}${word}`;
    afterName = !isIndex;
  });
  return text.replace(/^item /, 'Item ');
}

/** The form's key for a path of parts: dotted, as the form's own messages are (`edits.0.oldText`). */
function keyOf(parts: string[]): string {
  return parts.reduce((key, part, index) => (index === 0 ? part : partPath(key, part)), '');
}

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  null: 'empty'
};

const FORMAT_WORDS: Record<string, string> = {
  // No typed pattern: the browser's date and time inputs show the person's own (mm/dd/yyyy…).
  date: 'Enter a valid date',
  'date-time': 'Enter a valid date and time',
  time: 'Enter a valid time',
  email: 'Enter an email address',
  uri: 'Enter a full URL (https://…)',
  'uri-reference': 'Enter a URL',
  url: 'Enter a full URL (https://…)',
  uuid: 'Enter a UUID'
};

const plural = (count: string, word: string) => `${count} ${word}${count === '1' ? '' : 's'}`;

/**
 * One of Ajv's messages ("must be <= 100", "must match format "date"") in the words the form's
 * own checks use ("Must be 100 or less", "Enter a valid date"). `field`, when known,
 * names the allowed values of an enum. A message it does not know is kept as it is.
 */
export function plainProblem(message: string, field?: SchemaField): string {
  let match: RegExpExecArray | null;
  if (/^must have required property /.test(message)) return 'Required';
  if ((match = /^must be (<=|>=|<|>) (-?[\d.e+-]+)$/.exec(message))) {
    const [, op, n] = match;
    return op === '<='
      ? `Must be ${n} or less`
      : op === '>='
        ? `Must be ${n} or more`
        : op === '<'
          ? `Must be less than ${n}`
          : `Must be more than ${n}`;
  }
  if ((match = /^must be ([a-z]+(?:,[a-z]+)*)$/.exec(message))) {
    const words = match[1]!.split(',').map((type) => TYPE_WORDS[type]);
    if (words.every(Boolean)) return `Must be ${words.join(' or ')}`;
  }
  if ((match = /^must match format "([^"]*)"$/.exec(message)))
    return FORMAT_WORDS[match[1]!] ?? `Must be in the ${match[1]} format`;
  if (/^must match pattern /.test(message)) return 'Does not have the expected form';
  if ((match = /^must NOT have (fewer|more) than (\d+) (characters|items)$/.exec(message))) {
    const [, side, n, unit] = match;
    if (unit === 'items') return `${side === 'fewer' ? 'At least' : 'At most'} ${plural(n!, 'item')}`;
    return `Must be at ${side === 'fewer' ? 'least' : 'most'} ${plural(n!, 'character')}`;
  }
  if (message === 'must be equal to one of the allowed values' || message === 'must be equal to constant') {
    const choices = field?.choices.map((choice) => choice.label) ?? [];
    return choices.length > 0 ? `Must be one of: ${choices.join(', ')}` : 'Must be one of the allowed values';
  }
  if ((match = /^must be multiple of (\S+)$/.exec(message))) return `Must be a multiple of ${match[1]}`;
  if (/^must NOT have duplicate items/.test(message)) return 'Each item only once';
  return message;
}

/**
 * The host's per-argument problems (`data.problems` of a −32602 from `tools.call`: a JSON
 * pointer and Ajv's message each) put on the form's fields, worded as the form's own.
 *
 * A problem goes to the field its path names (`/filters/since` → `filters.since`); a missing
 * property, which Ajv reports on the object that lacks it, to that property's field. Where the
 * schema has no field at that path (inside a JSON box, say), it goes to the nearest field that
 * encloses it, with the rest of its path in front in words (`Item 1: …` for the first value of
 * a list of checkboxes, given the arguments `sent`). A field keeps its first problem.
 */
export function placeProblems(data: unknown, fields: SchemaField[], sent?: Record<string, unknown>): PlacedProblems {
  const problems = (data as { problems?: unknown } | undefined)?.problems;
  const errors: Record<string, string> = {};
  const unplaced: string[] = [];
  for (const problem of Array.isArray(problems) ? (problems as Array<{ path?: unknown; message?: unknown }>) : []) {
    const pointer = typeof problem.path === 'string' ? problem.path : '';
    const message = typeof problem.message === 'string' ? problem.message : 'Invalid';
    const parts = pointerParts(pointer);
    const missing = /^must have required property '([^']+)'$/.exec(message)?.[1];
    if (missing !== undefined) parts.push(missing);
    // The nearest enclosing path the form has a field for ('' only when one field holds all the arguments).
    let depth = parts.length;
    while (depth > 0 && !fieldAt(fields, keyOf(parts.slice(0, depth)))) depth--;
    const key = keyOf(parts.slice(0, depth));
    const field = fieldAt(fields, key);
    const rest = restWords(parts, depth, sent);
    // A checkbox list's item is one of its choices: the choices name what it may be.
    const chosen = field?.kind === 'multi-choice' && parts.length === depth + 1 && /^\d+$/.test(parts[depth]!);
    if (field) {
      errors[key] ??=
        `${rest ? `${rest}: ` : ''}${plainProblem(message, depth === parts.length || chosen ? field : undefined)}`;
    } else unplaced.push(`${rest ? `${rest}: ` : ''}${plainProblem(message)}`);
  }
  return { errors, unplaced };
}
