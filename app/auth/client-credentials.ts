import { createPrivateKey, type KeyObject } from 'node:crypto';
import type { AuthorizationServerMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { ClientKeyAlgorithm } from '../contract/server-auth.js';
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
 * Thrown before any request carries a client's secret when the server names no sign-in service
 * it may go to: no protected resource metadata naming one whose own metadata was read (with a
 * token endpoint), and no address saved with the client for where the server points.
 */
export class NoSignInServiceError extends Error {
  constructor(serverName: string) {
    super(
      `${serverName} names no sign-in service; Taskdesk did not send the client's secret or key anywhere. Its administrator can say where it signs in; Taskdesk signs in only where the server names.`
    );
    this.name = 'NoSignInServiceError';
  }
}

/** Words for a sign-in service (or its token endpoint, `url`) that would get the secret over plain HTTP. */
export function plainHttpText(serverName: string, url: string): string {
  return `${serverName} sends its sign-in to ${url}, over plain HTTP: Taskdesk did not send the client's secret or key there. A sign-in service must use https:// (plain http:// only on this computer).`;
}

/** Words for a sign-in service address given on the form that is not HTTPS (nor on this computer). */
export const PLAIN_HTTP_ADDRESS_TEXT =
  'The sign-in service address must start with https:// (http:// only on this computer): the secret or key would go over plain HTTP.';

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
  return `${serverName} now sends its sign-in to ${named}, but the client ${clientId} belongs to ${pinned}: Taskdesk did not send its secret there. If the server really moved, save the client with the new sign-in service's address.`;
}

/**
 * Words for a client the authorization server refused at its token endpoint (`said`: its error
 * and description); `credential` is what the client proves itself with.
 */
export function clientCredentialsRefusedText(
  clientId: string,
  said: string,
  credential: 'secret' | 'private key' = 'secret'
): string {
  const check =
    credential === 'secret' ? 'its client ID and secret' : "its client ID, private key and the key's algorithm";
  return `The sign-in service did not accept the client ${clientId} (${said}). Check ${check}, and that it may sign in without a browser there.`;
}

export type { ClientKeyAlgorithm };

/** The curve each ECDSA algorithm signs with (RFC 7518 §3.4), as node:crypto names it. */
const CURVE_OF: Partial<Record<ClientKeyAlgorithm, string>> = {
  ES256: 'prime256v1',
  ES384: 'secp384r1',
  ES512: 'secp521r1'
};

/**
 * A private key pasted for `private_key_jwt` (RFC 7523 §2.2), in PKCS#8 PEM as the SDK's
 * `createPrivateKeyJwtAuth` imports it: a PKCS#1 (`BEGIN RSA PRIVATE KEY`) or SEC1
 * (`BEGIN EC PRIVATE KEY`) key is converted. Throws, in words, for a key that cannot be read
 * (encrypted, a public key, not PEM) or that does not fit `algorithm`: found when the client is
 * saved, not at its first sign-in.
 */
export function clientPrivateKeyPem(pem: string, algorithm: ClientKeyAlgorithm): string {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem.trim(), format: 'pem' });
  } catch {
    // Not its words: they may quote part of the key.
    throw new Error(
      'The private key could not be read. Paste it in PEM, from -----BEGIN PRIVATE KEY----- to its END line, not encrypted.'
    );
  }
  const type = key.asymmetricKeyType;
  const curve = CURVE_OF[algorithm];
  const fits =
    curve !== undefined
      ? type === 'ec' && key.asymmetricKeyDetails?.namedCurve === curve
      : // RS and PS alike sign with a plain RSA key: the JWT library refuses an `rsa-pss` one.
        type === 'rsa';
  if (!fits)
    throw new Error(
      `The private key is ${type === 'ec' ? `an EC key (${key.asymmetricKeyDetails?.namedCurve ?? 'unknown curve'})` : `a ${type ?? 'unknown'} key`}, which cannot sign with ${algorithm}. Choose the algorithm the key was made for${type === 'rsa-pss' ? ', or use a plain RSA key (BEGIN PRIVATE KEY or BEGIN RSA PRIVATE KEY)' : ''}.`
    );
  // RFC 7518 §3.3 and §3.5: an RSA key of fewer than 2048 bits signs nothing (the JWT library refuses it).
  const bits = key.asymmetricKeyDetails?.modulusLength;
  if (type === 'rsa' && bits !== undefined && bits < 2048)
    throw new Error(`The private key is an RSA key of ${bits} bits: ${algorithm} needs one of 2048 bits or more.`);
  return key.export({ type: 'pkcs8', format: 'pem' }).toString();
}
