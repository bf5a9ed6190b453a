/**
 * Callers waiting for a task to end, woken by the event, never by polling.
 *
 * Each wait removes its own abort listener when it settles, so a request that waits
 * for hours leaves nothing behind (the SDK's built-in `tasks/result` leaks one per poll).
 */
export class TaskWaiters<T> {
  readonly #waiting = new Map<string, Set<{ resolve: (value: T) => void; reject: (error: unknown) => void }>>();

  /** Waits for `resolve(key)` or `reject(key)`; rejects with the signal's reason on abort. */
  wait(key: string, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(signal.reason ?? new Error('Aborted'));
    return new Promise<T>((resolve, reject) => {
      let set = this.#waiting.get(key);
      if (!set) this.#waiting.set(key, (set = new Set()));
      const onAbort = () => {
        cleanup();
        reject(signal?.reason ?? new Error('Aborted'));
      };
      const entry = {
        resolve: (value: T) => {
          cleanup();
          resolve(value);
        },
        reject: (error: unknown) => {
          cleanup();
          reject(error);
        }
      };
      const cleanup = () => {
        signal?.removeEventListener('abort', onAbort);
        const current = this.#waiting.get(key);
        current?.delete(entry);
        if (current?.size === 0) this.#waiting.delete(key);
      };
      set.add(entry);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Wakes every waiter on `key` with `value`. */
  resolve(key: string, value: T): void {
    for (const entry of [...(this.#waiting.get(key) ?? [])]) entry.resolve(value);
  }

  /** Wakes every waiter on `key` with an error. */
  reject(key: string, error: unknown): void {
    for (const entry of [...(this.#waiting.get(key) ?? [])]) entry.reject(error);
  }

  /** Wakes every waiter with an error (shutdown). */
  rejectAll(error: unknown): void {
    for (const key of [...this.#waiting.keys()]) this.reject(key, error);
  }

  /** Number of pending waits, for tests and diagnostics. */
  get size(): number {
    let total = 0;
    for (const set of this.#waiting.values()) total += set.size;
    return total;
  }
}
