import { partText } from '../store/json-text.js';
import { notMovedText, quarantineCopy } from '../store/quarantine.js';
import type { SegmentLog } from '../store/segment-log.js';
import { copyRecord, parseTaskRecord, type TaskRecord } from './task-record.js';
import { isTerminal } from './received-task-state.js';
import { TaskUsage, type StorageBounds, type UsageFigures } from './task-usage.js';

/** What loading the stored tasks found. */
export interface LoadReport {
  loaded: number;
  /**
   * Finished tasks dropped while loading because the store held more than the bounds allow
   * (oldest finished first); the caller deletes them from disk and records their expiry.
   */
  evicted: Array<Pick<TaskRecord, 'owner'> & { taskId: string; status: TaskRecord['task']['status'] }>;
  /** The most the repository held at once while loading (after a document was read, before the bounds were applied). */
  peak: Pick<UsageFigures, 'tasks' | 'bytes'>;
  /** Stored data that did not parse, moved aside (a whole segment, or one record). */
  quarantined: Array<{ id: string; reason: string; movedTo: string }>;
}

/**
 * The receiver's tasks: an in-memory index over a durable segment log.
 *
 * `save` and `remove` change memory at once and resolve when the change is on disk; the
 * receiver waits for that before it answers or notifies anyone, so an acknowledged task or an
 * announced transition survives a crash. Reads return copies.
 */
export class TaskRepository {
  readonly #log: SegmentLog<TaskRecord>;
  readonly #corruptDir: string;
  /** The latest version of each record, durable or not: what the receiver decides on. */
  readonly #records = new Map<string, TaskRecord>();
  /** The latest version known to be on disk: all a server may read. */
  readonly #committed = new Map<string, TaskRecord>();
  /** Task ids per owner identity, in creation order. */
  readonly #byOwner = new Map<string, Set<string>>();
  /** Non-terminal task ids per owner identity, for the open-task cap. */
  readonly #active = new Map<string, Set<string>>();
  /** Bytes and finished tasks held, per owner and in total, for the storage bounds. */
  readonly #usage = new TaskUsage();
  readonly #bounds: StorageBounds | undefined;

  /** With `bounds`, a load keeps no more than they allow (see `load`); without, it keeps everything. */
  constructor(log: SegmentLog<TaskRecord>, corruptDir: string, bounds?: StorageBounds) {
    this.#log = log;
    this.#corruptDir = corruptDir;
    this.#bounds = bounds;
  }

  /**
   * Reads the stored tasks into memory. Data that does not parse is moved aside and reported.
   *
   * The bounds are applied as each stored document is read: whenever what is held goes above
   * them, the oldest finished tasks are dropped (and reported as `evicted`), so a directory that
   * holds more than the bounds never has to fit in memory at once.
   */
  load(): LoadReport {
    const evicted = new Map<string, LoadReport['evicted'][number]>();
    const peak = { tasks: 0, bytes: 0 };
    const bounds = this.#bounds;
    const byAge = (a: string, b: string) => finishedOrder(this.#records.get(a)!, this.#records.get(b)!);
    const result = this.#log.load(parseTaskRecord, {
      changed: (id, record) => {
        if (record) this.#index(record);
        else {
          this.#unindex(id);
          // Dropped, then found deleted on disk: it had already gone, nothing to expire.
          evicted.delete(id);
        }
      },
      drop: function* (this: TaskRepository) {
        const held = this.#usage.of();
        peak.tasks = Math.max(peak.tasks, held.tasks);
        peak.bytes = Math.max(peak.bytes, held.bytes);
        if (!bounds || this.nextEviction(bounds) === undefined) return;
        // Documents are not always in the order tasks finished (a compaction writes them in
        // creation order): oldest first by when they finished. Nearly sorted, so this is cheap.
        this.#usage.reorder(byAge);
        for (let id = this.nextEviction(bounds); id !== undefined; id = this.nextEviction(bounds)) {
          const record = this.#records.get(id)!;
          evicted.set(id, { taskId: id, owner: record.owner, status: record.task.status });
          this.#unindex(id);
          yield id;
        }
      }.bind(this)
    });
    const report: LoadReport = {
      loaded: 0,
      evicted: [...evicted.values()],
      peak,
      quarantined: [...result.quarantined]
    };
    for (const { id, reason, value } of result.rejected) {
      const kept = quarantineCopy(this.#corruptDir, `task-${id}`, '.json', JSON.stringify(value, null, 2));
      report.quarantined.push({ id, reason: `${reason}${notMovedText(kept)}`, movedTo: kept.movedTo });
      // Its latest version is unusable: deleted once a copy is kept (never a record that loaded).
      if (kept.notMoved === undefined && !result.records.has(id)) void this.#log.delete(id).catch(() => undefined);
    }
    const loaded = [...result.records.values()].sort(
      (a, b) =>
        a.sequence - b.sequence ||
        a.task.createdAt.localeCompare(b.task.createdAt) ||
        a.task.taskId.localeCompare(b.task.taskId)
    );
    // The indexes were filled in file order as the load went: put them in creation order.
    this.#records.clear();
    this.#byOwner.clear();
    this.#active.clear();
    for (const record of loaded) {
      this.#index(record);
      this.#committed.set(record.task.taskId, record);
    }
    this.#usage.reorder(byAge);
    report.loaded = loaded.length;
    return report;
  }

