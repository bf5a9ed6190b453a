import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';

/**
 * Parses JSON with comments and trailing commas (JSONC, what VS Code's settings.json and
 * mcp.json are) with `jsonc-parser`, VS Code's own reader. It recovers from errors and goes on;
 * a config file with any error is refused instead, the first one named by line and column.
 */
export function parseJsonc(text: string): unknown {
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false }) as unknown;
  const first = errors[0];
  if (!first) return value;
  const before = text.slice(0, first.offset);
  const line = before.split('\n').length;
  const column = first.offset - before.lastIndexOf('\n');
  const words = describe(first);
  const end = first.offset >= text.trimEnd().length ? ' (the text ends too early)' : '';
  throw new SyntaxError(`${words} at line ${line}, column ${column}${end}`);
}

function describe(error: ParseError): string {
  // InvalidSymbol → "Invalid symbol", CommaExpected → "Comma expected".
  const spaced = printParseErrorCode(error.error).replace(/([a-z])([A-Z])/g, '$1 $2');
  return spaced.charAt(0) + spaced.slice(1).toLowerCase();
}
