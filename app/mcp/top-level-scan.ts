/**
 * The top-level `method` and `id` of a JSON-RPC line, read from its bytes without parsing it.
 *
 * For refusing a large request cheaply (see `JsonRpcLineReader`): `JSON.parse` of a 1 MB line
 * costs a millisecond or more on the event loop and leaves two 1 MB strings for the garbage
 * collector (the decoded line and the parsed value), while this walk copies nothing and skips
 * each string with `Buffer.indexOf`, at memchr speed. An SDK-built request puts its `id` after
 * its `params` (`{method, params, jsonrpc, id}`), so the whole line is walked, not a prefix.
 * Only structure is followed (objects, arrays, strings); anything it cannot follow gives
 * `undefined`, and the line is then parsed as usual. No library reads JSON this way: streaming
 * parsers build the values they pass over.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

/** Values longer than this are never read as a `method` or an `id` (the line is then parsed). */
const SHORT_VALUE = 256;

/** What the top level of a line holds. */
export interface TopLevel {
  /** Whether there is a `method` member (a request or a notification). */
  hasMethod: boolean;
  /** Whether there is an `id` member. */
  hasId: boolean;
  /** The method, when it is a short string. */
  method?: string;
  /** The id, when it is a short string or a finite number. */
  id?: string | number;
}

/** The top-level members `method` and `id` of the JSON object in `line`, or undefined when it cannot tell. */
export function scanTopLevel(line: Buffer): TopLevel | undefined {
  let i = skipSpace(line, 0);
  if (line[i] !== OPEN_BRACE) return undefined;
  const found: TopLevel = { hasMethod: false, hasId: false };
  i = skipSpace(line, i + 1);
  if (line[i] === CLOSE_BRACE) return found;
  for (;;) {
    if (line[i] !== QUOTE) return undefined;
    const keyEnd = stringEnd(line, i);
    if (keyEnd < 0) return undefined;
    const key = keyEnd - i <= SHORT_VALUE ? readJson(line, i, keyEnd) : undefined;
    i = skipSpace(line, keyEnd);
    if (line[i] !== COLON) return undefined;
    i = skipSpace(line, i + 1);
    const end = valueEnd(line, i);
    if (end < 0) return undefined;
    // A repeated member counts as its last occurrence, as in JSON.parse.
    if (key === 'method' || key === 'id') {
      const value = end - i <= SHORT_VALUE ? readJson(line, i, end) : undefined;
      if (key === 'method') {
        found.hasMethod = true;
        if (typeof value === 'string') found.method = value;
        else delete found.method;
      } else {
        found.hasId = true;
        if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) found.id = value;
        else delete found.id;
      }
    }
    i = skipSpace(line, end);
    if (line[i] === COMMA) {
      i = skipSpace(line, i + 1);
      continue;
    }
    return line[i] === CLOSE_BRACE && skipSpace(line, i + 1) === line.length ? found : undefined;
  }
}

function skipSpace(line: Buffer, from: number): number {
  let i = from;
  while (i < line.length) {
    const byte = line[i];
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) break;
    i++;
  }
  return i;
}

/** Just past the closing quote of the string opening at `start`, or -1. */
function stringEnd(line: Buffer, start: number): number {
  let from = start + 1;
  for (;;) {
    const quote = line.indexOf(QUOTE, from);
    if (quote < 0) return -1;
    // A quote after an odd number of backslashes is escaped.
    let backslashes = 0;
    for (let j = quote - 1; j > start && line[j] === BACKSLASH; j--) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** Just past the value starting at `start`, or -1. */
function valueEnd(line: Buffer, start: number): number {
  const first = line[start];
  if (first === QUOTE) return stringEnd(line, start);
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    let depth = 0;
    let i = start;
    while (i < line.length) {
      const byte = line[i];
      if (byte === QUOTE) {
        i = stringEnd(line, i);
        if (i < 0) return -1;
        continue;
      }
      if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth++;
      else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    return -1;
  }
  // A number, true, false or null: up to the next delimiter.
  let i = start;
  while (i < line.length) {
    const byte = line[i];
    if (byte === COMMA || byte === CLOSE_BRACE || byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d)
      break;
    i++;
  }
  return i > start ? i : -1;
}

function readJson(line: Buffer, start: number, end: number): unknown {
  try {
    return JSON.parse(line.toString('utf8', start, end));
  } catch {
    return undefined;
  }
}
