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

  /** The last `lines` non-empty lines joined by ` | `, for a one-line failure reason. */
  last(lines: number): string {
    return this.#lines
      .slice(-lines - 1)
      .join('\n')
      .trim()
      .split('\n')
      .slice(-lines)
      .join(' | ');
  }
}
