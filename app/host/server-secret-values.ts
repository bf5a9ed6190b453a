import type { ServerOAuth } from '../auth/server-oauth.js';
import type { ServerConfig } from '../mcp/server-config.js';
import { secretNames } from './server-secrets.js';

/** What of a server's OAuth sign-in is read for its secrets: read at each use, tokens change. */
type SignInSecrets = Pick<ServerOAuth, 'tokens' | 'clientInformation' | 'clientPrivateKey'>;

/**
 * The values Taskdesk holds as secrets for the servers it connected in this run: secret env
 * vars and headers (an `Authorization` header always), and the tokens and client secret of an
 * OAuth sign-in. History and the task store mask them in what they write.
 *
 * A server's values are noted when it connects (its config with the values from the key store)
 * and replaced when it connects again. They are not dropped when it disconnects or is removed:
 * a call or task that ends after that is still masked.
 */
export class ServerSecretValues {
  readonly #byServer = new Map<string, { values: string[]; signIn: SignInSecrets | undefined }>();

  /** Notes the secrets of a connecting server: `config` with its secrets' values filled in. */
  noteConnecting(config: ServerConfig, signIn?: SignInSecrets): void {
    this.#byServer.set(config.id, { values: secretValuesOf(config), signIn });
  }

  /** Every value noted, of every server. */
  values(): string[] {
    const out: string[] = [];
    for (const { values, signIn } of this.#byServer.values()) {
      out.push(...values);
      if (!signIn) continue;
      const tokens = signIn.tokens();
      if (tokens?.access_token) out.push(tokens.access_token);
      if (tokens?.refresh_token) out.push(tokens.refresh_token);
      const secret = signIn.clientInformation()?.client_secret;
      if (secret) out.push(secret);
      const key = signIn.clientPrivateKey();
      if (key) out.push(key);
    }
    return out;
  }
}

/** The values of a config's secrets (see `secretNames`); a header's credential also without its scheme. */
export function secretValuesOf(config: ServerConfig): string[] {
  const names = secretNames(config);
  const transport = config.transport;
  const out: string[] = [];
  if (transport.type === 'stdio') {
    for (const name of names.env) {
      const value = transport.env?.[name];
      if (value !== undefined) out.push(value);
    }
    return out;
  }
  for (const name of names.headers) {
    const value = transport.headers?.[name];
    if (value === undefined) continue;
    out.push(value);
    // "Bearer abc…": a server that repeats the token it was sent may leave the scheme out.
    const [, credential] = /^\S+\s+(\S.*)$/.exec(value) ?? [];
    if (credential) out.push(credential);
  }
  return out;
}
