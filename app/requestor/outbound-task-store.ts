import type { DocumentDir, LoadedDocument } from '../store/document-dir.js';
import { OutboundTaskDocumentSchema, type OutboundTaskView } from '../contract/outbound-tasks.js';

/**
 * Outbound tasks on disk: one JSON document per task in a `DocumentDir`.
 *
 * Every document is zod-parsed on load against a versioned schema; one that is not JSON
 * or does not match is moved aside (quarantined), never deleted, and reported.
 */
export class OutboundTaskStore {
  readonly #dir: DocumentDir;

  constructor(dir: DocumentDir) {
    this.#dir = dir;
  }

  /** Every stored task that parses, and the documents that were quarantined. */
  loadAll(): { tasks: OutboundTaskView[]; quarantined: Array<LoadedDocument & { ok: false }> } {
    const tasks: OutboundTaskView[] = [];
    const quarantined: Array<LoadedDocument & { ok: false }> = [];
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
      tasks.push(view);
    }
    return { tasks, quarantined };
  }

  /** Writes the whole document for one task. */
  save(task: OutboundTaskView): void {
    this.#dir.write(task.outboundId, { schemaVersion: 1, ...task });
  }

  /** Removes the document of one task. */
  remove(outboundId: string): void {
    this.#dir.remove(outboundId);
  }
}