  /**
   * Stores a record (new or changed); resolves when it is on disk.
   *
   * The repository keeps `record` itself, not a copy: each version is a new object (the receiver
   * builds the next version from the last one and never changes one it has saved), and the
   * parts versions share are never changed: their JSON is made once, and a status change
   * serializes only the small rest. `get` and `all` hand out copies.
   *
   * `urgent` when a reply waits on it (a CreateTaskResult, a tasks/cancel answer); other
   * changes may wait a few milliseconds to share a commit.
   */
  save(record: TaskRecord, urgent = true): Promise<void> {
    this.#index(record);
    // The large parts that versions share are serialized once, for all of them (see `partText`).
    partText(record.request);
    if (record.outcome) partText(record.outcome);
    return this.#log.put(record.task.taskId, record, urgent).then(() => {
      // Successful commits resolve in commit order, so the newest durable version is the last one
      // to land here (a failed write may be refused earlier, but never lands); a record removed
      // meanwhile stays removed.
      if (this.#records.has(record.task.taskId)) this.#committed.set(record.task.taskId, record);
    });
  }

  /** Drops a record from memory only: its first write failed, so it never existed on disk. */
  discard(taskId: string): void {
    this.#unindex(taskId);
  }

  /** Removes a record; resolves when the removal is on disk. */
  remove(taskId: string): Promise<void> {
    this.#unindex(taskId);
    return this.#log.delete(taskId);
  }

  /** A copy of one record. */
  get(taskId: string): TaskRecord | undefined {
    const record = this.#records.get(taskId);
    return record && copyRecord(record);
  }

  /** The latest record itself, for read-only checks on hot paths. Never mutate it. */
  peek(taskId: string): Readonly<TaskRecord> | undefined {
    return this.#records.get(taskId);
  }

  /** The latest version of a record that is on disk. Never mutate it. */
  peekCommitted(taskId: string): Readonly<TaskRecord> | undefined {
    return this.#committed.get(taskId);
  }

  /** Ids of an owner's tasks in creation order. */
  idsOf(identity: string): string[] {
    return [...(this.#byOwner.get(identity) ?? [])];
  }

  /** How many of an owner's tasks are not terminal (kept up to date on every save). */
  activeCount(identity: string): number {
    return this.#active.get(identity)?.size ?? 0;
  }

  /** Copies of every record. */
  all(): TaskRecord[] {
    return [...this.#records.values()].map(copyRecord);
  }

  /** Writes pending changes now, instead of at the end of this turn. */
  flush(): void {
    this.#log.flushNow();
  }

  /** Writes everything and releases open files (shutdown). */
  close(): void {
    this.#log.close();
  }

  get size(): number {
    return this.#records.size;
  }

  /** What the repository holds for one owner identity, or in total: the figures the bounds are checked on. */
  usage(identity?: string): UsageFigures {
    return this.#usage.of(identity);
  }

  /**
   * The finished task to remove next so that `bounds` hold (checking `identity`'s own bounds and
   * the totals; every owner's when absent), or undefined when they hold. See `TaskUsage`.
   */
  nextEviction(bounds: StorageBounds, identity?: string): string | undefined {
    return this.#usage.nextEviction(bounds, identity);
  }

  /** The latest version of every record, without copies, for summaries. Never mutate them. */
  *peekAll(): IterableIterator<Readonly<TaskRecord>> {
    yield* this.#records.values();
  }

  #unindex(taskId: string): void {
    const record = this.#records.get(taskId);
    this.#committed.delete(taskId);
    if (!record) return;
    this.#records.delete(taskId);
    this.#usage.delete(taskId);
    const owned = this.#byOwner.get(record.owner.identity);
    owned?.delete(taskId);
    if (owned?.size === 0) this.#byOwner.delete(record.owner.identity);
    this.#active.get(record.owner.identity)?.delete(taskId);
  }

  #index(record: TaskRecord): void {
    this.#records.set(record.task.taskId, record);
    let owned = this.#byOwner.get(record.owner.identity);
    if (!owned) this.#byOwner.set(record.owner.identity, (owned = new Set()));
    owned.add(record.task.taskId);
    let active = this.#active.get(record.owner.identity);
    if (!active) this.#active.set(record.owner.identity, (active = new Set()));
    const finished = isTerminal(record.task.status);
    if (finished) active.delete(record.task.taskId);
    else active.add(record.task.taskId);
    this.#usage.set(record.task.taskId, record.owner.identity, recordBytes(record), finished);
  }
}

