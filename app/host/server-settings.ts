import type { ServerConfig, ServerConfigInput } from '../mcp/server-config.js';
import { ServerConfigSchema } from '../contract/host-api.js';
import type { EditableServer, ServerSettings, SettingEntry } from '../contract/server-settings.js';
import { HostError, JsonRpcCode } from '../core/errors.js';
import type { KeyStore } from '../sampling/key-store.js';
import type { ServerRegistry } from './server-registry.js';
import {
  alwaysSecretHeader,
  deleteSecrets,
  entryNames,
  fillSecrets,
  secretNames,
  serverSecretId,
  splitSecrets,
  withEntryOrder
} from './server-secrets.js';

/**
 * Adding, editing and removing servers with their secrets: the registry holds every field but
 * the secrets' values, which go to the key store (safeStorage in the app, a 0600 file under
 * Node). Nothing here returns a secret's value, except {@link resolved}, which the connection uses.
 */
export class ServerSettingsStore {
  readonly #registry: ServerRegistry;
  readonly #keys: KeyStore;

  constructor(registry: ServerRegistry, keys: KeyStore) {
    this.#registry = registry;
    this.#keys = keys;
  }

  /** Saves a new server; its secrets (and any Authorization header) go to the key store first. */
  async add(input: ServerConfigInput, options: { byTaskdesk?: boolean } = {}): Promise<ServerConfig> {
    const config = ServerConfigSchema.parse(input);
    const taken = this.#registry.get(config.id);
    if (taken) {
      // Said on the form's Id field (`data.fields`), as the providers' form does.
      const message = `Id already used by ${taken.name}: choose another, or edit that server.`;
      throw new HostError(JsonRpcCode.InvalidParams, message, { fields: { id: message } });
    }
    const { stored, values } = splitSecrets(config);
    for (const { id, value } of values) await this.#keys.set(id, value);
    try {
      return this.#registry.add(stored, options);
    } catch (error) {
      for (const { id } of values) await this.#keys.delete(id).catch(() => undefined);
      throw error;
    }
  }

  /** A server's settings for the Edit form: secrets by name, never by value. */
  get(serverId: string): ServerSettings {
    const config = this.#registry.get(serverId);
    if (!config) throw new HostError(JsonRpcCode.InvalidParams, `Unknown server ${serverId}`);
    const names = secretNames(config);
    // In the order the person entered them, secrets among the others.
    const entries = (record: Record<string, string> | undefined, secret: string[]): SettingEntry[] =>
      entryNames(config).map((name) => {
        const value = record && Object.hasOwn(record, name) ? record[name] : undefined;
        return secret.includes(name) || value === undefined ? { name, secret: true } : { name, value, secret: false };
      });
    const transport = config.transport;
    return {
      id: config.id,
      name: config.name,
      autoConnect: config.autoConnect,
      protocol: config.protocol ?? 'auto',
      editable: this.#registry.isSaved(serverId),
      transport:
        transport.type === 'stdio'
          ? {
              type: 'stdio',
              command: transport.command,
              args: transport.args,
              ...(transport.cwd !== undefined && { cwd: transport.cwd }),
              env: entries(transport.env, names.env)
            }
          : { type: 'http', url: transport.url, headers: entries(transport.headers, names.headers) }
    };
  }

  /**
   * Replaces a saved server's fields. A secret entry with a value replaces the stored one;
   * without, keeps it; a secret no longer listed (or no longer secret) is deleted from the key store.
   */
  async update(serverId: string, settings: EditableServer): Promise<ServerConfig> {
    const old = this.#registry.get(serverId);
    if (!old || !this.#registry.isSaved(serverId))
      throw new HostError(
        JsonRpcCode.InvalidParams,
        old
          ? `${old.name} is given by Taskdesk's configuration and cannot be edited here`
          : `Unknown server ${serverId}`
      );
    const oldNames = secretNames(old);
    const place = settings.transport.type === 'stdio' ? 'env' : 'header';
    const entries = settings.transport.type === 'stdio' ? settings.transport.env : settings.transport.headers;
    const oldSecret = place === 'env' ? oldNames.env : oldNames.headers;
    const sameTransport = old.transport.type === settings.transport.type;
    const plain: Record<string, string> = {};
    const secret: string[] = [];
    const newValues: Array<{ id: string; value: string }> = [];
    const seen = new Set<string>();
    const order: string[] = [];
    for (const entry of entries) {
      const name = entry.name.trim();
      if (seen.has(name.toLowerCase())) throw new HostError(JsonRpcCode.InvalidParams, `${name} is listed twice`);
      seen.add(name.toLowerCase());
      order.push(name);
      const isSecret = entry.secret || (place === 'header' && alwaysSecretHeader(name));
      if (!isSecret) {
        if (entry.value === undefined) throw new HostError(JsonRpcCode.InvalidParams, `${name} needs a value`);
        plain[name] = entry.value;
        continue;
      }
      secret.push(name);
      const id = serverSecretId(serverId, place, name);
      // An Authorization header an older build saved in the server list moves to the key store now.
      const legacy = old.transport.type === 'http' && place === 'header' ? old.transport.headers?.[name] : undefined;
      if (entry.value !== undefined) newValues.push({ id, value: entry.value });
      else if (legacy !== undefined) newValues.push({ id, value: legacy });
      else if (!sameTransport || !oldSecret.includes(name))
        throw new HostError(JsonRpcCode.InvalidParams, `Enter a value for the secret ${name}`);
    }
    const transport =
      settings.transport.type === 'stdio'
        ? {
            type: 'stdio' as const,
            command: settings.transport.command.trim(),
            args: settings.transport.args,
            ...(settings.transport.cwd?.trim() && { cwd: settings.transport.cwd.trim() }),
            ...(Object.keys(plain).length > 0 && { env: plain })
          }
        : {
            type: 'http' as const,
            url: settings.transport.url.trim(),
            ...(Object.keys(plain).length > 0 && { headers: plain })
          };
    const parsed = ServerConfigSchema.parse({
      ...old,
      name: settings.name.trim(),
      autoConnect: settings.autoConnect,
      protocol: settings.protocol,
      transport,
      secrets: place === 'env' ? { env: secret, headers: [] } : { env: [], headers: secret }
    });
    if (secret.length === 0) delete parsed.secrets;
    const next = withEntryOrder(parsed, order);
    for (const { id, value } of newValues) await this.#keys.set(id, value);
    this.#registry.update(next);
    // Secrets the new settings no longer hold are deleted once the new settings are saved.
    const kept = new Set(secret.map((name) => serverSecretId(serverId, place, name)));
    for (const name of oldNames.env) {
      const id = serverSecretId(serverId, 'env', name);
      if (!kept.has(id)) await this.#keys.delete(id);
    }
    for (const name of oldNames.headers) {
      const id = serverSecretId(serverId, 'header', name);
      if (!kept.has(id)) await this.#keys.delete(id);
    }
    return next;
  }

  /** Forgets a saved server and deletes its secrets. */
  async remove(serverId: string): Promise<void> {
    const config = this.#registry.get(serverId);
    this.#registry.remove(serverId);
    if (config) await deleteSecrets(config, this.#keys);
  }

  /** A server's config with its secrets' values, to connect with (and to redact its text by). */
  async resolved(config: ServerConfig): Promise<ServerConfig> {
    return fillSecrets(config, this.#keys);
  }
}
