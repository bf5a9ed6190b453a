import fs from 'node:fs';
import path from 'node:path';
import { assertDirectoryOrAbsent, ensureDirectory } from './data-directory.js';
import { writeDocument, type JsonFileStoreFactory } from './json-file-store.js';
import { notMovedText, quarantineFile } from './quarantine.js';
import { errorMessage } from '../core/errors.js';

/** What loading one document ended with. */
export type LoadedDocument =
  { ok: true; id: string; value: unknown } | { ok: false; id: string; reason: string; movedTo: string };

/**
 * A directory of small JSON documents, one per record, each written through the store factory.
 *
 * One file per record keeps the cost of persisting a change independent of how many
 * records are retained: a single-file store rewrites everything on every `set`.
 * Ids must be file-name safe (`[A-Za-z0-9_-]`).
 */
export class DocumentDir {
  readonly dir: string;
  readonly #factory: JsonFileStoreFactory;
  readonly #corruptDir: string;

  constructor(options: { dir: string; corruptDir: string; factory: JsonFileStoreFactory }) {
    this.dir = options.dir;
    this.#corruptDir = options.corruptDir;
    this.#factory = options.factory;
    ensureDirectory(this.dir);
    assertDirectoryOrAbsent(this.#corruptDir);
  }

  /**
   * Writes the whole document for `id`, replacing what was there (an atomic rename) only once the
   * new one is known to be whole: a full disk fails the write and leaves the old one.
   */
  write(id: string, value: Record<string, unknown>): void {
    assertSafeId(id);
    writeDocument(this.#factory, { cwd: this.dir, name: id }, value);
  }

  /** Removes the document for `id`; a missing one is fine. */
  remove(id: string): void {
    assertSafeId(id);
    fs.rmSync(path.join(this.dir, `${id}.json`), { force: true });
  }

  /** Ids of every document in the directory. */
  ids(): string[] {
    return fs
      .readdirSync(this.dir)
      .filter((file) => file.endsWith('.json'))
      .map((file) => file.slice(0, -'.json'.length))
      .filter((id) => SAFE_ID.test(id));
  }

  /** Reads one document. A file that does not parse is moved aside, never deleted. */
  read(id: string): LoadedDocument {
    assertSafeId(id);
    try {
      const value = this.#factory({ cwd: this.dir, name: id }).store;
      return { ok: true, id, value };
    } catch (error) {
      return this.quarantine(id, errorMessage(error));
    }
  }

  /** Moves a document that cannot be used out of the way, keeping its bytes for a person to inspect. */
  quarantine(id: string, reason: string): LoadedDocument & { ok: false } {
    const file = path.join(this.dir, `${id}.json`);
    // Already gone: nothing to keep, and the path it had says which one it was.
    const result = quarantineFile(file, this.#corruptDir, `${path.basename(this.dir)}-${id}`) ?? { movedTo: file };
    return { ok: false, id, reason: `${reason}${notMovedText(result)}`, movedTo: result.movedTo };
  }
}

const SAFE_ID = /^[A-Za-z0-9_-]{1,128}$/;

function assertSafeId(id: string): void {
  if (!SAFE_ID.test(id)) throw new Error(`Not a safe document id: ${JSON.stringify(id)}`);
}
