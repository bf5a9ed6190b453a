import path from 'node:path';
import { z } from 'zod';
import { writeDocument, type JsonFileStoreFactory } from './json-file-store.js';
import { notMovedText, quarantineFile } from './quarantine.js';
import { errorMessage } from '../core/errors.js';

/** A settings document as it was read: its value, and a warning when the file could not be used. */
export interface OpenedDocument<T> {
  value: T;
  /** Whether a value had ever been saved (the file held one, even one moved aside). */
  existed: boolean;
  warning?: { message: string; movedTo: string };
  /** Replaces the stored value (one atomic write; on a full disk it throws and the old value stays). */
  save(value: T): void;
}

/**
 * Opens one small settings document (`{ schemaVersion, value }`) through the store factory.
 *
 * The value is parsed with `schema`. A file that is not JSON, has another version, or does not
 * match is moved to `corruptDir` with a warning naming `label`, and the document starts empty;
 * nothing is deleted.
 */
export function openVersionedDocument<T>(options: {
  dir: string;
  corruptDir: string;
  factory: JsonFileStoreFactory;
  name: string;
  label: string;
  version: number;
  schema: z.ZodType<T>;
  empty: () => T;
  /** The file's mode on every write (0o600 for secrets); see `JsonFileStoreOptions.mode`. */
  mode?: number;
}): OpenedDocument<T> {
  let value: T = options.empty();
  let warning: OpenedDocument<T>['warning'];
  let existed = false;
  try {
    const raw = options.factory({ cwd: options.dir, name: options.name }).store;
    if (Object.keys(raw).length > 0) {
      existed = true;
      if (raw.schemaVersion !== options.version)
        throw new Error(`unsupported version ${JSON.stringify(raw.schemaVersion)}`);
      const parsed = options.schema.safeParse(raw.value);
      if (!parsed.success) throw new Error(z.prettifyError(parsed.error));
      value = parsed.data;
    }
  } catch (error) {
    // A file that is there but unreadable was saved once too.
    existed = true;
    const file = path.join(options.dir, `${options.name}.json`);
    const result = quarantineFile(file, options.corruptDir, options.name) ?? { movedTo: file };
    warning = {
      message: `The saved ${options.label} could not be read and was moved aside (${errorMessage(error)})${notMovedText(result)}`,
      movedTo: result.movedTo
    };
  }
  const opened: OpenedDocument<T> = {
    value,
    existed,
    ...(warning && { warning }),
    save: (next) => {
      writeDocument(
        options.factory,
        { cwd: options.dir, name: options.name, ...(options.mode !== undefined && { mode: options.mode }) },
        { schemaVersion: options.version, value: next }
      );
      opened.existed = true;
    }
  };
  return opened;
}
