import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ServerConfigSchema, type ServerConfig, type ServerConfigInput } from '../contract/host-api.js';
import { HostError, JsonRpcCode } from '../core/errors.js';
import type { JsonFileStore, JsonFileStoreFactory } from '../store/json-file-store.js';

const SERVERS_VERSION = 1;
const StoredServersSchema = z.object({
  schemaVersion: z.literal(SERVERS_VERSION),
  servers: z.array(ServerConfigSchema)
});

/**
 * The configured servers: the saved list (one versioned document) plus servers given by the
 * host's config, which win over a saved one with the same id and are not written back.
 *
 * A saved list that does not parse is moved aside with a warning; the host starts without it.
 */
export class ServerRegistry {
  readonly warnings: Array<{ message: string; movedTo?: string }> = [];
  readonly #saved: ServerConfig[];
  readonly #extra: ServerConfig[];
  readonly #store: JsonFileStore;

  constructor(options: { dir: string; corruptDir: string; factory: JsonFileStoreFactory; extra: ServerConfigInput[] }) {
    this.#extra = options.extra.map((config) => ServerConfigSchema.parse(config));
    const open = () => options.factory({ cwd: options.dir, name: 'servers' });
    let store: JsonFileStore;
    let saved: ServerConfig[] = [];
    try {
      store = open();
      const raw = store.store;
      if (Object.keys(raw).length > 0) {
        const parsed = StoredServersSchema.safeParse(raw);
        if (!parsed.success) throw new Error(z.prettifyError(parsed.error));
        saved = parsed.data.servers;
      }
    } catch (error) {
      const movedTo = path.join(options.corruptDir, `servers-${Date.now()}.json`);
      fs.mkdirSync(options.corruptDir, { recursive: true });
      try {
        fs.renameSync(path.join(options.dir, 'servers.json'), movedTo);
      } catch {
        // Nothing to move.
      }
      this.warnings.push({
        message: `The saved server list could not be read and was moved aside; add the servers again. (${error instanceof Error ? error.message : String(error)})`,
        movedTo
      });
      store = open();
    }
    this.#store = store;
    this.#saved = saved;
  }

  list(): ServerConfig[] {
    const byId = new Map<string, ServerConfig>();
    for (const config of this.#saved) byId.set(config.id, config);
    for (const config of this.#extra) byId.set(config.id, config);
    return [...byId.values()].map((config) => structuredClone(config));
  }

  get(serverId: string): ServerConfig | undefined {
    return this.list().find((config) => config.id === serverId);
  }

  /** Saves a new server; an id already in use is −32602. */
  add(input: ServerConfigInput): ServerConfig {
    const config = ServerConfigSchema.parse(input);
    if (this.get(config.id)) throw new HostError(JsonRpcCode.InvalidParams, `A server with id ${config.id} already exists`);
    this.#saved.push(config);
    this.#write();
    return structuredClone(config);
  }

  /** Forgets a saved server. */
  remove(serverId: string): void {
    const index = this.#saved.findIndex((config) => config.id === serverId);
    if (index < 0) throw new HostError(JsonRpcCode.InvalidParams, `No saved server ${serverId}`);
    this.#saved.splice(index, 1);
    this.#write();
  }

  #write(): void {
    this.#store.store = { schemaVersion: SERVERS_VERSION, servers: this.#saved };
  }
}
