import type { PreRegisteredClientSchema, SignInStart } from '../contract/server-auth.js';
import type { ServerView } from '../contract/host-api.js';
import type { z } from 'zod';
import { HostError, JsonRpcCode } from '../core/errors.js';
import type { OAuthSessions } from '../auth/oauth-sessions.js';
import { SignInRequiredError, type ServerOAuth } from '../auth/server-oauth.js';
import type { ServerConfig } from '../mcp/server-config.js';

/** What the sign-in methods act on. */
export interface ServerSignInParts {
  sessions: OAuthSessions;
  config(serverId: string): ServerConfig | undefined;
  disconnect(serverId: string): Promise<ServerView>;
  serverView(config: ServerConfig): ServerView;
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
    let pending = oauth.openSignIn();
    if (!pending) {
      // Nothing asked yet (the user pressed Sign in first): a token, or a page to open.
      try {
        await oauth.authorize({});
        return { type: 'signed-in' };
      } catch (error) {
        if (!(error instanceof SignInRequiredError)) throw error;
      }
      pending = oauth.openSignIn();
      if (!pending) throw new HostError(JsonRpcCode.InternalError, 'The sign-in could not be prepared.');
    }
    return { type: 'open', authorizationUrl: pending.authorizationUrl, issuer: pending.issuer };
  }

  async signOut(serverId: string): Promise<ServerView> {
    const oauth = await this.#oauth(serverId);
    await oauth.signOut();
    return this.#parts.disconnect(serverId);
  }

  async setClient(client: z.output<typeof PreRegisteredClientSchema>): Promise<void> {
    const oauth = await this.#oauth(client.serverId);
    await oauth.setClient({
      clientId: client.clientId,
      ...(client.clientSecret !== undefined && { clientSecret: client.clientSecret }),
      ...(client.scope !== undefined && { scope: client.scope })
    });
  }

  async cancelSignIn(serverId: string): Promise<void> {
    (await this.#oauth(serverId)).cancelSignIn();
  }

  async forgetClient(serverId: string): Promise<void> {
    await (await this.#oauth(serverId)).forgetClient();
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
