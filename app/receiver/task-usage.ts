import type { ReceiverPolicy } from './receiver-policy.js';

/** What the repository holds, for one server identity or for all. */
export interface UsageFigures {
  /** Tasks held, finished or not. */
  tasks: number;
  /** Terminal tasks held. */
  finished: number;
  /** Bytes of stored JSON (an estimate close to what the store writes), finished and not. */
  bytes: number;
  /** Bytes of the unfinished tasks alone. */
  openBytes: number;
}

/** The bounds on what servers can make Taskdesk keep (see `ReceiverPolicy`). */
export type StorageBounds = Pick<
  ReceiverPolicy,
  'maxFinishedTasksPerServer' | 'maxFinishedTasksTotal' | 'maxStoredBytesPerServer' | 'maxStoredBytesTotal'
>;

interface OwnerUsage extends UsageFigures {
  /** Finished task ids, oldest first (in the order they finished). */
  order: Set<string>;
}

/**
 * Counts of what the task repository holds per owner identity and in total, and which finished
 * task goes first when a bound is exceeded.
 *
 * Kept up to date on every change, so checking a bound costs the same however many tasks are
 * held (a count of the repository's own records, not an estimate of the heap).
 */
export class TaskUsage {
  readonly #owners = new Map<string, OwnerUsage>();
  readonly #tasks = new Map<string, { owner: string; bytes: number; finished: boolean }>();
  readonly #total: UsageFigures = { tasks: 0, finished: 0, bytes: 0, openBytes: 0 };

  /** Records a task's current size and state (replacing what was recorded for it). */
  set(taskId: string, owner: string, bytes: number, finished: boolean): void {
    const previous = this.#tasks.get(taskId);
    // A task's owner never changes; a finished task stays where it is in the order.
    if (previous) this.#apply(previous, -1, false);
    const entry = { owner, bytes, finished };
    this.#tasks.set(taskId, entry);
    const usage = this.#apply(entry, 1, true);
    if (finished && !usage.order.has(taskId)) usage.order.add(taskId);
  }

  /** Forgets a task. */
  delete(taskId: string): void {
    const entry = this.#tasks.get(taskId);
    if (!entry) return;
    this.#tasks.delete(taskId);
    const usage = this.#apply(entry, -1, false);
    usage.order.delete(taskId);
    if (usage.tasks === 0) this.#owners.delete(entry.owner);
  }

  /** The figures of one owner identity, or the totals. */
  of(owner?: string): UsageFigures {
    const usage = owner === undefined ? this.#total : this.#owners.get(owner);
    return usage
      ? { tasks: usage.tasks, finished: usage.finished, bytes: usage.bytes, openBytes: usage.openBytes }
      : { tasks: 0, finished: 0, bytes: 0, openBytes: 0 };
  }

  /** Puts each owner's finished tasks in order again (after a load, which reads them in file order). */
  reorder(compare: (a: string, b: string) => number): void {
    for (const usage of this.#owners.values()) {
      const sorted = [...usage.order].sort(compare);
      usage.order.clear();
      for (const id of sorted) usage.order.add(id);
    }
  }

  /**
   * The finished task to expire next so that the bounds hold, or undefined when they do.
   *
   * An owner above its own bounds loses its oldest finished task. Above the totals, the owner
   * holding the most (bytes, or finished tasks when that is the bound exceeded) loses its oldest:
   * a server flooding Taskdesk pays for it, the others keep their tasks. Unfinished tasks are
   * never chosen (the caps on creation bound them). The caller removes the task, then asks again.
   */
  nextEviction(bounds: StorageBounds, owner?: string): string | undefined {
    const candidates = owner === undefined ? [...this.#owners.values()] : [this.#owners.get(owner)];
    for (const usage of candidates) {
      if (!usage || usage.order.size === 0) continue;
      if (usage.finished > bounds.maxFinishedTasksPerServer || usage.bytes > bounds.maxStoredBytesPerServer)
        return first(usage.order);
    }
    const overBytes = this.#total.bytes > bounds.maxStoredBytesTotal;
    if (!overBytes && this.#total.finished <= bounds.maxFinishedTasksTotal) return undefined;
    let largest: OwnerUsage | undefined;
    for (const usage of this.#owners.values()) {
      if (usage.order.size === 0) continue;
      const size = overBytes ? usage.bytes : usage.finished;
      if (!largest || size > (overBytes ? largest.bytes : largest.finished)) largest = usage;
    }
    return largest && first(largest.order);
  }

  #apply(entry: { owner: string; bytes: number; finished: boolean }, sign: 1 | -1, create: boolean): OwnerUsage {
    let usage = this.#owners.get(entry.owner);
    if (!usage) {
      usage = { tasks: 0, finished: 0, bytes: 0, openBytes: 0, order: new Set() };
      if (create) this.#owners.set(entry.owner, usage);
    }
    for (const figures of [usage, this.#total]) {
      figures.tasks += sign;
      figures.bytes += sign * entry.bytes;
      if (entry.finished) figures.finished += sign;
      else figures.openBytes += sign * entry.bytes;
    }
    return usage;
  }
}

function first(order: Set<string>): string | undefined {
  for (const id of order) return id;
  return undefined;
}
