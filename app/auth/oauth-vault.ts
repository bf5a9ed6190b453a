import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { KeyStore } from '../sampling/key-store.js';
import type { ClientKeyAlgorithm } from './client-credentials.js';

/**
 * The authorization grant a server's tasks are bound to: which authorization server issued it,
 * to which client, for which resource, and (when the tokens say so) for which user.
 *
 * A refreshed or stepped-up token keeps all four, so a server keeps its tasks across refreshes;
 * another user (another `subject`) or another registration does not see them.
 */
export interface OAuthGrant {
  issuer: string;
  clientId: string;
  resource: string;
  subject?: string;
}

/** Everything Taskdesk keeps about one server's OAuth sign-in; it lives in the key store only. */
export interface OAuthRecord {
  /** Client information as the SDK saved it (stamped with the authorization server), or pre-registered. */
  client?: OAuthClientInformationMixed;
  /** Set by `auth.setClient`: the user registered this client; it is never replaced by a registration. */
  preregistered?: boolean;
  /** A scope the user configured for a pre-registered client (used when the server names none). */
  scope?: string;
  /**
   * The client's `issuer` was given by the person (the form's sign-in service address), not
   * recorded by its first sign-in: its secret may go there even when the server names no sign-in
   * service, or one whose metadata cannot be read.
   */
  issuerGiven?: boolean;
  /**
   * Set by `auth.setClient`: the pre-registered client signs in without a browser (client
   * credentials grant). Its `client.issuer`, once set, is the only authorization server its
   * secret goes to.
   */
  clientCredentials?: boolean;
  /**
   * Set by `auth.setClient` for a client that signs in without a browser with a private key in
   * place of a secret (`private_key_jwt`, RFC 7523 §2.2): the key (PKCS#8 PEM) and the algorithm
   * its assertions are signed with. Like the secret, it is kept here only.
   */
  clientKey?: { privateKey: string; algorithm: ClientKeyAlgorithm };
  tokens?: OAuthTokens;
  /** When `tokens` were saved (ms since the epoch): their `expires_in` counts from then. */
  tokensSavedAt?: number;
  /** The grant of the last completed sign-in. */
  grant?: OAuthGrant;
}

/** The key-store entry of a server's OAuth record. */
export function vaultKey(serverId: string): string {
  return `oauth:${serverId}`;
}

/**
 * A server's OAuth record in the key store (safeStorage in the app, the 0600 key file under Node).
 *
 * Updates are read-modify-write of one JSON value per server, chained so that two writes of the
 * same server (a refresh and a registration racing) never lose one another.
 */
export class OAuthVault {
  readonly #keys: KeyStore;
  readonly #chains = new Map<string, Promise<unknown>>();

  constructor(keys: KeyStore) {
    this.#keys = keys;
  }

  async read(serverId: string): Promise<OAuthRecord> {
    const text = await this.#keys.get(vaultKey(serverId));
    if (text === undefined) return {};
    try {
      const parsed = JSON.parse(text) as unknown;
      return typeof parsed === 'object' && parsed !== null ? parsed : {};
    } catch {
      // A damaged entry means signing in again, not a failed host.
      return {};
    }
  }

  /** Applies `change` to the stored record (undefined removes it) and resolves with the new record. */
  update(serverId: string, change: (record: OAuthRecord) => OAuthRecord | undefined): Promise<OAuthRecord> {
    const previous = this.#chains.get(serverId) ?? Promise.resolve();
    const next = previous
      .catch(() => undefined)
      .then(async () => {
        const record = change(await this.read(serverId));
        if (record === undefined || Object.keys(record).length === 0) {
          await this.#keys.delete(vaultKey(serverId));
          return {};
        }
        await this.#keys.set(vaultKey(serverId), JSON.stringify(record));
        return record;
      });
    this.#chains.set(serverId, next);
    void next.finally(() => {
      if (this.#chains.get(serverId) === next) this.#chains.delete(serverId);
    });
    return next;
  }

  /** Forgets everything about a server's sign-in. */
  async remove(serverId: string): Promise<void> {
    await this.update(serverId, () => undefined);
  }
}
