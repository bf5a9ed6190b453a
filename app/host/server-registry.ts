import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ServerConfigSchema, type ServerConfig, type ServerConfigInput } from '../contract/host-api.js';
import { HostError, JsonRpcCode } from '../core/errors.js';
import type { JsonFileStoreFactory } from '../store/json-file-store.js';
import { openVersionedDocument, type OpenedDocument } from '../store/versioned-document.js';

/**
 * The configured servers: the saved list (one versioned document) plus servers given by the
 * host's config, which win over a saved one with the same id and are not written back.
 *
 * A saved list that does not parse is moved aside with a warning; the host starts without it.
 *
 * The list holds what servers are started and reached with: env values, arguments, URLs and
 * headers, any of which may be a credential. The file is written with mode 0600 (its owner
 * only), and one an older build left readable by others is narrowed to that on start.
 */
export class ServerRegistry {
  readonly warnings: Array<{ message: string; movedTo?: string }> = [];
  readonly #document: OpenedDocument<ServerConfig[]>;
  readonly #saved: ServerConfig[];
  readonly #extra: ServerConfig[];

  readonly #now: () => number;

  /** `now`: the time a new server is saved with (`addedAt`). */
  constructor(options: {
    dir: string;
    corruptDir: string;
    factory: JsonFileStoreFactory;
    extra: ServerConfigInput[];
    now: () => number;
  }) {
    this.#now = options.now;
    this.#extra = options.extra.map((config) => {
      const { addedAt: _notAdded, addedBy: _notBy, ...given } = ServerConfigSchema.parse(config);
      return given;
    });
    const narrowed = narrowToOwner(path.join(options.dir, 'servers.json'));
    if (narrowed) this.warnings.push({ message: narrowed });
    this.#document = openVersionedDocument({
      ...options,
      mode: SECRET_FILE_MODE,
      name: 'servers',
      label: 'server list (add the servers again)',
      version: 1,
      schema: z.array(ServerConfigSchema),
      empty: () => []
    });
    if (this.#document.warning) this.warnings.push(this.#document.warning);
    this.#saved = this.#document.value;
  }

  /** Whether a server list was ever saved here (false on a first launch). */
  get everSaved(): boolean {
    return this.#document.existed;
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

  /**
   * Saves a new server, dated now (`addedAt`), and marked `addedBy: 'taskdesk'` when Taskdesk adds
   * it of its own accord (`byTaskdesk`); an id already in use is −32602.
   */
  add(input: ServerConfigInput, options: { byTaskdesk?: boolean } = {}): ServerConfig {
    const { addedBy: _given, ...parsed } = ServerConfigSchema.parse(input);
    const config: ServerConfig = {
      ...parsed,
      addedAt: new Date(this.#now()).toISOString(),
      ...(options.byTaskdesk === true && { addedBy: 'taskdesk' as const })
    };
    const taken = this.get(config.id);
    if (taken) {
      const message = `Id already used by ${taken.name}: choose another, or edit that server.`;
      throw new HostError(JsonRpcCode.InvalidParams, message, { fields: { id: message } });
    }
    // On disk first: a failed write leaves memory as it was, and the caller gets the error.
    this.#document.save([...this.#saved, config]);
    this.#saved.push(config);
    return structuredClone(config);
  }

  /** Whether a server is in the saved list (not only given by the host's config, which wins). */
  isSaved(serverId: string): boolean {
    return (
      this.#saved.some((config) => config.id === serverId) && !this.#extra.some((config) => config.id === serverId)
    );
  }

  /** Replaces a saved server's config (same id). */
  update(input: ServerConfigInput): ServerConfig {
    const { addedAt: _given, addedBy: _givenBy, ...parsed } = ServerConfigSchema.parse(input);
    const index = this.#saved.findIndex((saved) => saved.id === parsed.id);
    if (index < 0) throw new HostError(JsonRpcCode.InvalidParams, `No saved server ${parsed.id}`);
    // When it was added, and by whom, are no settings: kept as they were saved.
    const { addedAt, addedBy } = this.#saved[index]!;
    const config: ServerConfig = {
      ...parsed,
      ...(addedAt !== undefined && { addedAt }),
      ...(addedBy !== undefined && { addedBy })
    };
    const next = this.#saved.map((saved, at) => (at === index ? config : saved));
    this.#document.save(next);
    this.#saved.splice(index, 1, config);
    return structuredClone(config);
  }

  /**
   * Sets the folders a server sees as its roots (none: the field is removed). A saved server's
   * list is written; a server from the host's config keeps them until the host stops.
   */
  setRoots(serverId: string, folders: string[]): ServerConfig {
    const apply = (config: ServerConfig): ServerConfig => {
      const { roots: _old, ...rest } = config;
      return folders.length > 0 ? { ...rest, roots: [...folders] } : rest;
    };
    const extra = this.#extra.findIndex((config) => config.id === serverId);
    if (extra >= 0) {
      const changed = apply(this.#extra[extra]!);
      this.#extra[extra] = changed;
      return structuredClone(changed);
    }
    const index = this.#saved.findIndex((config) => config.id === serverId);
    if (index < 0) throw new HostError(JsonRpcCode.InvalidParams, `Unknown server ${serverId}`);
    const changed = apply(this.#saved[index]!);
    this.#document.save(this.#saved.map((config, at) => (at === index ? changed : config)));
    this.#saved[index] = changed;
    return structuredClone(changed);
  }

  /** Forgets a saved server. */
  remove(serverId: string): void {
    const index = this.#saved.findIndex((config) => config.id === serverId);
    if (index < 0) throw new HostError(JsonRpcCode.InvalidParams, `No saved server ${serverId}`);
    this.#document.save(this.#saved.filter((config) => config.id !== serverId));
    this.#saved.splice(index, 1);
  }
}

const SECRET_FILE_MODE = 0o600;

/**
 * Makes a file its owner's only, if others could read it; returns a warning when that fails.
 * Windows has no such modes (its ACLs keep a profile's files to their user).
 */
function narrowToOwner(file: string): string | undefined {
  if (process.platform === 'win32') return undefined;
  try {
    if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, SECRET_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return `The server list ${file} may be readable by other users of this machine, and could not be narrowed to its owner (${(error as Error).message}).`;
  }
  return undefined;
}
