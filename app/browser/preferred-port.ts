import { z } from 'zod';
import type { JsonFileStoreFactory } from '../store/json-file-store.js';
import { openVersionedDocument } from '../store/versioned-document.js';

/**
 * Browser mode's port, remembered in the data directory so that a restart comes back on the same
 * address when it can: a tab left open then reaches the new host at once, and is told its token
 * is out of date rather than left "Reconnecting…" against a port nobody listens on.
 */
export async function listenOnPreferredPort<T extends { port: number }>(options: {
  dataDir: string;
  corruptDir: string;
  factory: JsonFileStoreFactory;
  /** Starts the server on a port (0: any free one); rejects with `EADDRINUSE` when it is taken. */
  start: (port: number) => Promise<T>;
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
  if (preferred > 0) {
    try {
      server = await options.start(preferred);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    }
  }
  const reused = server !== undefined;
  server ??= await options.start(0);
  if (server.port !== preferred) saved.save({ port: server.port });
  return { server, reused, ...(saved.warning && { warning: saved.warning.message }) };
}
