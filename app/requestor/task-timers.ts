import type { Clock, TimerHandle } from '../core/clock.js';

/** A scheduled call; cancel it with {@link TaskTimers.cancel}. */
export interface ScheduledCall {
  readonly due: number;
}

interface Entry extends ScheduledCall {
  readonly seq: number;
  readonly run: () => void;
  cancelled: boolean;
}

/** Cancelled entries tolerated in the heap, beyond the live ones, before it is rebuilt without them. */
const GARBAGE_SLACK = 64;

/**
 * One timer for every followed task's next poll and expiry.
 *
 * A timer per task costs a timer object and a closure per poll, and since each task's delay
 * differs by a few milliseconds (its last poll plus its interval, its creation plus its ttl), the
 * runtime keeps a timer list per distinct delay: a thousand tasks polled every 500 ms showed in
 * the requestor benchmark's profile as timer-list upkeep that the SDK's follower (one constant
 * delay) never pays. Here the calls wait in a binary heap by due time and one clock timer is
 * armed for the earliest; when it fires, every call then due runs, in due order (then in the
 * order scheduled), in the same turn, none before its time. Calls due together (polls gathered
 * into one slot, see `pollSlotMs`) go out together, their requests in one write.
 *
 * Our own: a heap of a few dozen lines, where a timer-wheel package would bring its own clock
 * (this one must run on the injected one, so tests can drive it).
 */
export class TaskTimers {
  readonly #clock: Clock;
  readonly #heap: Entry[] = [];
  #live = 0;
  #seq = 0;
  #timer: TimerHandle | undefined;
  #timerDue = Infinity;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** Calls scheduled and not yet run or cancelled. */
  get size(): number {
    return this.#live;
  }

  /** Runs `run` at `due` (clock milliseconds; at once, on the next timer, when already past). */
  schedule(due: number, run: () => void): ScheduledCall {
    const entry: Entry = { due, seq: ++this.#seq, run, cancelled: false };
    this.#push(entry);
    this.#live++;
    if (due < this.#timerDue) this.#arm(due);
    return entry;
  }

  /** Cancels a scheduled call; one already run or cancelled is ignored. */
  cancel(call: ScheduledCall): void {
    const entry = call as Entry;
    if (entry.cancelled) return;
    entry.cancelled = true;
    this.#live--;
    if (this.#heap.length > 2 * this.#live + GARBAGE_SLACK) this.#rebuild();
  }

  /** Cancels everything and stops the timer. */
  clear(): void {
    for (const entry of this.#heap) entry.cancelled = true;
    this.#heap.length = 0;
    this.#live = 0;
    this.#disarm();
  }

  #arm(due: number): void {
    this.#disarm();
    this.#timerDue = due;
    this.#timer = this.#clock.setTimeout(() => this.#fire(), due - this.#clock.now());
  }

  #disarm(): void {
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerDue = Infinity;
  }

  #fire(): void {
    this.#timer = undefined;
    this.#timerDue = Infinity;
    const now = this.#clock.now();
    const due: Entry[] = [];
    while (this.#heap.length > 0 && this.#heap[0]!.due <= now) {
      const entry = this.#pop();
      if (entry.cancelled) continue;
      // Marked as run, so that cancelling it later (a poll clears its own slot) changes nothing.
      entry.cancelled = true;
      this.#live--;
      due.push(entry);
    }
    this.#dropCancelledTop();
    // Armed before the calls run: one that schedules another sooner re-arms it itself.
    if (this.#heap.length > 0) this.#arm(this.#heap[0]!.due);
    for (const entry of due) {
      try {
        entry.run();
      } catch {
        // A call's failure is its follower's to record; the others still run.
      }
    }
  }

  #dropCancelledTop(): void {
    while (this.#heap.length > 0 && this.#heap[0]!.cancelled) this.#pop();
  }

  #rebuild(): void {
    const live = this.#heap.filter((entry) => !entry.cancelled);
    this.#heap.length = 0;
    for (const entry of live) this.#push(entry);
  }

  #push(entry: Entry): void {
    const heap = this.#heap;
    heap.push(entry);
    let index = heap.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!before(entry, heap[parent]!)) break;
      heap[index] = heap[parent]!;
      index = parent;
    }
    heap[index] = entry;
  }

  #pop(): Entry {
    const heap = this.#heap;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length === 0) return top;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && before(heap[right]!, heap[left]!) ? right : left;
      if (!before(heap[child]!, last)) break;
      heap[index] = heap[child]!;
      index = child;
    }
    heap[index] = last;
    return top;
  }
}

function before(a: Entry, b: Entry): boolean {
  return a.due < b.due || (a.due === b.due && a.seq < b.seq);
}
