import { z } from 'zod';
import { ProtocolEraSchema, type ProtocolEra } from '../contract/common.js';
import type { EraMemory } from '../mcp/server-connection.js';
import type { JsonFileStoreFactory } from '../store/json-file-store.js';
import { openVersionedDocument, type OpenedDocument } from '../store/versioned-document.js';

/**
 * The MCP era each server was last found in (legacy `initialize`, or 2026-07-28), by server
 * identity (id, target and Authorization: see `ownerIdentity`), kept in one small versioned
 * document so that a restart does not probe every legacy server again.
 *
 * The 2026-07-28 versioning page asks clients to cache the era and allows persisting it. Only
 * a hint: a connection that finds otherwise probes and writes the new era. A file that does not
 * parse is moved aside with a warning; every server is then probed once more.
 */
export class ServerEras implements EraMemory {
  readonly warnings: Array<{ message: string; movedTo?: string }> = [];
  readonly #document: OpenedDocument<Record<string, ProtocolEra>>;
  readonly #eras: Record<string, ProtocolEra>;

  constructor(options: { dir: string; corruptDir: string; factory: JsonFileStoreFactory }) {
    this.#document = openVersionedDocument({
      ...options,
      name: 'server-eras',
      label: 'remembered server eras (each server is probed again)',
      version: 1,
      schema: z.record(z.string(), ProtocolEraSchema),
      empty: () => ({})
    });
    if (this.#document.warning) this.warnings.push(this.#document.warning);
    this.#eras = this.#document.value;
  }

  get(identity: string): ProtocolEra | undefined {
    return Object.hasOwn(this.#eras, identity) ? this.#eras[identity] : undefined;
  }

  /** Remembers an era; written only when it changed. A failed write keeps it in memory (written with the next change). */
  set(identity: string, era: ProtocolEra): void {
    if (this.get(identity) === era) return;
    this.#eras[identity] = era;
    this.#save();
  }

  /** Forgets a removed server's era. */
  forget(identity: string): void {
    if (!Object.hasOwn(this.#eras, identity)) return;
    delete this.#eras[identity];
    this.#save();
  }

  #save(): void {
    try {
      this.#document.save({ ...this.#eras });
    } catch {
      // Only a hint: the worst case is one more probe after a restart.
    }
  }
}
