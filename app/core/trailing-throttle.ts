import type { Clock, TimerHandle } from './clock.js';

/**
 * Runs `fire` at most once per `intervalMs`, on the injected clock, and once more after a call it
 * held back (the trailing edge), so that what came last is always shown: a leading-only throttle
 * left a stream that paused a few words behind until its next token, or its end. Ours rather than
 * lodash's `throttle`: it runs on the core's `Clock`, which tests drive by hand.
 */
export class TrailingThrottle {
  readonly #clock: Clock;
  readonly #intervalMs: number;
  readonly #fire: () => void;
  #last: number | undefined;
  #timer: TimerHandle | undefined;

  constructor(clock: Clock, intervalMs: number, fire: () => void) {
    this.#clock = clock;
    this.#intervalMs = intervalMs;
    this.#fire = fire;
  }

  /** Something changed: `fire` runs now, or when the interval since the last run is over. */
  poke(): void {
    if (this.#timer !== undefined) return;
    const now = this.#clock.now();
    // At most one interval: a clock set back does not hold the text for as long as it went back.
    const wait = this.#last === undefined ? 0 : Math.min(this.#last + this.#intervalMs - now, this.#intervalMs);
    if (wait <= 0) {
      this.#last = now;
      this.#fire();
      return;
    }
    this.#timer = this.#clock.setTimeout(() => {
      this.#timer = undefined;
      this.#last = this.#clock.now();
      this.#fire();
    }, wait);
  }

  /** Drops a run still due (the stream ended: its end says the whole text). */
  cancel(): void {
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
