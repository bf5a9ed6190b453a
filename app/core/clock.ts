/**
 * The clock the core reads time from and schedules work with.
 *
 * Every timer in the core goes through this interface, so tests can run TTLs,
 * poll intervals and rate limits on a manual clock instead of sleeping.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Runs `fn` once after `ms` milliseconds; returns a handle for `clearTimeout`. */
  setTimeout(fn: () => void, ms: number): TimerHandle;
  /** Cancels a timer; unknown or fired handles are ignored. */
  clearTimeout(handle: TimerHandle): void;
}

/** An opaque timer handle. */
export type TimerHandle = { readonly __timer: unique symbol } | object;

/** The wall clock, backed by the runtime's timers. Timers do not keep the process alive. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const handle = setTimeout(fn, Math.max(0, Math.min(ms, 2 ** 31 - 1)));
    handle.unref?.();
    return handle;
  },
  clearTimeout(handle) {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  }
};

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
