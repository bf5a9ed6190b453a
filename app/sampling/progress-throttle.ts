import type { Clock } from '../core/clock.js';

/**
 * Lets a call through at most once per interval, on the injected clock.
 *
 * A model streams tens of tokens a second; one progress notification per token would
 * flood the server and the UI. The first call passes at once, later ones only when
 * the interval has passed since the last one that passed. No timer is kept, so nothing
 * is left pending when the stream ends.
 */
export class ProgressThrottle {
  readonly #clock: Clock;
  readonly #intervalMs: number;
  #last: number | undefined;

  constructor(clock: Clock, intervalMs: number) {
    this.#clock = clock;
    this.#intervalMs = intervalMs;
  }

  /** Whether a report may go out now; records it when so. */
  take(): boolean {
    const now = this.#clock.now();
    if (this.#last !== undefined && now - this.#last < this.#intervalMs) return false;
    this.#last = now;
    return true;
  }
}
