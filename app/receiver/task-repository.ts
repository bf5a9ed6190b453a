import { notMovedText, quarantineCopy } from '../store/quarantine.js';
import type { SegmentLog } from '../store/segment-log.js';
import { copyRecord, parseTaskRecord, type TaskRecord } from './task-record.js';
import { isTerminal } from './task-state.js';

/** What loading the stored tasks found. */
export interface LoadReport {
  loaded: number;
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

  constructor(log: SegmentLog<TaskRecord>, corruptDir: string) {
    this.#log = log;
    this.#corruptDir = corruptDir;
  }

  /** Reads every stored task into memory. Data that does not parse is moved aside and reported. */
  load(): LoadReport {
    const result = this.#log.load(parseTaskRecord);
    const report: LoadReport = { loaded: 0, quarantined: [...result.quarantined] };
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
    for (const record of loaded) {
      this.#index(record);
      this.#committed.set(record.task.taskId, record);
    }
    report.loaded = loaded.length;
    return report;
  }

  /**
   * Stores a record (new or changed); resolves when it is on disk.
   *
   * The repository keeps `record` itself, not a copy: each version is a new object (the receiver
   * builds the next version from the last one and never changes one it has saved), and the
   * parts versions share are never changed. `get` and `all` hand out copies.
   *
   * `urgent` when a reply waits on it (a CreateTaskResult, a tasks/cancel answer); other
   * changes may wait a few milliseconds to share a commit.
   */
  save(record: TaskRecord, urgent = true): Promise<void> {
    this.#index(record);
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

  #unindex(taskId: string): void {
    const record = this.#records.get(taskId);
    this.#committed.delete(taskId);
    if (!record) return;
    this.#records.delete(taskId);
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
    if (isTerminal(record.task.status)) active.delete(record.task.taskId);
    else active.add(record.task.taskId);
  }
}
