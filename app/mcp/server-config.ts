import { createHash } from 'node:crypto';
import { decodeSafe, REDACTED, redactUrlsIn, SECRET_NAME } from '../core/redact-url.js';

export type { ServerConfig, ServerConfigInput } from '../contract/host-api.js';
import type { ServerConfig } from '../contract/host-api.js';

/** An OAuth grant as tasks are bound to it (see `app/auth/oauth-vault.ts`). */
export interface GrantBinding {
  issuer: string;
  clientId: string;
  resource: string;
  subject?: string;
}

/**
 * The identity tasks are bound to: the server id, where it is reached, and its auth context.
 *
 * Two configurations that reach different processes or present different credentials never
 * see each other's tasks, even under one id; the hash keeps credentials out of task files.
 * A server signed in with OAuth is bound to its grant (authorization server, client, resource
 * and user), not to its access token: a refreshed token keeps the tasks, another user does not
 * see them. Without a grant the identity is what it always was.
 */
export function ownerIdentity(config: ServerConfig, grant?: GrantBinding): string {
  const target =
    config.transport.type === 'stdio'
      ? ['stdio', config.transport.command, ...config.transport.args]
      : ['http', config.transport.url, authHeader(config.transport.headers)];
  const parts: unknown[] = [config.id, ...target];
  if (grant) parts.push(['oauth', grant.issuer, grant.clientId, grant.resource, grant.subject ?? null]);
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
}

/**
 * What a connection to the server is made with, as one comparable string: its id, protocol pin,
 * and how it is reached (command, arguments, folder and env vars; or URL and headers), with the
 * secrets' values as given. Two configs with the same key reach the server the same way; what
 * else differs (its name, Connect at start, which entries are kept as secrets, their order)
 * does not need a new connection. Env vars and headers are compared by name, in any order.
 */
export function connectionKey(config: ServerConfig): string {
  const transport = config.transport;
  const byName = (record: Record<string, string> | undefined) =>
    Object.entries(record ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const target =
    transport.type === 'stdio'
      ? ['stdio', transport.command, transport.args, transport.cwd ?? null, byName(transport.env)]
      : ['http', transport.url, byName(transport.headers)];
  return JSON.stringify([config.id, config.protocol ?? 'auto', target]);
}

function authHeader(headers: Record<string, string> | undefined): string {
  if (!headers) return '';
  const entry = Object.entries(headers).find(([name]) => name.toLowerCase() === 'authorization');
  return entry?.[1] ?? '';
}

/** Arguments as the UI may see them: the value of anything that looks like a secret is hidden. */
export function redactArgs(args: string[]): string[] {
  return args.map((arg, index) => {
    const [flag, value] = arg.split(/=(.*)/s, 2);
    if (value !== undefined && SECRET_NAME.test(flag ?? '')) return `${flag}=••••`;
    const previous = args[index - 1];
    if (previous !== undefined && previous.startsWith('-') && !previous.includes('=') && SECRET_NAME.test(previous))
      return '••••';
    return arg;
  });
}

/**
 * A command and its arguments as the UI shows them, on one line: secret-looking values hidden
 * ({@link redactArgs}), and each word a shell would split or read specially in single quotes, so
 * that `sh -c 'echo "boom" >&2; exit 3'` is not shown as eight words. Display only: Taskdesk runs
 * the command without a shell.
 */
export function commandLine(command: string, args: string[]): string {
  return [command, ...redactArgs(args)].map(shellWord).join(' ');
}

function shellWord(word: string): string {
  if (/^[\w@%+=:,./•-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A URL as the UI may see it: no user info, no query (either may carry a credential). */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    return parsed.toString();
  } catch {
    return redactUrlsIn(url);
  }
}

/**
 * Every secret value a server's configuration holds: URL user info and secret-looking query
 * values, header values, env values and arguments whose name looks like a secret. Values shorter
 * than four characters are left out (they would hide ordinary words, and guess nothing).
 */
export function configSecrets(config: ServerConfig): string[] {
  const found: string[] = [];
  const transport = config.transport;
  if (transport.type === 'http') {
    try {
      const url = new URL(transport.url);
      found.push(url.username, url.password, decodeSafe(url.username), decodeSafe(url.password));
      for (const [name, value] of url.searchParams) if (SECRET_NAME.test(name)) found.push(value);
    } catch {
      // Not a URL: the patterns of redactUrlsIn still apply.
    }
    for (const value of Object.values(transport.headers ?? {})) {
      found.push(value);
      // "Bearer abc" shows as "abc" in some errors.
      const [, credential] = /^\S+\s+(\S.*)$/.exec(value) ?? [];
      if (credential) found.push(credential);
    }
  } else {
    const marked = new Set(config.secrets?.env ?? []);
    for (const [name, value] of Object.entries(transport.env ?? {}))
      if (marked.has(name) || SECRET_NAME.test(name)) found.push(value);
    transport.args.forEach((arg, index) => {
      const [flag, value] = arg.split(/=(.*)/s, 2);
      if (value !== undefined && SECRET_NAME.test(flag ?? '')) found.push(value);
      const previous = transport.args[index - 1];
      if (previous?.startsWith('-') && !previous.includes('=') && SECRET_NAME.test(previous)) found.push(arg);
    });
  }
  // Longest first, so that a value containing another is hidden whole.
  return [...new Set(found.filter((value) => value.length >= 4))].sort((a, b) => b.length - a.length);
}

/**
 * Text about a server (a failure reason, its stderr) as it may leave Taskdesk: the server's own
 * secrets (see {@link configSecrets}) and any URL credentials are replaced by `[redacted]`.
 */
export function redactServerText(text: string, config: ServerConfig): string {
  let out = text;
  for (const secret of configSecrets(config)) {
    out = out.split(secret).join(REDACTED);
    const encoded = encodeURIComponent(secret);
    if (encoded !== secret) out = out.split(encoded).join(REDACTED);
  }
  return redactUrlsIn(out);
}
