import type { Clock } from '../core/clock.js';

/** Streams followed at once before the throttle forgets them all (a stream whose end never came). */
const MAX_STREAMS = 1000;

/**
 * Decides which updates of a model's streamed text reach the UI: at most one per `intervalMs` for
 * each stream, and always its last one (`done`), which carries the whole text.
 */
export class PartialTextThrottle {
  readonly #clock: Clock;
  readonly #intervalMs: number;
  readonly #last = new Map<string, number>();

  constructor(clock: Clock, intervalMs = 100) {
    this.#clock = clock;
    this.#intervalMs = intervalMs;
  }

  /** Whether this update of `streamId` goes out now. */
  take(streamId: string, done: boolean): boolean {
    if (done) {
      this.#last.delete(streamId);
      return true;
    }
    const now = this.#clock.now();
    if (now - (this.#last.get(streamId) ?? -Infinity) < this.#intervalMs) return false;
    if (this.#last.size > MAX_STREAMS) this.#last.clear();
    this.#last.set(streamId, now);
    return true;
  }
}
