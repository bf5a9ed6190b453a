import { z } from 'zod';
import type { JsonFileStoreFactory } from '../store/json-file-store.js';
import { openVersionedDocument, type OpenedDocument } from '../store/versioned-document.js';

/**
 * The servers the person disconnected (Disconnect on a server's card), by server id, with when:
 * kept in one small versioned document, so that a restart of Taskdesk does not connect them
 * again, whatever their "Connect when Taskdesk starts" says. A server stays here until it is
 * connected again (the person's Connect) or removed.
 *
 * A file that does not parse is moved aside with a warning; every server then connects at start
 * as its setting says, as it did before a Disconnect was remembered.
 */
export class DisconnectedServers {
  readonly warnings: Array<{ message: string; movedTo?: string }> = [];
  readonly #document: OpenedDocument<Array<[string, string]>>;
  readonly #since: Map<string, string>;

  constructor(options: { dir: string; corruptDir: string; factory: JsonFileStoreFactory }) {
    this.#document = openVersionedDocument({
      ...options,
      name: 'disconnected-servers',
      label: 'servers you disconnected (they connect at start as their settings say)',
      version: 1,
      // A list of pairs, not an object (whose `__proto__` key `z.record` would drop): any server id is a plain key.
      schema: z.array(z.tuple([z.string(), z.string()])),
      empty: () => []
    });
    if (this.#document.warning) this.warnings.push(this.#document.warning);
    this.#since = new Map(this.#document.value);
  }

  /** Whether the person disconnected the server, and has not connected it since. */
  has(serverId: string): boolean {
    return this.#since.has(serverId);
  }

  /** The person disconnected the server, at `at` (ISO 8601). */
  add(serverId: string, at: string): void {
    if (this.has(serverId)) return;
    this.#since.set(serverId, at);
    this.#save();
  }

  /** The server is connected again, or removed: it connects at start as its setting says. */
  forget(serverId: string): void {
    if (!this.has(serverId)) return;
    this.#since.delete(serverId);
    this.#save();
  }

  /** Forgets the servers no longer configured (one given by Taskdesk's start options that is not any more). */
  keepOnly(serverIds: ReadonlySet<string>): void {
    const gone = [...this.#since.keys()].filter((serverId) => !serverIds.has(serverId));
    if (gone.length === 0) return;
    for (const serverId of gone) this.#since.delete(serverId);
    this.#save();
  }

  #save(): void {
    try {
      this.#document.save([...this.#since]);
    } catch {
      // Kept in memory for this run (written with the next change): at worst, the server
      // connects at the next start as its setting says, as before a Disconnect was remembered.
    }
  }
}
