import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { SignInView } from '../contract/server-auth.js';
import type { ServerConfig } from '../mcp/server-config.js';
import type { KeyStore } from '../sampling/key-store.js';
import { OAuthVault, type OAuthGrant } from './oauth-vault.js';
import { ServerOAuth, SignInEndedError } from './server-oauth.js';

/** Options of {@link OAuthSessions}. */
export interface OAuthSessionsOptions {
  keyStore: KeyStore;
  /** An HTTPS URL of Taskdesk's client ID metadata document (SEP-991), if one is published. */
  clientMetadataUrl?: string;
  /** The fetch OAuth requests go through (tests). */
  fetch?: FetchLike;
  /** The time (the host's clock): when a token was saved, and when it is due for a refresh. */
  now?: () => number;
  /** A server's sign-in view changed. */
  onChange(serverId: string, view: SignInView): void;
  /**
   * A server's sign-in completed (in a browser, or without one: `how`); after one in a browser,
   * or one without that changed the client of a connection (`reconnect`), the host reconnects it,
   * bound to the new grant.
   */
  onSignedIn(serverId: string, grant: OAuthGrant, how: { browser: boolean; reconnect?: boolean }): void;
  /** A sign-in the person started failed, with why in words. */
  onSignInFailed?(serverId: string, reason: string): void;
}

/**
 * The OAuth client of every Streamable HTTP server that does not bring its own `Authorization`
 * header (a configured header is the user's choice of credential, and stays the only one).
 */
export class OAuthSessions {
  readonly #options: OAuthSessionsOptions;
  readonly #vault: OAuthVault;
  readonly #sessions = new Map<string, { url: string; name: string; oauth: ServerOAuth }>();

  constructor(options: OAuthSessionsOptions) {
    this.#options = options;
    this.#vault = new OAuthVault(options.keyStore);
  }

  /** The server's OAuth client, when OAuth applies to it. */
  for(config: ServerConfig): ServerOAuth | undefined {
    const transport = config.transport;
    if (transport.type !== 'http') return undefined;
    // Its own Authorization header, given as is or kept in the key store (named in `secrets`).
    const headerNames = [...Object.keys(transport.headers ?? {}), ...(config.secrets?.headers ?? [])];
    if (headerNames.some((name) => name.toLowerCase() === 'authorization')) return undefined;
    const existing = this.#sessions.get(config.id);
    if (existing && existing.url === transport.url) {
      // A rename keeps the session (and its connection): its words use the new name.
      existing.name = config.name;
      return existing.oauth;
    }
    existing?.oauth.close();
    const sessions = this.#sessions;
    const oauth = new ServerOAuth({
      serverId: config.id,
      // Read at each use: the server may be renamed while its session lasts.
      get serverName() {
        return sessions.get(config.id)?.name ?? config.name;
      },
      serverUrl: transport.url,
      vault: this.#vault,
      ...(this.#options.clientMetadataUrl !== undefined && { clientMetadataUrl: this.#options.clientMetadataUrl }),
      ...(this.#options.fetch && { fetch: this.#options.fetch }),
      ...(this.#options.now && { now: this.#options.now }),
      onChange: (view) => this.#options.onChange(config.id, view),
      onSignedIn: (grant, how) => this.#options.onSignedIn(config.id, grant, how),
      onSignInFailed: (reason) => this.#options.onSignInFailed?.(config.id, reason)
    });
    this.#sessions.set(config.id, { url: transport.url, name: config.name, oauth });
    return oauth;
  }

  /** The sign-in view of a server OAuth applies to (loaded lazily: `signed-out` until read). */
  view(config: ServerConfig): SignInView | undefined {
    return this.for(config)?.view;
  }

  /**
   * Waits for the next sign-in to the server to complete (see `ServerOAuth.untilSignedIn`); a
   * server without a sign-in session (removed, or no longer signing in) is a sign-in `closed`.
   * `onNewPage` is told of each new sign-in page made meanwhile.
   */
  untilSignedIn(serverId: string, signal?: AbortSignal, onNewPage?: () => void): Promise<void> {
    const session = this.#sessions.get(serverId);
    if (!session) return Promise.reject(new SignInEndedError('closed'));
    return session.oauth.untilSignedIn(signal, onNewPage);
  }

  /** Forgets a removed server's sign-in, tokens and registration alike. */
  async forget(serverId: string): Promise<void> {
    this.#sessions.get(serverId)?.oauth.close();
    this.#sessions.delete(serverId);
    await this.#vault.remove(serverId);
  }

  /** Taskdesk closes: every sign-in under way ends, and who waits for one is told so. */
  close(): void {
    for (const { oauth } of this.#sessions.values()) oauth.close('taskdesk-closed');
  }
}
