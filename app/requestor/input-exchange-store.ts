import type { DocumentDir, LoadedDocument } from '../store/document-dir.js';
import { InputExchangeDocumentSchema, type InputExchangeView } from '../contract/input-exchanges.js';

/**
 * Multi round-trip requests on disk: one JSON document per exchange in a `DocumentDir`.
 *
 * Every document is zod-parsed on load against a versioned schema; one that is not JSON or
 * does not match is moved aside (quarantined), never deleted, and reported.
 */
export class InputExchangeStore {
  readonly #dir: DocumentDir;

  constructor(dir: DocumentDir) {
    this.#dir = dir;
  }

  /** Every stored exchange that parses, and the documents that were quarantined. */
  loadAll(): { exchanges: InputExchangeView[]; quarantined: Array<LoadedDocument & { ok: false }> } {
    const exchanges: InputExchangeView[] = [];
    const quarantined: Array<LoadedDocument & { ok: false }> = [];
    for (const id of this.#dir.ids()) {
      const loaded = this.#dir.read(id);
      if (!loaded.ok) {
        quarantined.push(loaded);
        continue;
      }
      const parsed = InputExchangeDocumentSchema.safeParse(loaded.value);
      if (!parsed.success || parsed.data.exchangeId !== id) {
        quarantined.push(
          this.#dir.quarantine(
            id,
            parsed.success
              ? `document names exchange ${parsed.data.exchangeId}, file is ${id}`
              : `not an exchange document: ${parsed.error.message}`
          )
        );
        continue;
      }
      const { schemaVersion: _version, ...view } = parsed.data;
      exchanges.push(view);
    }
    return { exchanges, quarantined };
  }

  /** Writes the whole document of one exchange. */
  save(view: InputExchangeView): void {
    this.#dir.write(view.exchangeId, { schemaVersion: 1, ...view });
  }

  remove(exchangeId: string): void {
    this.#dir.remove(exchangeId);
  }
}
