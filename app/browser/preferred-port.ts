import { z } from 'zod';
import { errorMessage } from '../core/errors.js';
import type { JsonFileStoreFactory } from '../store/json-file-store.js';
import { openVersionedDocument } from '../store/versioned-document.js';

/**
 * Browser mode's port, remembered in the data directory so that a restart comes back on the same
 * address when it can: a tab left open then reaches the new host at once (with the token kept too,
 * see token-file.ts, it simply reconnects) rather than being left "Reconnecting…" against a port
 * nobody listens on. A launch on a port given (`--port`, 0 included) is remembered as well: the
 * next launch without one comes back on it.
 */
export async function listenOnPreferredPort<T extends { port: number }>(options: {
  dataDir: string;
  corruptDir: string;
  factory: JsonFileStoreFactory;
  /** Starts the server on a port (0: any free one); rejects with `EADDRINUSE` when it is taken. */
  start: (port: number) => Promise<T>;
  /** The port asked for (`--port`; 0: any free one): started on as given, never another. Absent: the remembered one when free. */
  port?: number;
}): Promise<{ server: T; reused: boolean; warning?: string }> {
  const saved = openVersionedDocument({
    dir: options.dataDir,
    corruptDir: options.corruptDir,
    factory: options.factory,
    name: 'browser-mode',
    label: 'browser mode port',
    version: 1,
    schema: z.object({ port: z.number().int().min(1).max(65535) }),
    empty: () => ({ port: 0 })
  });
  const preferred = saved.value.port;
  let server: T | undefined;
  if (options.port !== undefined) server = await options.start(options.port);
  else if (preferred > 0) {
    try {
      server = await options.start(preferred);
    } catch {
      // Taken (EADDRINUSE), or no longer allowed (EACCES: a range Windows reserved since): any free one.
    }
  }
  const reused = options.port === undefined && server !== undefined;
  server ??= await options.start(0);
  let warning = saved.warning?.message;
  if (server.port !== preferred) {
    try {
      saved.save({ port: server.port });
    } catch (error) {
      // A data directory that cannot be written: this launch runs; the next picks a port anew.
      warning = `The browser mode port could not be remembered (${errorMessage(error)})`;
    }
  }
  return { server, reused, ...(warning && { warning }) };
}
