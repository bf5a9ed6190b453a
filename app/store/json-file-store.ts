import fs from 'node:fs';
import path from 'node:path';
import Conf from 'conf';
import { errorMessage } from '../core/errors.js';

/**
 * One JSON document on disk: the part of electron-store's API the core uses.
 *
 * electron-store is a thin layer over its engine `conf` that only supplies Electron
 * defaults; the core takes a factory for these so that it runs on `conf` under
 * plain Node and on electron-store in the app, over the same files.
 */
export interface JsonFileStore {
  /** Absolute path of the file. */
  readonly path: string;
  /** The whole document. Reading it parses the file; the caller validates the shape. */
  store: Record<string, unknown>;
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  delete(key: string): void;
  clear(): void;
}

/** Options the core opens a store with. */
export interface JsonFileStoreOptions {
  /** Absolute directory of the file. */
  cwd: string;
  /** File name without extension. */
  name: string;
  /**
   * Writes the document as this function's JSON instead of the tab-indented default, for
   * documents only Taskdesk reads (the task store's segments): compact, and without the store's
   * walk of the value before it is written. It must return JSON; the file is read as JSON.
   */
  serialize?: (value: Record<string, unknown>) => string;
  /** The file's mode on every write (0o600 for a document that holds secrets); default the umask's. */
  mode?: number;
}

/** Opens (creating when missing) one JSON document. Throws when the file exists but is not JSON. */
export type JsonFileStoreFactory = (options: JsonFileStoreOptions) => JsonFileStore;

/** The plain-Node factory: electron-store's engine, `conf`, in an absolute directory. */
export const confStoreFactory: JsonFileStoreFactory = ({ cwd, name, serialize, mode }) =>
  new Conf<Record<string, unknown>>({
    cwd,
    configName: name,
    ...(serialize && { serialize }),
    ...(mode !== undefined && { configFileMode: mode }),
    // A corrupt file is moved aside by the caller with a message; conf must not wipe it.
    clearInvalidConfig: false,
    accessPropertiesByDotNotation: false
  });

/** The document layout conf writes without a `serialize` of the caller's: tab-indented JSON. */
const defaultSerialize = (value: Record<string, unknown>): string => JSON.stringify(value, undefined, '\t');

/** A document being written is named this (plus `.json`) until it is known to be whole. */
export const STAGING_SUFFIX = '.partial';

/**
 * Writes a whole document through the factory and proves it landed whole before it takes its name.
 *
 * conf writes with `atomically`, which makes one `write` and ignores how many bytes it took: on a
 * disk that fills up during the write, the kernel takes part of it without an error, and the
 * shortened file is synced and renamed into place as if it were whole (a checkpoint that ends
 * mid-string after a full disk). conf has no option for its writes, so the document is written by
 * conf under a staging name, its size is compared with the bytes serialized, and only a whole
 * one is renamed to its own name; a short one is removed and the write fails with `ENOSPC`. The
 * document a caller had before (a settings file) is never replaced by a short one.
 */
export function writeDocument(
  factory: JsonFileStoreFactory,
  options: JsonFileStoreOptions,
  value: Record<string, unknown>
): void {
  const { cwd, name } = options;
  const serialize = options.serialize ?? defaultSerialize;
  let expected: number | undefined;
  const measured = (doc: Record<string, unknown>): string => {
    const text = serialize(doc);
    expected = Buffer.byteLength(text);
    return text;
  };
  const staged = path.join(cwd, `${name}${STAGING_SUFFIX}.json`);
  // A staging file left by a write that never finished holds nothing anyone was told is stored.
  fs.rmSync(staged, { force: true });
  factory({
    cwd,
    name: `${name}${STAGING_SUFFIX}`,
    serialize: measured,
    ...(options.mode !== undefined && { mode: options.mode })
  }).store = value;
  let size: number;
  try {
    size = fs.statSync(staged).size;
  } catch (error) {
    throw new Error(`The document ${name}.json was not written: ${errorMessage(error)}`, { cause: error });
  }
  if (expected === undefined || size !== expected) {
    fs.rmSync(staged, { force: true });
    throw Object.assign(
      new Error(
        `ENOSPC: the document ${name}.json came up short (${size} of ${expected ?? '?'} bytes reached the disk, which is probably full); it was not used`
      ),
      { code: 'ENOSPC' }
    );
  }
  fs.renameSync(staged, path.join(cwd, `${name}.json`));
}
