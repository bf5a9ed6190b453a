import { STATUS_CODES } from 'node:http';
import {
  buildDiscoveryUrls,
  selectClientAuthMethod,
  type AddClientAuthentication
} from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { SignInRevocation } from '../contract/server-auth.js';
import { errorMessage } from '../core/errors.js';
import { networkFailureText } from '../mcp/network-failure.js';

/** How long a sign-out waits for the authorization server (discovery and revocation together). */
export const REVOCATION_TIMEOUT_MS = 10_000;

/** As much of the authorization server's refusal as the card quotes. */
const REFUSAL_LIMIT = 200;

/**
 * Asks the authorization server that issued a sign-in to revoke it (RFC 7009), once its tokens
 * are already forgotten here: the refresh token when there is one (the server then ends the
 * access tokens of the same grant too, §2.1), the access token otherwise. The client
 * authenticates as it does at the token endpoint (the method chosen as the SDK chooses it, from
 * `revocation_endpoint_auth_methods_supported`, else the token endpoint's).
 *
 * The SDK's client auth (1.32.2) discovers metadata and refreshes tokens but has no revocation
 * request: this is that one request. It never throws: what happened is the outcome, said on the
 * server's card. 200 is success whether or not the token was still valid there (§2.2).
 */
export async function revokeSignIn(options: {
  issuer: string;
  tokens: OAuthTokens;
  client: OAuthClientInformationMixed;
  /** How the client proves itself when it signs with a private key (`private_key_jwt`): as at the token endpoint. */
  addClientAuthentication?: AddClientAuthentication;
  fetch?: FetchLike;
  timeoutMs?: number;
}): Promise<SignInRevocation> {
  const signal = AbortSignal.timeout(options.timeoutMs ?? REVOCATION_TIMEOUT_MS);
  const fetchFn: FetchLike = (url, init) => (options.fetch ?? fetch)(url, { ...init, signal });
  try {
    const metadata = await revocationMetadata(options.issuer, fetchFn);
    if (metadata?.endpoint === undefined) return { outcome: 'not-offered' };
    const { endpoint, authMethods } = metadata;
    const { tokens, client } = options;
    const refresh = tokens.refresh_token;
    const body = new URLSearchParams({
      token: refresh ?? tokens.access_token,
      token_type_hint: refresh !== undefined ? 'refresh_token' : 'access_token'
    });
    const headers = new Headers({ 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' });
    const method = selectClientAuthMethod(client, authMethods);
    // As the SDK authenticates at the token endpoint, so that a client it accepted there is accepted here.
    if (options.addClientAuthentication) {
      body.set('client_id', client.client_id);
      // Its audience is the issuer (no metadata passed: the assertion names the issuer, as at the token endpoint).
      await options.addClientAuthentication(headers, body, options.issuer);
    } else if (method === 'client_secret_basic' && client.client_secret !== undefined)
      headers.set('Authorization', `Basic ${btoa(`${client.client_id}:${client.client_secret}`)}`);
    else {
      body.set('client_id', client.client_id);
      if (method === 'client_secret_post' && client.client_secret !== undefined)
        body.set('client_secret', client.client_secret);
    }
    const response = await fetchFn(endpoint, { method: 'POST', headers, body });
    if (response.ok) return { outcome: 'revoked' };
    return { outcome: 'failed', why: await refusalOf(response) };
  } catch (error) {
    const why = signal.aborted
      ? `it did not answer in ${Math.ceil((options.timeoutMs ?? REVOCATION_TIMEOUT_MS) / 1000)} s`
      : (networkFailureText(error, '')?.trim() ?? errorMessage(error));
    return { outcome: 'failed', why };
  }
}

/** RFC 8414 §3.3 wants the identical URL; a lone trailing `/` (what `new URL()` adds to a bare origin) is tolerated. */
export function sameIssuer(issuer: string, url: string | URL): boolean {
  const a = issuer.replace(/\/$/, '');
  const b = String(url).replace(/\/$/, '');
  return a === b;
}

/**
 * The revocation endpoint the issuer's metadata names, and how a client authenticates there:
 * read from the first metadata document found where the SDK looks for one (RFC 8414, then OpenID
 * Connect discovery). Read here rather than through the SDK's discovery, whose OpenID Connect
 * schema drops `revocation_endpoint`. A document that names another issuer is refused (RFC 8414
 * §3.3: a token goes only where its own issuer says); an endpoint that is not HTTPS (RFC 7009 §2:
 * the client MUST check that it is; plain HTTP only on this machine's loopback) is not used.
 */
async function revocationMetadata(
  issuer: string,
  fetchFn: FetchLike
): Promise<{ endpoint?: string; authMethods: string[] } | undefined> {
  for (const { url } of buildDiscoveryUrls(issuer)) {
    const response = await fetchFn(url, { headers: { Accept: 'application/json' } });
    if (!response.ok) {
      await response.body?.cancel();
      continue;
    }
    const document = (await response.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    if (typeof document !== 'object' || document === null || typeof document.issuer !== 'string') continue;
    if (!sameIssuer(document.issuer, issuer))
      throw new Error(`its metadata names another issuer (${document.issuer.slice(0, 200)})`);
    const names = (value: unknown) =>
      Array.isArray(value) && value.every((each) => typeof each === 'string') ? value : undefined;
    const authMethods =
      names(document.revocation_endpoint_auth_methods_supported) ??
      names(document.token_endpoint_auth_methods_supported) ??
      [];
    const endpoint = typeof document.revocation_endpoint === 'string' ? document.revocation_endpoint : undefined;
    return { ...(endpoint !== undefined && secureEnough(endpoint) && { endpoint }), authMethods };
  }
  return undefined;
}

/** The authorization server's refusal in words: its status, and its OAuth error when it sent one. */
async function refusalOf(response: Response): Promise<string> {
  const status = `it answered ${response.status}${STATUS_CODES[response.status] ? ` ${STATUS_CODES[response.status]}` : ''}`;
  let said: string | undefined;
  try {
    const body = (await response.json()) as { error?: unknown; error_description?: unknown };
    if (typeof body.error === 'string')
      said =
        typeof body.error_description === 'string' && body.error_description !== ''
          ? `${body.error}: ${body.error_description}`
          : body.error;
  } catch {
    // Not JSON: the status says it.
  }
  if (said === undefined) return status;
  return `${status}, ${said.length > REFUSAL_LIMIT ? `${said.slice(0, REFUSAL_LIMIT)}…` : said}`;
}

/** HTTPS, or plain HTTP to this machine's loopback (a local authorization server). */
export function secureEnough(endpoint: string): boolean {
  if (!URL.canParse(endpoint)) return false;
  const url = new URL(endpoint);
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}
