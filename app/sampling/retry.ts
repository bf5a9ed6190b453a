import type { Clock } from '../core/clock.js';
import { ProviderFailureError, type ProviderFailure } from './provider-failure.js';

/** Bounds on retrying a provider call. */
export interface RetryOptions {
  /** Retries after the first attempt (so `maxRetries: 2` is at most three calls). */
  maxRetries: number;
  /** Wait before the first retry when the provider gives no `retry-after`; doubles each time. */
  baseDelayMs: number;
  /**
   * The longest the engine will wait. A provider that asks for longer is not retried:
   * the request fails at once with the provider's message, instead of holding a task
   * for a wait the user did not agree to.
   */
  maxWaitMs: number;
}

/** Defaults: two retries, 0.5 s then 1 s, and never more than 10 s of waiting per retry. */
export const defaultRetryOptions: RetryOptions = { maxRetries: 2, baseDelayMs: 500, maxWaitMs: 10_000 };

/** A retry about to happen, for progress messages and tests. */
export interface RetryNotice {
  /** 1 for the first retry. */
  retry: number;
  waitMs: number;
  failure: ProviderFailure;
}

/**
 * Runs `attempt` until it succeeds, fails for good, or the retries run out.
 *
 * Waiting happens on the injected clock and stops at once when `signal` aborts.
 * `classify` turns a thrown error into a failure; only `retryable` ones are retried.
 */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  classify: (error: unknown) => ProviderFailure,
  options: RetryOptions & { clock: Clock; signal: AbortSignal; onRetry?: (notice: RetryNotice) => void }
): Promise<T> {
  for (let retry = 0; ; retry++) {
    try {
      return await attempt();
    } catch (error) {
      const failure = classify(error);
      if (!failure.retryable || retry >= options.maxRetries || options.signal.aborted) {
        throw new ProviderFailureError(failure);
      }
      const waitMs = failure.retryAfterMs ?? options.baseDelayMs * 2 ** retry;
      if (waitMs > options.maxWaitMs) {
        const seconds = Math.ceil(waitMs / 1000);
        throw new ProviderFailureError({
          ...failure,
          retryable: false,
          message: `${failure.message} The provider asks to wait ${seconds} s before trying again.`
        });
      }
      options.onRetry?.({ retry: retry + 1, waitMs, failure });
      await sleep(options.clock, waitMs, options.signal);
    }
  }
}

/** Waits `ms` on the clock; rejects with the signal's reason when it aborts first. */
export function sleep(clock: Clock, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clock.clearTimeout(handle);
      reject(signal.reason);
    };
    const handle = clock.setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
