import type { Clock, TimerHandle } from '../../app/core/clock.js';

/**
 * A clock that moves only when told to.
 *
 * `advance(ms)` fires every timer that falls due, in order of due time, and
 * lets promise callbacks settle between timers so that work chained on a timer
 * runs before the next one fires.
 */
export class ManualClock implements Clock {
  #now: number;
  #seq = 0;
  #timers = new Map<number, { due: number; seq: number; fn: () => void }>();

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const seq = ++this.#seq;
    this.#timers.set(seq, { due: this.#now + Math.max(0, ms), seq, fn });
    return { seq };
  }

  clearTimeout(handle: TimerHandle): void {
    const seq = (handle as { seq?: number }).seq;
    if (seq !== undefined) this.#timers.delete(seq);
  }

  /** Number of timers not yet fired. */
  get pendingTimers(): number {
    return this.#timers.size;
  }

  /** Moves time forward by `ms`, firing due timers in order. */
  async advance(ms: number): Promise<void> {
    const target = this.#now + ms;
    for (;;) {
      await settle();
      let next: { due: number; seq: number; fn: () => void } | undefined;
      for (const timer of this.#timers.values()) {
        if (
          timer.due <= target &&
          (!next || timer.due < next.due || (timer.due === next.due && timer.seq < next.seq))
        ) {
          next = timer;
        }
      }
      if (!next) break;
      this.#timers.delete(next.seq);
      this.#now = Math.max(this.#now, next.due);
      next.fn();
    }
    this.#now = target;
    await settle();
  }
}

/** Lets queued promise callbacks and I/O callbacks run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
