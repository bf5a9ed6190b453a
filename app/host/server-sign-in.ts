import type { PreRegisteredClientSchema, SignInStart } from '../contract/server-auth.js';
import type { ServerView } from '../contract/host-api.js';
import type { z } from 'zod';
import type { AuditSink } from '../audit/audit-log.js';
import { HostError, JsonRpcCode, toErrorData } from '../core/errors.js';
import type { OAuthSessions } from '../auth/oauth-sessions.js';
import { SignInRequiredError, type ServerOAuth } from '../auth/server-oauth.js';
import { redactServerText, type ServerConfig } from '../mcp/server-config.js';

/** What the sign-in methods act on. */
export interface ServerSignInParts {
  sessions: OAuthSessions;
  config(serverId: string): ServerConfig | undefined;
  /** Disconnects a server the person signed out of (a disconnect the person asked for). */
  disconnect(serverId: string): Promise<ServerView>;
  /** Connects a server once it signed in without a browser (as a browser sign-in's completion does). */
  connect(serverId: string): Promise<ServerView>;
  serverView(config: ServerConfig): ServerView;
  /** Where what the person did is recorded (never a token, a secret or the sign-in page's address). */
  audit: AuditSink;
}

/**
 * The host API's `auth.*` methods: the user agreed to sign in, cancels it, signs out, enters a
 * client registered by hand or goes back to automatic registration. The browser is opened by the caller (the Desk: `openExternal` in the app,
 * the page itself in browser mode) with the address `auth.signIn` answers.
 */
export class ServerSignIn {
  readonly #parts: ServerSignInParts;

  constructor(parts: ServerSignInParts) {
    this.#parts = parts;
  }

  async signIn(serverId: string): Promise<SignInStart> {
    const oauth = await this.#oauth(serverId);
    // Pressed again while the browser is out: the same sign-in, recorded once.
    const waiting = oauth.view?.waiting === true;
    let pending = oauth.openSignIn();
    if (!pending) {
      // Nothing asked yet (the user pressed Sign in first): a token, or a page to open.
      // Recorded when this press signed the server in, not on every press while a token is valid;
      // the issuer says where, and the subject (often an email address) stays out of the log.
      const signedInBefore = oauth.view?.status === 'signed-in';
      try {
        await oauth.authorize({}, { byPerson: true });
        const issuer = oauth.view?.issuer;
        if (!signedInBefore && oauth.view?.status === 'signed-in') {
          // Signed in without a browser (client credentials): that sign-in is recorded as it is
          // made (as one made on the way of a connection is), and the server connected now, as
          // after a browser sign-in.
          if (oauth.view.clientCredentials === true) await this.#parts.connect(serverId);
          else this.#record(serverId, 'server.signed-in', { ...(issuer !== undefined && { issuer }), browser: false });
        }
        return { type: 'signed-in' };
      } catch (error) {
        if (!(error instanceof SignInRequiredError)) throw this.#startFailed(serverId, error);
      }
      pending = oauth.openSignIn();
      if (!pending) throw new HostError(JsonRpcCode.InternalError, 'The sign-in could not be prepared.');
    }
    if (!waiting) this.#record(serverId, 'server.sign-in-started', { issuer: pending.issuer });
    return { type: 'open', authorizationUrl: pending.authorizationUrl, issuer: pending.issuer };
  }

  async signOut(serverId: string): Promise<ServerView> {
    const oauth = await this.#oauth(serverId);
    const revoke = await oauth.signOut();
    // Disconnected before the authorization server is asked: no request of the connection meets
    // the missing token meanwhile (its 401 would start a sign-in the person just left).
    let view = await this.#parts.disconnect(serverId);
    const revocation = await revoke();
    // Whether the authorization server ended the sign-in too (not its words: they may quote a token's kind, never a token).
    this.#record(serverId, 'server.signed-out', revocation && { revocation: revocation.outcome });
    const config = this.#parts.config(serverId);
    if (revocation && config) view = this.#parts.serverView(config);
    return view;
  }

  async setClient(client: z.output<typeof PreRegisteredClientSchema>): Promise<void> {
    const oauth = await this.#oauth(client.serverId);
    await oauth.setClient({
      clientId: client.clientId,
      ...(client.clientSecret !== undefined && { clientSecret: client.clientSecret }),
      ...(client.scope !== undefined && { scope: client.scope }),
      ...(client.clientCredentials === true && { clientCredentials: true }),
      ...(client.privateKey !== undefined && { privateKey: client.privateKey }),
      ...(client.issuer !== undefined && { issuer: client.issuer })
    });
    // The client id names the registration; its secret or private key stays in the key store
    // (of a key, the algorithm it signs with is said).
    this.#record(client.serverId, 'server.oauth-client-set', {
      clientId: client.clientId,
      ...(client.clientCredentials === true && { withoutBrowser: true }),
      ...(client.privateKey !== undefined && { keyAlgorithm: client.privateKey.algorithm }),
      ...(client.issuer !== undefined && { issuer: client.issuer })
    });
  }

  async cancelSignIn(serverId: string): Promise<void> {
    const oauth = await this.#oauth(serverId);
    const waiting = oauth.pendingSignIn !== undefined;
    oauth.cancelSignIn();
    if (waiting) this.#record(serverId, 'server.sign-in-cancelled');
  }

  async forgetClient(serverId: string): Promise<void> {
    await (await this.#oauth(serverId)).forgetClient();
    this.#record(serverId, 'server.oauth-client-forgotten');
  }

  /**
   * A sign-in that could not start (its server or sign-in service cannot be reached, or refused
   * to register Taskdesk): recorded as a sign-in that failed later is, and answered in words.
   */
  #startFailed(serverId: string, error: unknown): HostError {
    const config = this.#parts.config(serverId);
    const { code, message, data } = toErrorData(error);
    // As a failed connection's reason is: it may quote the URL.
    this.#record(serverId, 'server.sign-in-failed', { reason: config ? redactServerText(message, config) : message });
    return new HostError(code, message, data);
  }

  #record(serverId: string, type: string, detail?: Record<string, unknown>): void {
    const name = this.#parts.config(serverId)?.name;
    this.#parts.audit.record({
      type,
      serverId,
      ...(name !== undefined && { serverName: name }),
      ...(detail && { detail })
    });
  }

  async #oauth(serverId: string): Promise<ServerOAuth> {
    const config = this.#parts.config(serverId);
    if (!config) throw new HostError(JsonRpcCode.InvalidParams, `Unknown server ${serverId}`);
    const oauth = this.#parts.sessions.for(config);
    if (!oauth)
      throw new HostError(
        JsonRpcCode.InvalidParams,
        `${config.name} does not sign in with OAuth: only a Streamable HTTP server without a configured Authorization header does.`
      );
    await oauth.load();
    return oauth;
  }
}
