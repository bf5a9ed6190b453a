import ElectronStore from 'electron-store';
import type { JsonFileStore, JsonFileStoreFactory } from '../app/store/json-file-store.js';
import { writesLikeConf } from '../app/store/segment-log.js';

/**
 * The core's store factory on electron-store: the same files `conf` writes under plain Node,
 * with Electron's defaults. Options match `confStoreFactory` so both read each other's files,
 * and the task store may write its checkpoints through conf in a worker thread (Electron's
 * modules are not there), where they hold no event loop.
 */
export const electronStoreFactory: JsonFileStoreFactory = writesLikeConf(
  ({ cwd, name, serialize, mode }): JsonFileStore =>
    new ElectronStore<Record<string, unknown>>({
      cwd,
      name,
      ...(serialize && { serialize }),
      ...(mode !== undefined && { configFileMode: mode }),
      // A corrupt file is moved aside by the core with a message; the store must not wipe it.
      clearInvalidConfig: false,
      accessPropertiesByDotNotation: false
    })
);
