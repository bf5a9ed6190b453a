/**
 * The last of what a server wrote to stderr: at most `maxBytes` (64 KiB) and `maxLines` (200)
 * lines, oldest dropped first, so that a chatty or looping server cannot grow memory.
 */
export class StderrTail {
  readonly #maxBytes: number;
  readonly #maxLines: number;
  #text = '';
  #truncated = false;

  constructor(options: { maxBytes?: number; maxLines?: number } = {}) {
    this.#maxBytes = options.maxBytes ?? 64 * 1024;
    this.#maxLines = options.maxLines ?? 200;
  }

  append(chunk: string): void {
    let text = this.#text + chunk;
    // Characters, not bytes, bound the slice below; UTF-8 is at most 4 bytes a character, and
    // a cut in the middle of a line is fine for a diagnostic tail.
    if (Buffer.byteLength(text) > this.#maxBytes) {
      text = text.slice(-Math.floor(this.#maxBytes / 2));
      while (Buffer.byteLength(text) > this.#maxBytes) text = text.slice(Math.ceil(text.length / 8));
      this.#truncated = true;
    }
    let newlines = 0;
    for (let index = text.length - 1; index >= 0; index--) {
      // A trailing newline ends the last line; it does not start a new one.
      if (text[index] === '\n' && index !== text.length - 1 && ++newlines >= this.#maxLines) {
        text = text.slice(index + 1);
        this.#truncated = true;
        break;
      }
    }
    this.#text = text;
  }

  get text(): string {
    return this.#text;
  }

  get truncated(): boolean {
    return this.#truncated;
  }

  /** The last `lines` non-empty lines joined by ` | `, for a one-line failure reason. */
  last(lines: number): string {
    return this.#text.trim().split('\n').slice(-lines).join(' | ');
  }
}
