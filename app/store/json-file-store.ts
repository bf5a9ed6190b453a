import Conf from 'conf';

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
