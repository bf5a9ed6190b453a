/**
 * JSON text of stored values, the same text `JSON.stringify` makes, at a fraction of its cost on
 * values that hold long strings.
 *
 * `JSON.stringify` checks every character of a string for escapes one by one: about 5.5 ms for a
 * 1 MB string here, on the event loop, each time a record that holds it is written (a 1 MB
 * question is serialized for its size check, the journal, the history, and again for each status
 * change). A string with nothing to escape (no quote, backslash, control character or lone
 * surrogate) is its text between quotes; a regular expression tells such a string several times
 * faster than `JSON.stringify`'s loop. No library does this (the fast serializers on npm
 * need a schema, and are no faster on long strings), so it is ours: a walk that leaves every
 * part without a long string to `JSON.stringify` itself.
 *
 * Texts of parts that many versions of a record share (a task's request, its outcome) can be
 * kept with {@link partText}, by object, for as long as the object lives: `jsonText` uses a kept
 * text instead of walking the part again. Such parts must never change once kept.
 */

/**
 * Strings at least this long are checked for escapes at once instead of by `JSON.stringify` (or
 * not at all when vouched for: see {@link vouchEscapeFree}).
 */
const LONG_STRING = 1024;
/** A value (or part) of an estimated JSON size below this goes to `JSON.stringify` whole. */
const SMALL_PART = 16 * 1024;
/**
 * A string with no character JSON escapes: no `"`, `\` or control character (lone surrogates are
 * checked apart). Matching the whole string against the negated class is about twice as fast on
 * 1 MB as searching it for one of those characters (`/["\\\u0000-\u001f]/`): 1.6 ms against
 * 3.0 here, for each large request received that nobody vouched for (see {@link vouchEscapeFree}).
 */
