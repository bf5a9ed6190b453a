import type { Clock } from '../core/clock.js';

/**
 * A token bucket per key: `rate` tokens a second, up to `burst` saved.
 *
 * `take` answers how long to wait when the bucket is empty, for the error's data.
 */
export class RateLimiter {
  readonly #clock: Clock;
  readonly #rate: number;
  readonly #burst: number;
  readonly #buckets = new Map<string, { tokens: number; at: number }>();

  constructor(clock: Clock, rate: number, burst: number) {
    this.#clock = clock;
    this.#rate = rate;
    this.#burst = Math.max(1, burst);
  }

  /** Takes `amount` tokens (default one) for `key`; returns 0 when allowed, else the ms until they are free. */
  take(key: string, amount = 1): number {
    const bucket = this.#refill(key);
    if (bucket.tokens >= amount) {
      bucket.tokens -= amount;
      return 0;
    }
    return this.#waitFor(bucket, amount);
  }

  /** What `take` would answer for `amount`, taking nothing: 0 when allowed, else the ms to wait. */
  peek(key: string, amount = 1): number {
    const bucket = this.#refill(key);
    return bucket.tokens >= amount ? 0 : this.#waitFor(bucket, amount);
  }

  /** Takes `amount` tokens for `key`, or all there are when fewer: for what was let through and is counted after. */
  drain(key: string, amount: number): void {
    const bucket = this.#refill(key);
    bucket.tokens = Math.max(0, bucket.tokens - amount);
  }

  #refill(key: string): { tokens: number; at: number } {
    const now = this.#clock.now();
    const bucket = this.#buckets.get(key) ?? { tokens: this.#burst, at: now };
    bucket.tokens = Math.min(this.#burst, bucket.tokens + ((now - bucket.at) / 1000) * this.#rate);
    bucket.at = now;
    this.#buckets.set(key, bucket);
    return bucket;
  }

  #waitFor(bucket: { tokens: number }, amount: number): number {
    return Math.ceil(((amount - bucket.tokens) / this.#rate) * 1000);
  }

  /** Forgets a key (its server disconnected). */
  forget(key: string): void {
    this.#buckets.delete(key);
  }
}
