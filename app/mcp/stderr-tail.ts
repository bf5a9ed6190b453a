/** Lines that say what went wrong, tried on each line without its indent or an exception group's `|` and `+`. */
const ERROR_LINES = [
  // A JavaScript or Python exception, dotted (`httpx.ConnectError`), with Node's code (`Error [ERR_X]`).
  /^(?:[A-Za-z_]\w*\.)*[A-Za-z_]*(?:Error|Exception)(?: \[[\w-]+\])?:/,
  // A command line tool or a logger: `error: …`, `server.py: error: …`, `ERROR:root:…`, `fatal: …`, `panic: …`.
  /^(?:[\w./-]+: )?(?:error|fatal|fatal error|panic)(?:\[\w+\])?:/i,
  // Java's uncaught exception.
  /^Exception in thread /
];

/** A line that says nothing by itself: blank, punctuation only (`}`, `^^^`), a stack frame, Node's version. */
function isNoise(line: string): boolean {
  return !/[\p{L}\p{N}]/u.test(line) || /^\s+at\s/.test(line) || /^Node\.js v\d/.test(line.trim());
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
   * `TypeError: …`, Python's `KeyError: …` at the end of a traceback, `error: …`), else the last
   * three lines that say something (not blank, not a lone brace or caret, not a stack frame or
   * Node's `Node.js vNN` trailer) joined by ` | `. `redact` hides secrets before the text is cut
   * to `maxChars`, so that no part of a secret is left by the cut.
   */
  summary(redact: (text: string) => string = (text) => text, maxChars = 300): string {
    const named = this.#lines
      .map((line) => line.replace(/^[\s|+]+/, '').trimEnd())
      .findLast((line) => ERROR_LINES.some((pattern) => pattern.test(line)));
    const text =
      named ??
      this.#lines
        .filter((line) => !isNoise(line))
        .slice(-3)
        .map((line) => line.trim())
        .join(' | ');
    const clean = redact(text);
    return clean.length > maxChars ? `${clean.slice(0, maxChars - 1)}…` : clean;
  }
}