/** Oldest finished first: by when it finished, then by creation. */
function finishedOrder(a: Readonly<TaskRecord>, b: Readonly<TaskRecord>): number {
  const at = a.task.lastUpdatedAt;
  const bt = b.task.lastUpdatedAt;
  // ISO times of one format: compared as strings, without a locale.
  return at < bt ? -1 : at > bt ? 1 : a.sequence - b.sequence;
}

/** Sizes of the large parts of records, by object: versions of a record share them. */
const partBytes = new WeakMap<object, number>();

/** About the bytes of `value`'s JSON (see `jsonSize`), measured once per object. */
export function partSize(value: unknown): number {
  if (value === undefined) return 0;
  if (typeof value !== 'object' || value === null) return jsonSize(value);
  let bytes = partBytes.get(value);
  if (bytes === undefined) partBytes.set(value, (bytes = jsonSize(value)));
  return bytes;
}

/**
 * The length of `value`'s JSON, counted from its parts instead of serializing it: a string
 * counts its length (no escapes, one byte a character), so a megabyte string costs nothing to
 * measure. Close to the bytes stored, and to the heap a record takes.
 */
function jsonSize(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return value.length + 2;
    case 'number':
    case 'boolean':
      return String(value).length;
    case 'object': {
      if (value === null) return 4;
      let size = 2;
      if (Array.isArray(value)) {
        for (const item of value as unknown[]) size += (item === undefined ? 4 : jsonSize(item)) + 1;
        return size;
      }
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        const item = (value as Record<string, unknown>)[key];
        if (item !== undefined && typeof item !== 'function') size += key.length + 4 + jsonSize(item);
      }
      return size;
    }
    case 'undefined':
    case 'function':
    case 'symbol':
    case 'bigint':
      // Left out of JSON (a bigint cannot be stored at all: the store refuses it).
      return 0;
  }
}

/**
 * About the bytes of JSON a record is stored as: its request, outcome and notes (measured once
 * each, as versions share them) and the small rest, measured on every version.
 */
export function recordBytes(record: Readonly<TaskRecord>): number {
  const { request, outcome, notes, ...rest } = record;
  return partSize(request) + partSize(outcome) + partSize(notes) + jsonSize(rest) + 40;
}
