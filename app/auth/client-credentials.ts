import type { AuthorizationServerMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { sameIssuer } from './token-revocation.js';

/**
 * Sign-in without a browser for a client registered by hand (OAuth 2.0 client credentials
 * grant, RFC 6749 §4.4; the MCP client credentials extension): the pieces `ServerOAuth` hands
 * to the SDK's `auth()`, which sends the token request itself once a provider has no redirect
 * URL and answers `prepareTokenRequest`.
 */

/** The token request's grant-specific parameters (the client authenticates as the SDK chooses). */
export function clientCredentialsRequest(scope: string | undefined): URLSearchParams {
  const params = new URLSearchParams({ grant_type: 'client_credentials' });
  if (scope) params.set('scope', scope);
  return params;
}

/**
 * Words for an authorization server whose metadata lists grant types without
 * `client_credentials`; undefined when it lists it, or lists none (then its token endpoint's
 * answer says whether it takes the grant: many servers leave the list out).
 */
export function grantNotOfferedText(
  issuer: string,
  metadata: Pick<AuthorizationServerMetadata, 'grant_types_supported'> | undefined
): string | undefined {
  const offered = metadata?.grant_types_supported;
  if (offered === undefined || offered.includes('client_credentials')) return undefined;
  return `The sign-in service at ${issuer} does not offer sign-in without a browser (client credentials; it offers ${offered.join(', ') || 'no grant'}). Turn off "Sign in without a browser" for this client, or ask its administrator.`;
}

/**
 * Words for a server that now names another authorization server than the one the client's
 * credentials belong to (`pinned`); undefined when they are the same.
 */
export function otherIssuerText(
  serverName: string,
  clientId: string,
  pinned: string,
  named: string
): string | undefined {
  if (sameIssuer(pinned, named)) return undefined;
  return `${serverName} now sends its sign-in to ${named}, but the client ${clientId} belongs to ${pinned}: Taskdesk did not send its secret there. If the server really moved, save the client again for the new sign-in service.`;
}

/** Words for a client the authorization server refused at its token endpoint (`said`: its error and description). */
export function clientCredentialsRefusedText(clientId: string, said: string): string {
  return `The sign-in service did not accept the client ${clientId} (${said}). Check its client ID and secret, and that it may sign in without a browser there.`;
}
