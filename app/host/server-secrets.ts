import type { ServerConfig } from '../mcp/server-config.js';
import type { KeyStore } from '../sampling/key-store.js';
import { HostError, JsonRpcCode } from '../core/errors.js';

/** Which part of a server's config a secret belongs to. */
export type SecretPlace = 'env' | 'header';

/**
 * The key store id of one server secret. Provider ids cannot hold `:`, so these never meet a
 * provider's API key in the same store.
 */
export function serverSecretId(serverId: string, place: SecretPlace, name: string): string {
  return `server:${serverId}:${place}:${name}`;
}

/** Whether a header is always a secret, whatever the user marked. */
export function alwaysSecretHeader(name: string): boolean {
  return name.toLowerCase() === 'authorization' || name.toLowerCase() === 'proxy-authorization';
}

/** The names of a config's secrets (an `Authorization` header always among them). */
export function secretNames(config: ServerConfig): { env: string[]; headers: string[] } {
  const env = new Set(config.secrets?.env ?? []);
  const headers = new Set(config.secrets?.headers ?? []);
  if (config.transport.type === 'http')
    for (const name of Object.keys(config.transport.headers ?? {})) if (alwaysSecretHeader(name)) headers.add(name);
  return { env: [...env], headers: [...headers] };
}

/**
 * The names of a config's env vars (stdio) or headers (HTTP), secrets among them, in the order
 * the person entered them. The secrets' values are kept apart from the others, so the saved list
 * keeps that order as names (`entryOrder`). Names it does not hold (a list an older build saved
 * has none) follow, plain ones first, then secrets, as those builds showed them.
 */
export function entryNames(config: ServerConfig): string[] {
  const transport = config.transport;
  const names = secretNames(config);
  const secret = transport.type === 'stdio' ? names.env : names.headers;
  const plain = Object.keys((transport.type === 'stdio' ? transport.env : transport.headers) ?? {});
  return ordered(config.entryOrder, [...plain.filter((name) => !secret.includes(name)), ...secret]);
}

/**
 * A saved config with the order of its entries: `entryOrder` is written only when the entries
 * would not come in that order without it, so that a list without secrets looks as it always did.
 */
export function withEntryOrder(config: ServerConfig, order: string[]): ServerConfig {
  const { entryOrder: _old, ...rest } = config;
  const plain = entryNames(rest);
  const wanted = ordered(order, plain);
  return wanted.every((name, at) => plain[at] === name) ? rest : { ...rest, entryOrder: wanted };
}

/** `names` with those `preferred` holds first, in its order, then the others in theirs. */
function ordered(preferred: string[] | undefined, names: string[]): string[] {
  const known = new Set(names);
  const out = new Set((preferred ?? []).filter((name) => known.has(name)));
  for (const name of names) out.add(name);
  return [...out];
}

/**
 * A config given with its secret values in `env` / `headers`, split into what is saved (no
 * secret value; `secrets` names them) and the values for the key store. A secret named without
 * a value is −32602.
 */
export function splitSecrets(config: ServerConfig): {
  stored: ServerConfig;
  values: Array<{ id: string; value: string }>;
} {
  const names = secretNames(config);
  const values: Array<{ id: string; value: string }> = [];
  const take = (place: SecretPlace, record: Record<string, string> | undefined, marked: string[]) => {
    const kept: Record<string, string> = {};
    for (const [name, value] of Object.entries(record ?? {})) {
      if (marked.includes(name)) values.push({ id: serverSecretId(config.id, place, name), value });
      else kept[name] = value;
    }
    for (const name of marked)
      if (!Object.hasOwn(record ?? {}, name))
        throw new HostError(
          JsonRpcCode.InvalidParams,
          `The secret ${place === 'env' ? 'env var' : 'header'} ${name} has no value`
        );
    return kept;
  };
  const transport = config.transport;
  const { secrets: _given, entryOrder: _order, ...rest } = config;
  const secrets = names.env.length + names.headers.length > 0 ? { secrets: names } : {};
  // Every entry, secret or not, has its value here: their order is the one given, else the record's.
  const order = ordered(
    config.entryOrder,
    Object.keys((transport.type === 'stdio' ? transport.env : transport.headers) ?? {})
  );
  if (transport.type === 'stdio') {
    const env = take('env', transport.env, names.env);
    const { env: _env, ...other } = transport;
    const stored = { ...rest, ...secrets, transport: { ...other, ...(Object.keys(env).length > 0 && { env }) } };
    return { stored: withEntryOrder(stored, order), values };
  }
  const headers = take('header', transport.headers, names.headers);
  const { headers: _headers, ...other } = transport;
  const stored = { ...rest, ...secrets, transport: { ...other, ...(Object.keys(headers).length > 0 && { headers }) } };
  return { stored: withEntryOrder(stored, order), values };
}

/** A saved config with its secrets' values put back from the key store, to connect with. */
export async function fillSecrets(config: ServerConfig, keys: KeyStore): Promise<ServerConfig> {
  const names = secretNames(config);
  if (names.env.length + names.headers.length === 0) return config;
  const read = async (place: SecretPlace, name: string): Promise<string> => {
    const value = await keys.get(serverSecretId(config.id, place, name));
    if (value === undefined)
      throw new HostError(
        JsonRpcCode.InvalidParams,
        `The secret ${place === 'env' ? 'env var' : 'header'} ${name} of ${config.name} is not in the key store; enter it again (Edit).`
      );
    return value;
  };
  const transport = structuredClone(config.transport);
  if (transport.type === 'stdio') {
    transport.env = { ...transport.env };
    for (const name of names.env) transport.env[name] = await read('env', name);
  } else {
    transport.headers = { ...transport.headers };
    for (const name of names.headers)
      if (!Object.hasOwn(transport.headers, name)) transport.headers[name] = await read('header', name);
  }
  return { ...config, transport };
}

/** Deletes every secret of a config from the key store. */
export async function deleteSecrets(config: ServerConfig, keys: KeyStore): Promise<void> {
  const names = secretNames(config);
  for (const name of names.env) await keys.delete(serverSecretId(config.id, 'env', name));
  for (const name of names.headers) await keys.delete(serverSecretId(config.id, 'header', name));
}
