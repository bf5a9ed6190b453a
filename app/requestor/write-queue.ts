import type { Clock } from '../core/clock.js';

/** Longest stretch of document writes before the event loop gets a turn. */
const WRITE_SLICE_MS = 10;
/** How long after a failed document write the queue tries again. */
const WRITE_RETRY_MS = 5_000;

/** What the queue writes: anything that may ask for its write to wait. */
export interface QueuedWrite {
  /** True while the write must wait (a terminal status waiting for its outcome). */
  readonly settling: boolean;
}

/** Options of {@link WriteQueue}. */
export interface WriteQueueOptions<T extends QueuedWrite> {
  clock: Clock;
  /** Writes one item; throws when the disk refuses. */
  save(item: T): void;
  /** The item's write landed (announce it). */
  written(item: T): void;
  /** The item's write failed; the queue keeps it and tries again later. */
  failed(item: T, error: unknown): void;
}

/**
 * Outbound task documents waiting to be written, and the slicing of their writes.
 *
 * Changes are written once per turn of the event loop, however many happened in it. Each
 * document write is a synchronous, fsync'd file write (milliseconds each), so a burst (a
 * thousand tasks finishing together) is written in slices of about `WRITE_SLICE_MS`, yielding
 * to the event loop between slices so that poll timers and responses are not held up behind
 * the disk.
 */
export class WriteQueue<T extends QueuedWrite> {
  readonly #options: WriteQueueOptions<T>;
  readonly #dirty = new Set<T>();
  #queued = false;

  constructor(options: WriteQueueOptions<T>) {
    this.#options = options;
  }

  /** Queues an item's write for the end of this turn. */
  mark(item: T): void {
    this.#dirty.add(item);
    if (this.#queued) return;
    this.#queued = true;
    queueMicrotask(() => this.flush());
  }

  /** Drops an item's pending write (it was removed). */
  delete(item: T): void {
    this.#dirty.delete(item);
  }

  /** Writes (and then announces) dirty items, in order; `all` writes every one now, settling ones too. */
  flush(all = false): void {
    this.#queued = false;
    const deadline = performance.now() + WRITE_SLICE_MS;
    for (const item of [...this.#dirty]) {
      // A terminal status waits for its outcome (see TaskFollower.settling); the fetch's end flushes it.
      if (item.settling && !all) continue;
      if (!all && performance.now() > deadline) {
        this.#queued = true;
        setImmediate(() => this.flush());
        return;
      }
      this.#dirty.delete(item);
      try {
        this.#options.save(item);
      } catch (error) {
        // A full disk or a permission problem: keep the change, say so, and try again later.
        this.#dirty.add(item);
        this.#options.failed(item, error);
        if (!this.#queued) {
          this.#queued = true;
          this.#options.clock.setTimeout(() => this.flush(), WRITE_RETRY_MS);
        }
        return;
      }
      this.#options.written(item);
    }
  }
}
