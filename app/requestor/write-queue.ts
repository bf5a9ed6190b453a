import type { Clock } from '../core/clock.js';

/** Longest stretch of document writes before the event loop gets a turn. */
const WRITE_SLICE_MS = 10;
/** How long after a failed document write the queue tries again. */
const WRITE_RETRY_MS = 5_000;
/**
 * The longest a settling write waits for what it waits on (a terminal status for its outcome):
 * a `tasks/result` asked while the task waited for input may never be answered (some servers
 * leave it unanswered on a cancel), and the end it holds back is what the person waits to see.
 */
export const SETTLING_HOLD_MS = 2_000;

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
  /** When each settling item was first held back, by the clock. */
  readonly #heldSince = new Map<T, number>();
  /** The timer that writes held items once their hold is over, and when it fires (by the clock). */
  #holdTimer: ReturnType<Clock['setTimeout']> | undefined;
  #holdDue = 0;
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
    this.#heldSince.delete(item);
  }

  /** Writes (and then announces) dirty items, in order; `all` writes every one now, settling ones too. */
  flush(all = false): void {
    this.#queued = false;
    const deadline = performance.now() + WRITE_SLICE_MS;
    const now = this.#options.clock.now();
    for (const item of [...this.#dirty]) {
      // A terminal status waits for its outcome (see TaskFollower.settling); the fetch's end
      // flushes it, or the end of its hold (`SETTLING_HOLD_MS`) does.
      if (item.settling && !all && !this.#holdOver(item, now)) continue;
      if (!all && performance.now() > deadline) {
        this.#queued = true;
        setImmediate(() => this.flush());
        return;
      }
      this.#dirty.delete(item);
      this.#heldSince.delete(item);
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

  /** Writes what waits, settling items too, and stops the hold's timer: the queue is done with. */
  close(): void {
    this.flush(true);
    if (this.#holdTimer !== undefined) this.#options.clock.clearTimeout(this.#holdTimer);
    this.#holdTimer = undefined;
  }

  /**
   * Whether a settling item has waited its hold out (`SETTLING_HOLD_MS` since it was first held
   * back); while it has not, the timer is set for the soonest hold still running to end.
   */
  #holdOver(item: T, now: number): boolean {
    const since = this.#heldSince.get(item) ?? now;
    this.#heldSince.set(item, since);
    const due = since + SETTLING_HOLD_MS;
    if (due <= now) return true;
    if (this.#holdTimer === undefined || due < this.#holdDue) {
      if (this.#holdTimer !== undefined) this.#options.clock.clearTimeout(this.#holdTimer);
      this.#holdDue = due;
      this.#holdTimer = this.#options.clock.setTimeout(() => {
        this.#holdTimer = undefined;
        // A flush already due (a retry after a failed write, the next slice) takes them too: no
        // second retry chain.
        if (!this.#queued) this.flush();
      }, due - now);
    }
    return false;
  }
}
