import type { DocumentDir } from '../store/document-dir.js';
import { copyRecord, parseTaskRecord, type TaskRecord } from './task-record.js';

/** What loading the stored tasks found. */
export interface LoadReport {
  loaded: number;
  /** Files that did not parse, moved aside. */
  quarantined: Array<{ id: string; reason: string; movedTo: string }>;
}

/**
 * The receiver's tasks: an in-memory index over one persisted document per task.
 *
 * Every change is written to disk (synchronously, by atomic rename) before the caller
 * goes on to answer or notify anyone, so an acknowledged task survives a crash.
 * Reads return copies.
 */
export class TaskRepository {
  readonly #docs: DocumentDir;
  readonly #records = new Map<string, TaskRecord>();
  /** Task ids per owner identity, in creation order. */
  readonly #byOwner = new Map<string, Set<string>>();

  constructor(docs: DocumentDir) {
    this.#docs = docs;
  }

  /** Reads every stored task into memory. Corrupt files are moved aside and reported. */
  load(): LoadReport {
    const report: LoadReport = { loaded: 0, quarantined: [] };
    const loaded: TaskRecord[] = [];
    for (const id of this.#docs.ids()) {
      const doc = this.#docs.read(id);
      if (!doc.ok) {
        report.quarantined.push({ id, reason: doc.reason, movedTo: doc.movedTo });
        continue;
      }
      try {
        const record = parseTaskRecord(doc.value);
        if (record.task.taskId !== id) throw new Error(`File ${id} holds task ${record.task.taskId}`);
        loaded.push(record);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        const moved = this.#docs.quarantine(id, reason);
        report.quarantined.push({ id, reason, movedTo: moved.movedTo });
      }
    }
    loaded.sort((a, b) => a.task.createdAt.localeCompare(b.task.createdAt) || a.task.taskId.localeCompare(b.task.taskId));
    for (const record of loaded) this.#index(record);
    report.loaded = loaded.length;
    return report;
  }

  /** Stores a record (new or changed) on disk, then in memory. */
  save(record: TaskRecord): void {
    this.#docs.write(record.task.taskId, record as unknown as Record<string, unknown>);
    this.#index(copyRecord(record));
  }

  /** Removes a record from disk and memory. */
  remove(taskId: string): void {
    const record = this.#records.get(taskId);
    this.#docs.remove(taskId);
    if (!record) return;
    this.#records.delete(taskId);
    const owned = this.#byOwner.get(record.owner.identity);
    owned?.delete(taskId);
    if (owned?.size === 0) this.#byOwner.delete(record.owner.identity);
  }

  /** A copy of one record. */
  get(taskId: string): TaskRecord | undefined {
    const record = this.#records.get(taskId);
    return record && copyRecord(record);
  }

  /** Ids of an owner's tasks in creation order. */
  idsOf(identity: string): string[] {
    return [...(this.#byOwner.get(identity) ?? [])];
  }

  /** How many of an owner's tasks satisfy `predicate`, without copying. */
  countOf(identity: string, predicate: (record: Readonly<TaskRecord>) => boolean): number {
    let count = 0;
    for (const id of this.#byOwner.get(identity) ?? []) {
      const record = this.#records.get(id);
      if (record && predicate(record)) count++;
    }
    return count;
  }

  /** Copies of every record, in creation order per owner. */
  all(): TaskRecord[] {
    return [...this.#records.values()].map(copyRecord);
  }

  get size(): number {
    return this.#records.size;
  }

  #index(record: TaskRecord): void {
    this.#records.set(record.task.taskId, record);
    let owned = this.#byOwner.get(record.owner.identity);
    if (!owned) this.#byOwner.set(record.owner.identity, (owned = new Set()));
    owned.add(record.task.taskId);
  }
}