// eslint-disable-next-line no-control-regex -- the control characters are what it looks for
const NOTHING_TO_ESCAPE = /^[^"\\\u0000-\u001f]*$/;

/**
 * A JSON text and its UTF-8 bytes; for a large one (made by the walk, see {@link jsonText}) also
 * the flat strings the text is the concatenation of, in order.
 *
 * The text of a large value is a rope over the value's own long strings: cheap to make and to
 * keep, but every API that turns a string into bytes (`fs.writeSync`, `Buffer.write`,
 * `String.prototype.slice`) first makes a rope flat, a copy of the whole in the heap. A 1 MB
 * question was copied so for each journal line that held it and for its history preview, and
 * those copies were most of what a flood of large requests made V8 collect (mark-compacts on
 * the event loop). `pieces` are each flat (a long string of the value, or short texts joined):
 * written one after the other (see `Journal.writeBatch`) they are never copied in the heap.
 */
export interface JsonPart {
  text: string;
  bytes: number;
  pieces?: readonly string[];
}

/** Strings shorter than this are joined with their neighbours into one piece (see {@link JsonPart}). */
const SHORT_PIECE = 4096;

/**
 * Collects a text as flat pieces: short texts are joined (a small rope, cheap to make flat), long
 * ones kept as they are (see {@link JsonPart}).
 */
export class PieceList {
  readonly #pieces: string[] = [];
  #short = '';

  /** Adds `text` (flat, or short). */
  add(text: string): void {
    if (text.length < SHORT_PIECE) {
      this.#short += text;
      return;
    }
    if (this.#short !== '') this.#pieces.push(this.#short);
    this.#short = '';
    this.#pieces.push(text);
  }

  /** Adds a part: its pieces when it has them, else its text (the flat text of `JSON.stringify`). */
  addPart(part: { text: string; pieces?: readonly string[] }): void {
    if (part.pieces === undefined) this.add(part.text);
    else for (const piece of part.pieces) this.add(piece);
  }

  /** The pieces, in order. */
  done(): string[] {
    if (this.#short !== '') this.#pieces.push(this.#short);
    this.#short = '';
    return this.#pieces;
  }
}

/**
 * The first `chars` characters of `part`'s text, made from its pieces: no copy of a long text
 * (see {@link JsonPart}). The result may share characters with a long string of the value.
 */
export function textPrefix(part: { text: string; pieces?: readonly string[] }, chars: number): string {
  if (part.pieces === undefined) return part.text.slice(0, chars);
  let prefix = '';
  for (const piece of part.pieces) {
    if (prefix.length + piece.length >= chars) return prefix + piece.slice(0, chars - prefix.length);
    prefix += piece;
  }
  return prefix;
}

/** Texts kept by {@link partText}, by the object they are the JSON of. */
const kept = new WeakMap<object, JsonPart>();

/** `JSON.stringify(value)` (the same text), faster on values holding long strings. */
export function jsonText(value: unknown): string | undefined {
  if (typeof value === 'object' && value !== null && !kept.has(value))
    // A small record (most are) is `JSON.stringify`'s at once: no walk that keeps sizes, no byte count.
    return surelySmall(value) ? JSON.stringify(value) : walked(value)?.text;
  return jsonOf(value)?.text;
}

/** `jsonText(value)` and its UTF-8 bytes, kept nowhere (parts kept by `partText` are used). */
export function jsonPart(value: unknown): JsonPart | undefined {
  return jsonOf(value);
}

/**
 * `jsonText(value)`, with the pieces of a large value's text (see {@link JsonPart}); a small
 * value's text is `JSON.stringify`'s, flat, and has none.
 */
export function jsonTextPieces(value: unknown): { text: string; pieces?: readonly string[] } | undefined {
  if (typeof value === 'object' && value !== null && !kept.has(value) && surelySmall(value)) {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : { text };
  }
  return jsonOf(value);
}

/**
 * `value`'s JSON text and its bytes, kept for as long as `value` lives and used by every later
 * `jsonText` of a value that holds it. For parts shared by many versions and never changed (see
 * above).
 *
 * The text is built by concatenation, so its long strings are the very strings of `value`, not
 * copies (and its bytes are counted from them, which reads them without copying): keeping it
 * costs a few small strings, not a second copy of the request. A JSON text of 1 MB made by
 * `JSON.stringify` would double what the request takes in the heap for as long as it is kept.
 */
export function partText(value: object): JsonPart {
  let part = kept.get(value);
  if (part === undefined) {
    part = jsonOf(value) ?? { text: 'null', bytes: 4 };
    kept.set(value, part);
  }
  return part;
}

function jsonOf(value: unknown): JsonPart | undefined {
  if (typeof value === 'string') return stringPart(value);
  if (typeof value !== 'object' || value === null) return small(value);
  const cached = kept.get(value);
  if (cached !== undefined) return cached;
  return surelySmall(value) ? small(value) : walked(value);
}

/** The JSON of a value that may hold long strings, by the walk that keeps each object's size. */
function walked(value: object): JsonPart | undefined {
  const sizes = new Map<object, number>();
  measure(value, sizes, new Set());
  return emit(value, sizes);
}

/** Deeper than this, {@link surelySmall} leaves the value to the walk that keeps sizes. */
const SMALL_DEPTH = 64;

/**
 * Whether `value`'s JSON is surely below {@link SMALL_PART}, by a walk that keeps nothing and
 * stops as soon as the estimate (as {@link measure}'s, a lower bound) reaches it: the value then
 * goes to `JSON.stringify` whole. Anything it cannot tell (a part kept by `partText`, a value
 * nested deeper than {@link SMALL_DEPTH}, which a cycle also is) says no, and the full walk decides.
 */
function surelySmall(value: object): boolean {
  return budgetLeft(value, SMALL_PART, 0) > 0;
}

function budgetLeft(value: unknown, budget: number, depth: number): number {
  switch (typeof value) {
    case 'string':
      return budget - value.length - 2;
    case 'object': {
      if (value === null) return budget - 4;
      if (depth > SMALL_DEPTH || kept.has(value)) return 0;
      if (!isPlain(value)) return budget;
      let left = budget - 2;
      if (Array.isArray(value)) {
        for (let index = 0; index < value.length && left > 0; index++)
          left = budgetLeft(value[index], left - 1, depth + 1);
        return left;
      }
      for (const key of Object.keys(value)) {
        if (left <= 0) break;
        left = budgetLeft((value as Record<string, unknown>)[key], left - key.length - 3, depth + 1);
      }
      return left;
    }
    default:
      return budget - 1;
  }
}

/**
 * A lower bound of the UTF-8 bytes of `value`'s JSON, in time proportional to the number of
 * values in it rather than their length (a string counts as its length: a UTF-16 unit is at
 * least one byte, and escapes only add). For refusing what is surely too large without
 * serializing it.
 */
export function jsonBytesAtLeast(value: unknown): number {
  return measure(value, new Map(), new Set());
}

function small(value: unknown): JsonPart | undefined {
  const text = JSON.stringify(value);
  return text === undefined ? undefined : { text, bytes: Buffer.byteLength(text) };
}

function stringPart(value: string): JsonPart {
  if (value.length < LONG_STRING) return small(value)!;
  const vouched = takeVouched(value);
  if (vouched === undefined && (!NOTHING_TO_ESCAPE.test(value) || !isWellFormed(value))) return small(value)!;
  const bytes = vouched === 'ascii' ? value.length : Buffer.byteLength(value);
  return { text: '"' + value + '"', bytes: bytes + 2, pieces: ['"', value, '"'] };
}

/**
 * Long strings that the code that parsed them vouched for (see {@link vouchEscapeFree}), oldest
 * first, each until a text is made of it: at most {@link VOUCHED_MAX} of them and
 * {@link VOUCHED_MAX_CHARS} characters, the oldest dropped first, and all forgotten
 * {@link VOUCHED_MS} after the last came, so that strings nobody serializes (a message nobody
 * stores) are not kept alive by this list once a server is quiet. One forgotten before its text
 * was made is only checked, as any other string.
 */
const vouched: Array<{ value: string; ascii: boolean }> = [];
let vouchedChars = 0;
let vouchedExpiry: ReturnType<typeof setTimeout> | undefined;
const VOUCHED_MAX = 8;
const VOUCHED_MAX_CHARS = 16 * 1024 * 1024;
const VOUCHED_MS = 1000;

/**
 * Vouches that `value` has no character JSON escapes and no lone surrogate (and, with `ascii`,
 * none outside ASCII): its text is then made without checking it. Every string `JSON.parse` read
 * from a text with no backslash is so: a quote or a control character in a JSON string must be
 * escaped, and a lone surrogate can only be written as an escape. The stdio reader vouches for
 * the long strings of the large lines it parses so; checking them again cost 0.64 ms a megabyte
 * (and 0.3 more to count their UTF-8 bytes) on the event loop, in the turn that accepts a task.
 * Only long strings ({@link LONG_STRING} or more) are taken.
 */
export function vouchEscapeFree(value: string, ascii: boolean): void {
  if (value.length < LONG_STRING || value.length > VOUCHED_MAX_CHARS) return;
  vouched.push({ value, ascii });
  vouchedChars += value.length;
  clearTimeout(vouchedExpiry);
  vouchedExpiry = setTimeout(forgetVouched, VOUCHED_MS).unref();
  while (vouched.length > VOUCHED_MAX || vouchedChars > VOUCHED_MAX_CHARS)
    vouchedChars -= vouched.shift()!.value.length;
}

function forgetVouched(): void {
  vouched.length = 0;
  vouchedChars = 0;
  vouchedExpiry = undefined;
}

/** Whether `value` was vouched for ('ascii' or 'utf8'), forgetting it; undefined when it was not. */
function takeVouched(value: string): 'ascii' | 'utf8' | undefined {
  for (let index = 0; index < vouched.length; index++) {
    const entry = vouched[index]!;
    // Lengths first: `!==` reads two strings of the same length through unless they are one string.
    if (entry.value.length !== value.length || entry.value !== value) continue;
    vouched.splice(index, 1);
    vouchedChars -= value.length;
    if (vouched.length === 0) {
      clearTimeout(vouchedExpiry);
      vouchedExpiry = undefined;
    }
    return entry.ascii ? 'ascii' : 'utf8';
  }
  return undefined;
}

/** No lone surrogate (which JSON escapes): ES2024's `isWellFormed`, beyond the lib this project compiles with. */
function isWellFormed(value: string): boolean {
  return (value as unknown as { isWellFormed(): boolean }).isWellFormed();
}

/** A plain object or array, whose JSON this walk can make itself; anything else is left to `JSON.stringify`. */
function isPlain(value: object): boolean {
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  if (Array.isArray(value)) return true;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** The estimated size of `value`'s JSON (a lower bound), with each plain object's own in `sizes`. */
function measure(value: unknown, sizes: Map<object, number>, walking: Set<object>): number {
  switch (typeof value) {
    case 'string':
      return value.length + 2;
    case 'number':
      return Number.isFinite(value) ? String(value).length : 4;
    case 'boolean':
      return value ? 4 : 5;
    case 'object': {
      if (value === null) return 4;
      const cached = kept.get(value);
      if (cached !== undefined) return cached.bytes;
      if (!isPlain(value)) return 0;
      const known = sizes.get(value);
      if (known !== undefined) return known;
      if (walking.has(value)) throw new TypeError('Converting circular structure to JSON');
      walking.add(value);
      let size = 2;
      let count = 0;
      if (Array.isArray(value)) {
        for (let index = 0; index < value.length; index++) {
          const item: unknown = value[index];
          size += isOmitted(item) ? 4 : measure(item, sizes, walking);
          count++;
        }
      } else {
        for (const key of Object.keys(value)) {
          const item = (value as Record<string, unknown>)[key];
          if (isOmitted(item)) continue;
          size += key.length + 3 + measure(item, sizes, walking);
          count++;
        }
      }
      walking.delete(value);
      size += Math.max(0, count - 1);
      sizes.set(value, size);
      return size;
    }
    default:
      // undefined, functions and symbols have no JSON; a bigint is refused when it is serialized.
      return 0;
  }
}

function isOmitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

function emit(value: unknown, sizes: Map<object, number>): JsonPart | undefined {
  if (typeof value === 'string') return stringPart(value);
  if (typeof value !== 'object' || value === null) return small(value);
  const cached = kept.get(value);
  if (cached !== undefined) return cached;
  const size = sizes.get(value);
  if (size === undefined || size < SMALL_PART) return small(value);
  // Concatenation (not `join`, which copies): the long parts stay shared (see `partText`).
  const array = Array.isArray(value);
  let text = array ? '[' : '{';
  const pieces = new PieceList();
  pieces.add(text);
  let bytes = 2;
  let first = true;
  const add = (name: string, part: JsonPart) => {
    const separator = first ? '' : ',';
    first = false;
    text += separator + name + part.text;
    pieces.add(separator + name);
    pieces.addPart(part);
    bytes += separator.length + Buffer.byteLength(name) + part.bytes;
  };
  if (array) {
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      const part = isOmitted(item) ? undefined : emit(item, sizes);
      add('', part ?? NULL_PART);
    }
  } else
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      // A value with no JSON (a `toJSON` that returns undefined, too) leaves its key out.
      const part = isOmitted(item) ? undefined : emit(item, sizes);
      if (part) add(JSON.stringify(key) + ':', part);
    }
  const end = array ? ']' : '}';
  pieces.add(end);
  return { text: text + end, bytes, pieces: pieces.done() };
}

const NULL_PART: JsonPart = { text: 'null', bytes: 4 };
