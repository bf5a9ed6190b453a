import type { Clock, TimerHandle } from '../core/clock.js';

/**
 * One re-armable timer on the clock: fires `onExpire` unless re-armed or disarmed first.
 *
 * The engine arms it before each provider call (time to first byte) and re-arms it on
 * every streamed chunk (time between chunks), so a stalled provider is noticed on the
 * injected clock rather than after the SDK's far backstop.
 */
export class Watchdog {
  readonly #clock: Clock;
  readonly #onExpire: (ms: number) => void;
  #handle: TimerHandle | undefined;

  constructor(clock: Clock, onExpire: (ms: number) => void) {
    this.#clock = clock;
    this.#onExpire = onExpire;
  }

  arm(ms: number): void {
    this.disarm();
    this.#handle = this.#clock.setTimeout(() => {
      this.#handle = undefined;
      this.#onExpire(ms);
    }, ms);
  }

  disarm(): void {
    if (this.#handle !== undefined) this.#clock.clearTimeout(this.#handle);
    this.#handle = undefined;
  }
}
