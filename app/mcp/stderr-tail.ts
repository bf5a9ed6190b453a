/** Lines that say what went wrong, tried on each line without the marks before its words ({@link MARKS}). */
const ERROR_LINES = [
  // A JavaScript or Python exception, dotted (`httpx.ConnectError`), with Node's code (`Error [ERR_X]`).
  /^(?:[A-Za-z_]\w*\.)*[A-Za-z_]*(?:Error|Exception)(?: \[[\w-]+\])?:/,
  // A command line tool or a logger: `error: …`, `server.py: error: …`, `ERROR:root:…`, `fatal: …`,
  // `panic: …`, and a few words before the colon (`docker: Error response from daemon: …`,
  // `node: error while loading shared libraries: …`).
  /^(?:[\w./-]+: )?(?:error|fatal|fatal error|panic)(?:\[\w+\])?(?: [\w'-]+){0,4}:/i,
  // Java's uncaught exception.
  /^Exception in thread /
];

/** Terminal colours: a tool that thinks it writes to a terminal colours its words, and the quote is plain text. */
// eslint-disable-next-line no-control-regex
const COLOURS = /\x1b\[[0-9;]*[A-Za-z]/g;

/**
 * The marks before a line's words: its indent, a Python exception group's `|` and `+`, and the
 * box drawing of a Rust report (uv's `× No solution found…`, `╰─▶ Because…`, `│`).
 */
const MARKS = /^[\s|+│├╰└─▶×✖]+/u;

/** A Rust report's (or uv's) error mark, `×`, at the start of a line: that line names the error. */
const ERROR_MARK = /^\s*[×✖]\s/u;

/** The next link of an error's chain: `╰─▶ …`, `├─▶ …` (a Rust report), `Caused by: …` (anyhow, Java). */
const CHAIN = /^\s*(?:[├╰└]─|Caused by:)/u;

/**
 * A tool that starts every line of its message with its name and level (npm's `npm error …`, and
 * `npm ERR! …` before npm 9): the tool and level, then what it says.
 */
const TOOL_LEVEL = /^([a-z][\w.-]*) (?:error|ERR!)(?: |$)/;

/** A field of such a message, not what went wrong: one word and one value (`code E404`, `errno -2`), or one word (`404`). */
const TOOL_FIELD = /^(?:[a-z]+ \S+|\S*)$/;

/** A line that says nothing by itself: blank, punctuation only (`}`, `^^^`), a stack frame, Node's version. */
function isNoise(line: string): boolean {
  return !/[\p{L}\p{N}]/u.test(line) || /^\s+at\s/.test(line) || /^Node\.js v\d/.test(line.trim());
}

/** A line as read for its words: no colours, no marks before them, no blanks after them. */
function wordsOf(line: string): string {
  return line.replace(COLOURS, '').replace(MARKS, '').trimEnd();
}

function indentOf(line: string): number {
  return /^\s*/.exec(line.replace(COLOURS, ''))![0].length;
}

/**
 * The message of the error named on `lines[start]`, with the lines that go on with it: the line
 * after one that ends in a colon (uv's `No solution found when resolving dependencies:`), the
 * links of its chain (`╰─▶ Because …`, `Caused by: …`) and what is wrapped under them (indented
 * deeper). A blank line, a stack frame or a line of marks alone ends it. `end`: the index after it.
 */
function errorMessage(lines: readonly string[], start: number): { text: string; end: number } {
  let text = wordsOf(lines[start]!);
  /** The indent of the line the last words came from: a deeper one is its text, wrapped. */
  let wrapped: number | undefined;
  let end = start + 1;
  for (; end < lines.length; end++) {
    const line = lines[end]!.replace(COLOURS, '');
    const said = wordsOf(line).trim();
    if (!said || isNoise(line)) break;
    const goesOn = text.endsWith(':');
    if (goesOn || CHAIN.test(line)) {
      text += goesOn ? ` ${said}` : ` | ${said}`;
      wrapped = indentOf(line);
    } else if (wrapped !== undefined && (indentOf(line) > wrapped || /^\s*│/u.test(line))) text += ` ${said}`;
    else break;
  }
  return { text, end };
}

/** The last error a line names (`Error: …`, `error: …`, `× …`), with the lines that go on with it. */
function namedError(lines: readonly string[]): string | undefined {
  let found: string | undefined;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!.replace(COLOURS, '');
    const words = wordsOf(line);
    if (!ERROR_MARK.test(line) && !ERROR_LINES.some((pattern) => pattern.test(words))) continue;
    const message = errorMessage(lines, index);
    found = message.text;
    // A link of its chain that names an error too (`╰─▶ error: …`) is part of this one, not the last.
    index = message.end - 1;
  }
  return found;
}

/**
 * What a tool that starts each line with its name and level (`npm error …`) says went wrong: the
 * first line of its last message that is more than a field (`code E404`), as npm says the reason
 * first and its advice and the path of its log after. A blank line does not end such a message
 * (npm 8 leaves one before the log's path).
 */
function toolError(lines: readonly string[]): string | undefined {
  let message: { tool: string; lines: Array<{ line: string; said: string }> } | undefined;
  let last: typeof message;
  for (const raw of lines) {
    const line = raw.replace(COLOURS, '').trim();
    const match = TOOL_LEVEL.exec(line);
    if (!match) {
      if (line) message = undefined;
      continue;
    }
    const tool = match[1]!;
    if (message?.tool !== tool) message = last = { tool, lines: [] };
    message.lines.push({ line, said: line.slice(match[0].length).trim() });
  }
  return (last?.lines.find(({ said }) => !TOOL_FIELD.test(said)) ?? last?.lines[0])?.line;
}

/**
 * The last of what a server wrote to stderr: at most `maxBytes` (64 KiB) and `maxLines` (200)
 * lines, oldest dropped first, so that a chatty or looping server cannot grow memory. Each
 * chunk costs time in its own length only (the lines are kept apart, their sizes counted once).
 */
export class StderrTail {
  readonly #maxBytes: number;
  readonly #maxLines: number;
  /** Complete lines, then the line being written (empty after a newline). */
  readonly #lines: string[] = [''];
  readonly #sizes: number[] = [0];
  #bytes = 0;
  #truncated = false;

  constructor(options: { maxBytes?: number; maxLines?: number } = {}) {
    this.#maxBytes = options.maxBytes ?? 64 * 1024;
    this.#maxLines = options.maxLines ?? 200;
  }

  append(chunk: string): void {
    const parts = chunk.split('\n');
    const last = this.#lines.length - 1;
    const first = parts[0]!;
    this.#lines[last] += first;
    const size = Buffer.byteLength(first);
    this.#sizes[last]! += size;
    this.#bytes += size;
    for (const part of parts.slice(1)) {
      const partSize = Buffer.byteLength(part);
      this.#lines.push(part);
      this.#sizes.push(partSize);
      this.#bytes += partSize + 1;
    }
    this.#trim();
  }

  #trim(): void {
    const counted = () => this.#lines.length - (this.#lines.at(-1) === '' ? 1 : 0);
    while (this.#lines.length > 1 && (counted() > this.#maxLines || this.#bytes > this.#maxBytes)) {
      this.#lines.shift();
      this.#bytes -= this.#sizes.shift()! + 1;
      this.#truncated = true;
    }
    if (this.#bytes > this.#maxBytes) {
      // One line longer than the limit: its end is kept (a character is at most 4 bytes).
      const line = this.#lines[0]!.slice(-Math.floor(this.#maxBytes / 4));
      this.#lines[0] = line;
      this.#sizes[0] = Buffer.byteLength(line);
      this.#bytes = this.#sizes[0];
      this.#truncated = true;
    }
  }

  get text(): string {
    return this.#lines.join('\n');
  }

  get truncated(): boolean {
    return this.#truncated;
  }

  /**
   * What a one-line failure reason quotes: the last line that names an error (`Error: …`,
   * `TypeError: …`, Python's `KeyError: …` at the end of a traceback, `error: …`, `docker: Error
   * response from daemon: …`, uv's `× …`) with the lines that go on with it (its chain, uv's
   * `╰─▶ Because …`); else the reason npm gives (`npm error 404 Not Found - GET …`, not its advice
   * or the path of its log); else the last three lines that say something (not blank, not a lone
   * brace or caret, not a stack frame or Node's `Node.js vNN` trailer) joined by ` | `. `redact`
   * hides secrets before the text is cut to `maxChars`, so that no part of a secret is left by the cut.
   */
  summary(redact: (text: string) => string = (text) => text, maxChars = 300): string {
    const text =
      namedError(this.#lines) ??
      toolError(this.#lines) ??
      this.#lines
        .map((line) => line.replace(COLOURS, ''))
        .filter((line) => !isNoise(line))
        .slice(-3)
        .map((line) => line.trim())
        .join(' | ');
    const clean = redact(text);
    return clean.length > maxChars ? `${clean.slice(0, maxChars - 1)}…` : clean;
  }
}
