import type { Clock } from '../core/clock.js';
import { ChangeCoalescer } from '../core/coalesce.js';

/** Streams followed at once before the throttle forgets them all (a stream whose end never came). */
const MAX_STREAMS = 1000;

/**
 * Decides which updates of a model's streamed text reach the UI: at most one per `intervalMs` for
 * each stream, the latest held back one sent when its interval is over (a stream that pauses
 * shows what came last), and always its last one (`done`), which carries the whole text.
 */
export class PartialTextThrottle<T> {
  readonly #clock: Clock;
  readonly #intervalMs: number;
  readonly #emit: (update: T) => void;
  readonly #streams = new Map<string, { throttle: ChangeCoalescer; latest: T }>();

  constructor(clock: Clock, emit: (update: T) => void, intervalMs = 100) {
    this.#clock = clock;
    this.#emit = emit;
    this.#intervalMs = intervalMs;
  }

  /** An update of `streamId`: sent now, or as the latest once its interval is over; `done` at once. */
  offer(streamId: string, update: T, done: boolean): void {
    const stream = this.#streams.get(streamId);
    if (done) {
      stream?.throttle.close();
      this.#streams.delete(streamId);
      this.#emit(update);
      return;
    }
    if (stream) {
      stream.latest = update;
      stream.throttle.changed();
      return;
    }
    if (this.#streams.size >= MAX_STREAMS) {
      for (const { throttle } of this.#streams.values()) throttle.close();
      this.#streams.clear();
    }
    const added: { throttle: ChangeCoalescer; latest: T } = {
      latest: update,
      throttle: new ChangeCoalescer(this.#clock, this.#intervalMs, () => this.#emit(added.latest))
    };
    this.#streams.set(streamId, added);
    added.throttle.changed();
  }

  /** Drops every update still held back (the host is closing: nobody is left to tell). */
  close(): void {
    for (const { throttle } of this.#streams.values()) throttle.close();
    this.#streams.clear();
  }
}
