/**
 * The clock the core reads time from and schedules work with.
 *
 * Every timer in the core goes through this interface, so tests can run TTLs,
 * poll intervals and rate limits on a manual clock (`test/support/manual-clock.ts`) instead
 * of sleeping.
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
