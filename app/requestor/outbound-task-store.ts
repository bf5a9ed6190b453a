import type { DocumentDir, LoadedDocument } from '../store/document-dir.js';
import type { SegmentLog } from '../store/segment-log.js';
import { errorMessage } from '../core/errors.js';
import { maskSecrets } from '../core/secret-mask.js';
import { OutboundTaskDocumentSchema, type OutboundTaskView } from '../contract/outbound-tasks.js';

/** One stored outbound task, as it is written (versioned). */
export type OutboundTaskDocument = OutboundTaskView & { schemaVersion: 1 };

/**
 * Outbound tasks on disk.
 *
 * With a `SegmentLog` (the host's choice), each change is a line in its journal, made durable by
 * one fdatasync shared with every change of the same moment: a thousand tasks changing together
 * cost a few syncs, where one document per task costs a thousand fsync'd file writes and renames.
 * Without one (tests), one JSON document per task in a `DocumentDir`. Documents found in the
 * directory (written by an earlier build) are loaded, moved into the log, and removed once the
 * log holds them.
 *
 * Every record is zod-parsed on load against a versioned schema; a document that is not JSON or
 * does not match is moved aside (quarantined), never deleted, and reported; a log record that does
 * not match is reported and left out.
 */
export class OutboundTaskStore {
  readonly #dir: DocumentDir;
  readonly #log: SegmentLog<OutboundTaskDocument> | undefined;
  readonly #failed: (outboundId: string, error: unknown) => void;
  readonly #secretValues: () => Iterable<string>;

  /**
   * `failed` hears of a log write that did not become durable (the caller writes that task again).
   * `secretValues` are the values Taskdesk holds as secrets, read at each write.
   */
  constructor(
    dir: DocumentDir,
    log?: SegmentLog<OutboundTaskDocument>,
    failed: (outboundId: string, error: unknown) => void = () => undefined,
    secretValues: () => Iterable<string> = () => []
  ) {
    this.#dir = dir;
    this.#log = log;
    this.#failed = failed;
    this.#secretValues = secretValues;
  }

  /** Every stored task that parses, and the records that were quarantined or refused. */
  loadAll(): { tasks: OutboundTaskView[]; quarantined: Array<LoadedDocument & { ok: false }> } {
    const byId = new Map<string, OutboundTaskView>();
    const quarantined: Array<LoadedDocument & { ok: false }> = [];
    const documents: string[] = [];
    for (const id of this.#dir.ids()) {
      const loaded = this.#dir.read(id);
      if (!loaded.ok) {
        quarantined.push(loaded);
        continue;
      }
      const parsed = OutboundTaskDocumentSchema.safeParse(loaded.value);
      if (!parsed.success) {
        quarantined.push(this.#dir.quarantine(id, `not an outbound task document: ${parsed.error.message}`));
        continue;
      }
      if (parsed.data.outboundId !== id) {
        quarantined.push(
          this.#dir.quarantine(id, `document names outbound task ${parsed.data.outboundId}, file is ${id}`)
        );
        continue;
      }
      const { schemaVersion: _version, ...view } = parsed.data;
      byId.set(id, view);
      documents.push(id);
    }
    if (this.#log) {
      const report = this.#log.load((value) => OutboundTaskDocumentSchema.parse(value));
      for (const { id, reason, movedTo } of report.quarantined) quarantined.push({ ok: false, id, reason, movedTo });
      for (const { id, reason } of report.rejected)
        quarantined.push({ ok: false, id, reason: `not an outbound task record: ${reason}`, movedTo: this.#dir.dir });
      for (const [id, record] of report.records) {
        const { schemaVersion: _version, ...view } = record;
        byId.set(id, view);
      }
      // Documents of an earlier build move into the log; each file goes once the log holds it.
      // A removal refused (a file held open on Windows) leaves it for the next start, where the
      // log's copy wins over it.
      const removeQuietly = (id: string) => {
        try {
          this.#dir.remove(id);
        } catch {
          // Kept until the next start.
        }
      };
      for (const id of documents) {
        const view = byId.get(id);
        if (view && !report.records.has(id))
          void this.#log.put(id, { schemaVersion: 1, ...view }).then(
            () => removeQuietly(id),
            () => undefined
          );
        else removeQuietly(id);
      }
    }
    return { tasks: [...byId.values()], quarantined };
  }

  /**
   * Writes the whole record of one task (with a log: durable shortly after, shared with other
   * changes). Throws when a document of the earlier layout cannot be written; with a log, the
   * returned promise resolves once the record is durable, or once its commit failed (reported
   * through the store's error callback): it never rejects.
   *
   * `waited` says someone waits for the record to be durable (a new task, before its call
   * returns): it is committed at the end of this turn. Other changes (a status, a result, which
   * the server still holds) may wait the log's few milliseconds to share the next commit.
   */
  save(given: OutboundTaskView, waited = true): Promise<void> {
    // The outcome as written: a result that repeats a credential back has it masked on disk. The
    // live task keeps it (the person's own screen); after a restart Tasks shows the mask. Only
    // the outcome: that is what a server sends back; the arguments are what Taskdesk sent.
    const task =
      given.outcome === undefined ? given : { ...given, outcome: maskSecrets(given.outcome, this.#secretValues()) };
    if (!this.#log) {
      this.#dir.write(task.outboundId, { schemaVersion: 1, ...task });
      return Promise.resolve();
    }
    return this.#log
      .put(task.outboundId, { schemaVersion: 1, ...task }, waited)
      .catch((error: unknown) => this.#failed(task.outboundId, new Error(errorMessage(error), { cause: error })));
  }

  /** Removes the record of one task. */
  remove(outboundId: string): void {
    this.#dir.remove(outboundId);
    void this.#log?.delete(outboundId).catch((error: unknown) => this.#failed(outboundId, error));
  }

  /** Writes what is pending and releases the log. */
  close(): void {
    this.#log?.close();
  }
}
