import type { Clock, TimerHandle } from './clock.js';

/**
 * Tells of changes at most once per interval, on the injected clock: the first change at once,
 * the changes within an interval once at its end, so the last one is always told. For an event
 * whose listeners only need to know that something changed (and read it again), which a busy
 * moment could otherwise send thousands of times a second (the audit log under a flood).
 */
export class ChangeCoalescer {
  readonly #clock: Clock;
  readonly #intervalMs: number;
  readonly #tell: () => void;
  #timer: TimerHandle | undefined;
  #pending = false;
  #closed = false;

  constructor(clock: Clock, intervalMs: number, tell: () => void) {
    this.#clock = clock;
    this.#intervalMs = intervalMs;
    this.#tell = tell;
  }

  /** Something changed. */
  changed(): void {
    if (this.#closed) return;
    if (this.#timer !== undefined) {
      this.#pending = true;
      return;
    }
    this.#tell();
    this.#timer = this.#clock.setTimeout(() => {
      this.#timer = undefined;
      if (!this.#pending) return;
      this.#pending = false;
      this.changed();
    }, this.#intervalMs);
  }

  /** Tells nothing more. */
  close(): void {
    this.#closed = true;
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
