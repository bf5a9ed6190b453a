import { extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ServerOAuth } from './server-oauth.js';

/**
 * A `fetch` for a Streamable HTTP server that sends the server's OAuth access token and answers
 * its challenges: a 401 refreshes or re-authorizes (the SDK's `auth()`), a 403
 * `insufficient_scope` steps up (bounded), and the request is sent again once with the new token.
 *
 * Our own rather than the transport's `authProvider`: the SDK's transport answers a 403 with a
 * refresh (which cannot widen a grant), fails a request as soon as a browser step is needed
 * without saying where to sign in, and covers neither our `server/discover` probe nor the
 * 2026-07-28 path. One fetch covers all three, and every token decision stays in `auth()`.
 */
export function oauthFetch(oauth: ServerOAuth, base: FetchLike = (url, init) => fetch(url, init)): FetchLike {
  return async (url, init) => {
    let sent: string | undefined;
    const send = async (): Promise<Response> => {
      const headers = new Headers(init?.headers);
      sent = await oauth.accessToken();
      if (sent !== undefined) headers.set('authorization', `Bearer ${sent}`);
      return base(url, { ...init, headers });
    };
    const response = await send();
    if (response.status === 401) {
      const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
      await response.body?.cancel().catch(() => undefined);
      // Another request refreshed the token meanwhile: this one only needs the new token.
      const current = await oauth.accessToken();
      if (current === undefined || current === sent)
        await oauth.authorize({ ...(resourceMetadataUrl && { resourceMetadataUrl }), ...(scope && { scope }) });
      return send();
    }
    oauth.answeredWithoutSignIn();
    if (response.status === 403) {
      const { resourceMetadataUrl, scope, error } = extractWWWAuthenticateParams(response);
      if (error !== 'insufficient_scope') return response;
      await response.body?.cancel().catch(() => undefined);
      await oauth.stepUp({ ...(resourceMetadataUrl && { resourceMetadataUrl }), ...(scope && { scope }) });
      return send();
    }
    return response;
  };
}
