/**
 * Parses JSON with comments and trailing commas (JSONC, what VS Code's settings.json and
 * mcp.json are), as `JSON.parse` would the same text without them.
 *
 * Our own few lines: `jsonc-parser` is not installed, and `json5` is present only as a transitive
 * dependency of the packaging tools (and accepts much more than JSONC). Comments and trailing
 * commas are replaced by spaces, so the positions in `JSON.parse`'s errors stay right; the
 * error is then given as a line and column.
 */
export function parseJsonc(text: string): unknown {
  const clean = blankCommentsAndTrailingCommas(text.replace(/^\uFEFF/, ''));
  try {
    return JSON.parse(clean) as unknown;
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message);
    if (!position)
      throw new SyntaxError(/end of JSON/i.test(message) ? `${message} (the text ends too early)` : message, {
        cause: error
      });
    const offset = Number(position[1]);
    const before = clean.slice(0, offset);
    const line = before.split('\n').length;
    const column = offset - before.lastIndexOf('\n');
    throw new SyntaxError(
      `${message.replace(/ in JSON at position \d+.*$/s, '').replace(/\s*\(line \d+ column \d+\)$/, '')} at line ${line}, column ${column}`,
      { cause: error }
    );
  }
}

function blankCommentsAndTrailingCommas(text: string): string {
  const out = text.split('');
  let index = 0;
  /** The index of the last comma outside strings whose following tokens are only blanks so far. */
  let pendingComma = -1;
  while (index < text.length) {
    const char = text[index]!;
    if (char === '"') {
      pendingComma = -1;
      index++;
      while (index < text.length && text[index] !== '"') index += text[index] === '\\' ? 2 : 1;
      index++;
      continue;
    }
    if (char === '/' && text[index + 1] === '/') {
      while (index < text.length && text[index] !== '\n') out[index++] = ' ';
      continue;
    }
    if (char === '/' && text[index + 1] === '*') {
      const end = text.indexOf('*/', index + 2);
      const stop = end < 0 ? text.length : end + 2;
      for (; index < stop; index++) if (out[index] !== '\n') out[index] = ' ';
      continue;
    }
    if (char === ',') pendingComma = index;
    else if ((char === '}' || char === ']') && pendingComma >= 0) {
      out[pendingComma] = ' ';
      pendingComma = -1;
    } else if (!/\s/.test(char)) pendingComma = -1;
    index++;
  }
  return out.join('');
}
