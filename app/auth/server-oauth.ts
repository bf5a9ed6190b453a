import { randomBytes } from 'node:crypto';
import {
  auth,
  type AddClientAuthentication,
  type OAuthClientProvider,
  type OAuthDiscoveryState
} from '@modelcontextprotocol/sdk/client/auth.js';
import { createPrivateKeyJwtAuth } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import {
  REGISTERED_REDIRECT_URI,
  signInRequestText,
  type SignInRevocation,
  type SignInView
} from '../contract/server-auth.js';
import { errorMessage } from '../core/errors.js';
import { networkFailureText } from '../mcp/network-failure.js';
import { openLoopbackRedirect, type LoopbackRedirect, type RedirectOutcome } from './loopback-redirect.js';
import { subjectOf } from './token-subject.js';
import { revokeSignIn, sameIssuer, secureEnough } from './token-revocation.js';
import {
  clientCredentialsRefusedText,
  clientCredentialsRequest,
  clientPrivateKeyPem,
  grantNotOfferedText,
  NoSignInServiceError,
  otherIssuerText,
  PLAIN_HTTP_ADDRESS_TEXT,
  plainHttpText,
  type ClientKeyAlgorithm
} from './client-credentials.js';
import type { OAuthGrant, OAuthRecord, OAuthVault } from './oauth-vault.js';

export { REGISTERED_REDIRECT_URI };

/** OAuth errors that say the client itself was refused (RFC 6749 §5.2, §4.1.2.1). */
const CLIENT_REFUSED = new Set(['invalid_client', 'unauthorized_client']);

/**
 * How many times in a row Taskdesk asks for more scope for the same challenge before it stops
 * (the MCP authorization spec asks clients to bound step-up; the suite allows three
 * authorization requests in all, the first sign-in included).
 */
export const MAX_STEP_UPS = 2;

/**
 * How long before its `expires_in` runs out an access token is refreshed, on the way of the
 * request that finds it so (at most half its lifetime): the request then goes with a fresh
 * token, rather than failing with a 401 first (a stream or a long call is not cut mid-way).
 */
export const REFRESH_AHEAD_MS = 60_000;

/** After a refresh ahead failed (the authorization server unreachable), how long the token in hand is used before trying again. */
const REFRESH_AHEAD_RETRY_MS = 30_000;

/** How long a refresh ahead may take (discovery and the token request together) before it counts as failed. */
const REFRESH_AHEAD_TIMEOUT_MS = 15_000;

/** Thrown in place of a redirect by a refresh ahead's `auth()`: it must never start a sign-in. */
const NO_SIGN_IN_AHEAD = new Error('A refresh ahead of expiry does not start a sign-in.');

/** How long a sign-in waits for the browser to come back (the loopback listener then closes). */
export const SIGN_IN_WAIT_MS = 10 * 60_000;

/** Thrown by a request that needs the user to sign in (or to grant more scope) first. */
export class SignInRequiredError extends Error {
  constructor(serverName: string, issuer: string | undefined) {
    super(signInRequestText(serverName, issuer));
    this.name = 'SignInRequiredError';
  }
}

/** Thrown by a request whose sign-in began before the person signed out or changed the client. */
export class SignInChangedError extends Error {
  constructor(serverName: string) {
    super(
      `The sign-in to ${serverName} changed while this request waited (you signed out, or changed its client): sign in again from its card.`
    );
    this.name = 'SignInChangedError';
  }
}

/**
 * Why a sign-in waited for ({@link ServerOAuth.untilSignedIn}) was given up: it `failed` (refused,
 * declined, not completed in time: `reason` says which, in words), the person `cancelled` it or
 * `signed-out`, the server's sign-in was `closed` (the server removed, or moved to another URL),
 * or Taskdesk closed (`taskdesk-closed`).
 */
export class SignInEndedError extends Error {
  readonly why: 'failed' | 'cancelled' | 'signed-out' | 'closed' | 'taskdesk-closed';
  readonly reason: string | undefined;
  constructor(why: SignInEndedError['why'], reason?: string) {
    super(reason ?? `The sign-in ended (${why}).`);
    this.name = 'SignInEndedError';
    this.why = why;
    this.reason = reason;
  }
}

/**
 * Thrown when a sign-in could not reach what it must ask (the server's own metadata, or its
 * authorization server's): where, and why in the words network failures have elsewhere.
 */
export class SignInUnreachableError extends Error {
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = 'SignInUnreachableError';
  }
}

/** Options of {@link ServerOAuth}. */
export interface ServerOAuthOptions {
  serverId: string;
  serverName: string;
  /** The MCP server's URL (the protected resource). */
  serverUrl: string;
  vault: OAuthVault;
  /** An HTTPS URL of Taskdesk's client ID metadata document, used where the server supports them. */
  clientMetadataUrl?: string;
  /** The fetch discovery, registration and token requests go through. */
  fetch?: FetchLike;
  /** The time (default the wall clock): when tokens were saved, and when they are due for a refresh. */
  now?: () => number;
  /** The view changed (a sign-in is wanted, done, failed, or signed out). */
  onChange(view: SignInView): void;
  /**
   * A sign-in completed: the grant is stored. After a sign-in in the browser the host reconnects
   * the server; one without a browser (client credentials: `browser` false) was made on the way
   * of a connection or a request, or by Sign in, which connects the server itself. Told once a
   * sign-in, not for each new token that replaces one past its expiry. With `reconnect`, the
   * client was changed while connected: the connection was made as the other client, and is made
   * again (as after a browser sign-in).
   */
  onSignedIn(grant: OAuthGrant, how: { browser: boolean; reconnect?: boolean }): void;
  /** A sign-in the person started failed (refused, timed out, or the answer was not usable), with why. */
  onSignInFailed?(reason: string): void;
}

interface PendingSignIn {
  authorizationUrl: URL;
  loopback: LoopbackRedirect;
  /** The authorization server URL discovery used (what tokens are stamped with). */
  authorizationServerUrl: string;
  /** The issuer its metadata names: what `iss` is compared with, exactly (RFC 9207). */
  recordedIssuer: string;
  issSupported: boolean;
  resource: string;
  timer: NodeJS.Timeout;
  /** Its page was handed out (`auth.signIn`): the person is in the browser. */
  opened: boolean;
}

/**
 * One server's OAuth client: the SDK's {@link OAuthClientProvider}, kept in the key store.
 *
 * The SDK's `auth()` does discovery (RFC 9728, RFC 8414 and OIDC), client ID metadata
 * documents, dynamic registration, PKCE, the `resource` parameter, scope selection, refresh
 * and binding stored credentials to the authorization server that issued them. What it leaves
 * to the client is done here: the authorization response's `iss` (RFC 9207) and the metadata's
 * `issuer` (RFC 8414 §3.3) are checked, `offline_access` is asked for where the authorization
 * server lists it, the browser step waits for the user's consent and comes back to a loopback
 * listener, and step-up is bounded.
 */
export class ServerOAuth implements OAuthClientProvider {
  readonly #options: ServerOAuthOptions;
  #record: OAuthRecord = {};
  #loaded: Promise<void> | undefined;
  /** Undefined while the server never asked for a sign-in (most HTTP servers never do). */
  #view: SignInView | undefined;
  #discovery: OAuthDiscoveryState | undefined;
  #codeVerifier: string | undefined;
  #pending: PendingSignIn | undefined;
  /** Listeners of sign-ins no longer waited for that still tell a late browser why (see `LoopbackRedirect.close`). */
  readonly #closedSignIns = new Set<LoopbackRedirect>();
  #authorizing: Promise<void> | undefined;
  /** While set, `tokens()` hides the refresh token, so `auth()` asks for a new authorization (step-up). */
  #noRefresh = false;
  readonly #stepUps = new Map<string, number>();
  /** The scope the last authorization asked for (tokens often do not say what they were granted). */
  #lastScope: string | undefined;
  /**
   * Why the client credentials sign-in made before a connection (see {@link grant}) failed: the
   * connection's first 401 answers with it instead of asking the authorization server again.
   */
  #signInBeforeConnectFailed: Error | undefined;
  /**
   * The grant the server's connection was made with ({@link grant}), when it had one: a client
   * that signs in without a browser and comes back with another grant (the client was changed
   * while connected) is told as a sign-in that reconnects, as a browser sign-in is.
   */
  #boundGrant: OAuthGrant | undefined;
  /** A refresh ahead of expiry under way (see {@link REFRESH_AHEAD_MS}); while set, no sign-in may start. */
  #refreshingAhead: Promise<void> | undefined;
  #aheadFailedAt: number | undefined;
  /**
   * Counts sign-outs and client changes: tokens that an `auth()` begun before one of them brings
   * back are not kept (they are revoked instead), so a refresh in flight cannot sign the person in again.
   */
  #generation = 0;
  /** Who waits for the next sign-in to complete (see {@link untilSignedIn}). */
  readonly #signInWaiters = new Set<{
    resolve: () => void;
    reject: (error: SignInEndedError) => void;
    newPage: () => void;
  }>();

  constructor(options: ServerOAuthOptions) {
    this.#options = options;
  }

  /** Reads the stored record once; every other method awaits it. */
  load(): Promise<void> {
    this.#loaded ??= this.#options.vault.read(this.#options.serverId).then((record) => {
      this.#record = record;
      if (record.tokens && record.grant)
        this.#setView({
          status: 'signed-in',
          issuer: record.grant.issuer,
          ...(record.grant.subject !== undefined && { subject: record.grant.subject })
        });
      else if (record.client) this.#setView({ status: 'signed-out' });
    });
    return this.#loaded;
  }

  /** The sign-in as the card shows it; undefined for a server that never asked for one. */
  get view(): SignInView | undefined {
    return this.#view && { ...this.#view };
  }

  /**
   * The grant of the stored sign-in, if any. A client that signs in without a browser (client
   * credentials) and holds no token signs in first, so that the connection made next is bound to
   * its grant from the start; if that fails, the connection's first 401 is answered with why.
   */
  async grant(): Promise<OAuthGrant | undefined> {
    await this.load();
    this.#signInBeforeConnectFailed = undefined;
    // No connection is bound to a grant until this one is made.
    this.#boundGrant = undefined;
    if (this.#record.clientCredentials && !this.#record.tokens && !this.#pending) {
      const generation = this.#generation;
      try {
        await this.authorize({});
      } catch (error) {
        // Kept for the connection's first 401, unless the person changed the client, signed out or
        // removed the server meanwhile (it is not their sign-in now), or the server named no sign-in
        // service yet: its 401 may name one (then no secret went anywhere before it did).
        if (generation === this.#generation && !(error instanceof NoSignInServiceError))
          this.#signInBeforeConnectFailed = error instanceof Error ? error : new Error(String(error));
      }
    }
    const grant = this.#record.grant && { ...this.#record.grant };
    this.#boundGrant = grant;
    return grant;
  }

  /**
   * The access token to send, if any. One about to expire (see {@link REFRESH_AHEAD_MS}) is
   * refreshed beside the request, which goes at once with the token in hand; only a token already
   * past its expiry waits for the refresh (at most {@link REFRESH_AHEAD_TIMEOUT_MS}). A refresh
   * that fails leaves the token in hand (the authorization server may be down for a moment; the
   * server's 401, if it comes, asks again); a refresh token the authorization server no longer
   * knows is forgotten, as after a 401.
   */
  async accessToken(): Promise<string | undefined> {
    await this.load();
    const expiry = this.#refreshDue();
    if (expiry !== undefined) {
      this.#refreshingAhead ??= this.#refreshAhead().finally(() => (this.#refreshingAhead = undefined));
      if (this.#now() >= expiry) await this.#refreshingAhead;
    }
    return this.#record.tokens?.access_token;
  }

  /** When the token in hand expires, if it is due for a refresh ahead now; undefined otherwise. */
  #refreshDue(): number | undefined {
    const { tokens, tokensSavedAt } = this.#record;
    // A client that signs in without a browser needs no refresh token: it asks for a new token.
    if (!tokens?.refresh_token && !this.#record.clientCredentials) return undefined;
    if (!tokens || tokens.expires_in === undefined || tokensSavedAt === undefined) return undefined;
    // A sign-in, a 401's refresh or a step-up under way will bring new tokens anyway.
    if (this.#pending || this.#authorizing || this.#noRefresh) return undefined;
    const now = this.#now();
    if (this.#aheadFailedAt !== undefined && now < this.#aheadFailedAt + REFRESH_AHEAD_RETRY_MS) return undefined;
    const lifetimeMs = tokens.expires_in * 1000;
    const expiry = tokensSavedAt + lifetimeMs;
    return now >= expiry - Math.min(REFRESH_AHEAD_MS, lifetimeMs / 2) ? expiry : undefined;
  }

  async #refreshAhead(): Promise<void> {
    try {
      await this.#auth({}, { ahead: true });
      this.#aheadFailedAt = undefined;
    } catch {
      // Not refreshed (the refresh token refused, or the authorization server unreachable): the
      // token in hand goes, or none if the refresh token was refused and the tokens forgotten.
      this.#aheadFailedAt = this.#now();
    }
  }

  #now(): number {
    return this.#options.now?.() ?? Date.now();
  }

  /** The sign-in page waiting for the user's consent, if one is. */
  get pendingSignIn(): { authorizationUrl: string; issuer: string } | undefined {
    const pending = this.#pending;
    return pending && { authorizationUrl: pending.authorizationUrl.href, issuer: pending.recordedIssuer };
  }

  /**
   * Resolves once the next sign-in completes (its tokens stored: the host then connects the
   * server again), at once when none waits and the server is signed in. Rejects with a
   * {@link SignInEndedError} once the sign-in is given up instead: it failed (refused, declined,
   * not completed in time), the person cancelled it or signed out, or this sign-in was closed. A
   * newer sign-in page, or a change of client, drops the page under way but not this wait: the
   * person may still sign in (`onNewPage` is told of each new page made meanwhile: it waits
   * {@link SIGN_IN_WAIT_MS} of its own). Rejects with the signal's reason once it aborts.
   */
  untilSignedIn(signal?: AbortSignal, onNewPage?: () => void): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    if (!this.#pending && this.#view?.status === 'signed-in') return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const waiter = {
        newPage: () => onNewPage?.(),
        resolve: () => {
          signal?.removeEventListener('abort', abort);
          resolve();
        },
        reject: (error: SignInEndedError) => {
          signal?.removeEventListener('abort', abort);
          reject(error);
        }
      };
      const abort = () => {
        this.#signInWaiters.delete(waiter);
        reject(signal?.reason as Error);
      };
      signal?.addEventListener('abort', abort, { once: true });
      this.#signInWaiters.add(waiter);
    });
  }

  /** Tells every {@link untilSignedIn} how the sign-in ended: completed (no error), or given up. */
  #settleSignInWaiters(ended?: SignInEndedError): void {
    const waiters = [...this.#signInWaiters];
    this.#signInWaiters.clear();
    for (const waiter of waiters) {
      if (ended) waiter.reject(ended);
      else waiter.resolve();
    }
  }

  /** The person agreed: the sign-in page to open (if one waits), and the view says Taskdesk waits for the browser. */
  openSignIn(): { authorizationUrl: string; issuer: string } | undefined {
    const pending = this.#pending;
    if (!pending) return undefined;
    if (!pending.opened) {
      pending.opened = true;
      this.#setView({ status: 'sign-in-required', issuer: pending.recordedIssuer, waiting: true });
    }
    return this.pendingSignIn;
  }

  /** Stops waiting for the browser; the next sign-in starts afresh (a new page, a new PKCE verifier). */
  cancelSignIn(): void {
    const pending = this.#pending;
    if (!pending) return;
    this.#closePending(
      `You cancelled this sign-in to ${this.#options.serverName} in Taskdesk, so it was not used. You can close this tab; to sign in, start again from Taskdesk.`
    );
    this.#codeVerifier = undefined;
    this.#setView(this.#notWaitingView(pending.recordedIssuer));
    this.#settleSignInWaiters(new SignInEndedError('cancelled'));
  }

  // --- OAuthClientProvider -------------------------------------------------------------

  /** None for a client that signs in without a browser: the SDK's `auth()` then asks for a token directly. */
  get redirectUrl(): string | undefined {
    if (this.#record.clientCredentials) return undefined;
    return this.#pending?.loopback.redirectUri ?? REGISTERED_REDIRECT_URI;
  }

  get clientMetadataUrl(): string | undefined {
    return this.#options.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    if (this.#record.clientCredentials)
      return {
        client_name: 'Taskdesk',
        redirect_uris: [],
        grant_types: ['client_credentials'],
        ...(this.#record.clientKey && { token_endpoint_auth_method: 'private_key_jwt' }),
        ...(this.#record.scope !== undefined && { scope: this.#record.scope })
      };
    // The SDK's type lacks `application_type` (OpenID Connect Registration); it is sent as given.
    const metadata: OAuthClientMetadata & { application_type: string } = {
      client_name: 'Taskdesk',
      // SEP-837: a desktop app with a loopback redirect is a native client.
      application_type: 'native',
      redirect_uris: [REGISTERED_REDIRECT_URI],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      ...(this.#record.scope !== undefined && { scope: this.#record.scope })
    };
    return metadata;
  }

  state(): string {
    return randomBytes(24).toString('base64url');
  }

  /**
   * The token request of a client that signs in without a browser (undefined otherwise: the
   * SDK then exchanges an authorization code). The scope is the one challenged (`wanted`), else
   * what the server's metadata lists, else the one configured, as an authorization request's
   * is. Refused before any secret is sent when the authorization server lists grant types
   * without client credentials.
   */
  prepareTokenRequest(scope?: string, wanted?: string): URLSearchParams | undefined {
    if (!this.#record.clientCredentials) return undefined;
    const discovery = this.#discovery;
    const issuer = discovery?.authorizationServerMetadata?.issuer ?? String(discovery?.authorizationServerUrl ?? '');
    const notOffered = grantNotOfferedText(issuer, discovery?.authorizationServerMetadata);
    if (notOffered !== undefined) throw new Error(notOffered);
    // As the SDK chooses an authorization request's scope (SEP-835): the challenge's, the server's
    // metadata's, then the one configured ("if the server names none").
    return clientCredentialsRequest(
      wanted || discovery?.resourceMetadata?.scopes_supported?.join(' ') || scope || undefined
    );
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.#record.client;
  }

  /** The private key a client that signs in without a browser proves itself with, if it has one (a secret, like the client secret). */
  clientPrivateKey(): string | undefined {
    return this.#record.clientKey?.privateKey;
  }

  /**
   * How the client proves itself at the token endpoint when it has a private key: a JWT
   * assertion signed with it (`private_key_jwt`, RFC 7523 §2.2; the SDK's
   * `createPrivateKeyJwtAuth`, its issuer and subject the client id, its audience the
   * authorization server's issuer). Undefined otherwise: the SDK then uses the secret, if any.
   */
  #clientAssertion(): AddClientAuthentication | undefined {
    const { client, clientKey } = this.#record;
    if (!client || !clientKey) return undefined;
    return createPrivateKeyJwtAuth({
      issuer: client.client_id,
      subject: client.client_id,
      privateKey: clientKey.privateKey,
      alg: clientKey.algorithm
    });
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    const preregistered = this.#record.preregistered === true && this.#record.client?.client_id === client.client_id;
    await this.#update((record) => ({ ...record, client, preregistered }));
  }

  tokens(): OAuthTokens | undefined {
    const tokens = this.#record.tokens;
    if (!tokens || !this.#noRefresh) return tokens;
    const { refresh_token: _refresh, ...rest } = tokens;
    return rest;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const tokensSavedAt = this.#now();
    await this.#update((record) => ({ ...record, tokens, tokensSavedAt }));
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    this.#codeVerifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.#codeVerifier === undefined) throw new Error('No sign-in is under way (no PKCE code verifier).');
    return this.#codeVerifier;
  }

  /** Kept for one sign-in only: every new authorization discovers again, so a moved authorization server is seen. */
  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#pending ? this.#discovery : undefined;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    // A client's credentials go only to the authorization server it belongs to (the SDK's
    // `expectedIssuer`): checked here, before any request to it, in words.
    if (this.#record.clientCredentials) this.#checkSignInService(state);
    const issuer = state.authorizationServerMetadata?.issuer;
    // An authorization server named by protected resource metadata must be the issuer its
    // metadata names. Without that metadata (the 2025-03-26 fallback: the server's own origin
    // stands in for the authorization server) there is no issuer to hold it to.
    if (state.resourceMetadata && issuer !== undefined && !sameIssuer(issuer, state.authorizationServerUrl)) {
      throw new Error(
        `The authorization server at ${state.authorizationServerUrl} names another issuer in its metadata (${issuer}); Taskdesk does not sign in there (RFC 8414 §3.3).`
      );
    }
    this.#discovery = state;
  }

  /**
   * Where a client that signs in without a browser may send its secret (or assertion), checked
   * before any request carries it: the sign-in service saved with the client on the form; else one
   * the server's protected resource metadata names whose own metadata was read (with a token
   * endpoint), and, once a first sign-in recorded it, that one only. Never the server's own origin
   * standing in for a sign-in service it did not name (the 2025-03-26 fallback), and never over
   * plain HTTP away from this computer.
   */
  #checkSignInService(state: OAuthDiscoveryState): void {
    const serverName = this.#options.serverName;
    const url = state.authorizationServerUrl;
    const client = this.#record.client;
    const pinned = client?.issuer;
    const named = state.resourceMetadata?.authorization_servers?.some((each) => sameIssuer(each, url)) === true;
    if (client && pinned !== undefined && !sameIssuer(pinned, url)) {
      if (!named) throw new NoSignInServiceError(serverName);
      throw new Error(otherIssuerText(serverName, client.client_id, pinned, url));
    }
    const given = pinned !== undefined && this.#record.issuerGiven === true;
    if (!given && !(named && state.authorizationServerMetadata?.token_endpoint))
      throw new NoSignInServiceError(serverName);
    const tokenEndpoint = state.authorizationServerMetadata?.token_endpoint ?? new URL('/token', url).href;
    for (const address of [url, tokenEndpoint])
      if (!secureEnough(address)) throw new Error(plainHttpText(serverName, address));
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    // A client registered by hand is kept when refused, and so is the verifier of the sign-in
    // under way: the SDK then tries the same code once more and its refusal reaches the card
    // in words, not as a missing verifier.
    if (scope === 'verifier' || (scope === 'all' && !this.#record.preregistered)) this.#codeVerifier = undefined;
    if (scope === 'discovery' || scope === 'all') this.#discovery = undefined;
    if (scope === 'verifier' || scope === 'discovery') return;
    await this.#update((record) => {
      const next = { ...record };
      if (scope === 'all' || scope === 'tokens') delete next.tokens;
      if ((scope === 'all' || scope === 'client') && !record.preregistered) delete next.client;
      return next;
    });
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const discovery = this.#discovery;
    const metadata = discovery?.authorizationServerMetadata;
    const scope = authorizationUrl.searchParams.get('scope') ?? undefined;
    // SEP-2207: a client that wants a refresh token asks for offline_access where it is offered.
    const scopes = scope?.split(' ').filter(Boolean) ?? [];
    if (metadata?.scopes_supported?.includes('offline_access') && !scopes.includes('offline_access')) {
      scopes.push('offline_access');
      authorizationUrl.searchParams.set('scope', scopes.join(' '));
      if (!authorizationUrl.searchParams.getAll('prompt').includes('consent'))
        authorizationUrl.searchParams.append('prompt', 'consent');
    }
    this.#lastScope = authorizationUrl.searchParams.get('scope') ?? undefined;
    this.#closePending(
      `Taskdesk started a newer sign-in to ${this.#options.serverName}, so this one was not used. Use the newest sign-in page, or go back to Taskdesk.`
    );
    const state = authorizationUrl.searchParams.get('state') ?? this.state();
    authorizationUrl.searchParams.set('state', state);
    const loopback = await openLoopbackRedirect(state);
    authorizationUrl.searchParams.set('redirect_uri', loopback.redirectUri);
    const authorizationServerUrl = String(discovery?.authorizationServerUrl ?? new URL('/', this.#options.serverUrl));
    const pending: PendingSignIn = {
      authorizationUrl,
      loopback,
      authorizationServerUrl,
      recordedIssuer: metadata?.issuer ?? authorizationServerUrl,
      issSupported:
        (metadata as { authorization_response_iss_parameter_supported?: unknown } | undefined)
          ?.authorization_response_iss_parameter_supported === true,
      resource: authorizationUrl.searchParams.get('resource') ?? this.#options.serverUrl,
      timer: setTimeout(
        () => this.#failPending(pending, 'The sign-in was not completed in 10 minutes.'),
        SIGN_IN_WAIT_MS
      ),
      opened: false
    };
    pending.timer.unref();
    this.#pending = pending;
    this.#setView({ status: 'sign-in-required', issuer: pending.recordedIssuer });
    for (const waiter of [...this.#signInWaiters]) waiter.newPage();
    void loopback.outcome.then(
      (outcome) => this.#completeSignIn(pending, outcome),
      () => undefined
    );
  }

  // --- What the HTTP layer asks for ----------------------------------------------------

  /**
   * The server answered a request without asking for a sign-in: a failure kept from the sign-in
   * before its connection (see {@link grant}) is not the answer to a later 401.
   */
  answeredWithoutSignIn(): void {
    this.#signInBeforeConnectFailed = undefined;
  }

  /**
   * After a 401: refreshes or re-authorizes through the SDK's `auth()`. Resolves once a token is
   * stored; throws {@link SignInRequiredError} when the user must sign in (the page waits for them).
   */
  async authorize(
    challenge: { resourceMetadataUrl?: URL; scope?: string },
    asked: { byPerson?: boolean } = {}
  ): Promise<void> {
    await this.load();
    if (this.#pending) throw this.#signInRequired();
    // The person's Sign in asks anew: a failure kept from before a connection (one that was given
    // up, or never met a 401) is not its answer.
    if (asked.byPerson) this.#signInBeforeConnectFailed = undefined;
    const failedBefore = this.#signInBeforeConnectFailed;
    if (failedBefore !== undefined) {
      this.#signInBeforeConnectFailed = undefined;
      throw failedBefore;
    }
    // A refresh ahead under way: its tokens, once they come, are what this 401 wants (a second
    // refresh with the same refresh token would be refused where tokens rotate).
    const ahead = this.#refreshingAhead;
    if (ahead && !this.#authorizing) {
      const held = this.#record.tokens?.access_token;
      await ahead;
      const now = this.#record.tokens?.access_token;
      if (now !== undefined && now !== held) return;
    }
    this.#authorizing ??= this.#runAuth(challenge).finally(() => (this.#authorizing = undefined));
    return this.#authorizing;
  }

  /**
   * After a 403 `insufficient_scope`: asks for the scope already granted and the one challenged,
   * through a new authorization (never a refresh: it cannot widen a grant). At most
   * {@link MAX_STEP_UPS} times for one challenge, until the user signs out.
   */
  async stepUp(challenge: { resourceMetadataUrl?: URL; scope?: string }): Promise<void> {
    await this.load();
    if (this.#pending) throw this.#signInRequired();
    const key = challenge.scope ?? '';
    const count = (this.#stepUps.get(key) ?? 0) + 1;
    if (count > MAX_STEP_UPS) {
      throw new Error(
        `${this.#options.serverName} still refuses the request for lack of scope${challenge.scope ? ` ("${challenge.scope}")` : ''} after ${MAX_STEP_UPS} sign-ins asking for it; Taskdesk stopped asking. Sign out and in again to retry.`
      );
    }
    this.#stepUps.set(key, count);
    // A refresh ahead under way ends first: the step-up's authorization must not race it.
    await this.#refreshingAhead;
    const granted = this.#record.tokens?.scope ?? this.#lastScope;
    const wanted = [...new Set([...(granted?.split(' ') ?? []), ...key.split(' ')].filter(Boolean))].join(' ');
    this.#noRefresh = true;
    try {
      await this.#runAuth({ ...challenge, ...(wanted && { scope: wanted }) });
    } finally {
      this.#noRefresh = false;
    }
  }

  /**
   * Signs out: the tokens go, the client registration stays (the same user signing in again keeps
   * the tasks); tokens a refresh in flight brings back later are not kept. Resolves once they are
   * forgotten here, with the step that asks the authorization server to revoke the sign-in (RFC
   * 7009, see `revokeSignIn`), for the caller to take once the server is disconnected: what it did
   * is then on the view, and is its result.
   */
  async signOut(): Promise<() => Promise<SignInRevocation | undefined>> {
    await this.load();
    this.#closePending(
      `You signed out of ${this.#options.serverName} in Taskdesk, so this sign-in was not used. You can close this tab.`
    );
    this.#stepUps.clear();
    this.#generation += 1;
    this.#signInBeforeConnectFailed = undefined;
    const { tokens, grant, client } = this.#record;
    await this.#update(({ tokens: _tokens, grant: _grant, tokensSavedAt: _at, ...rest }) => rest);
    this.#setView({ status: 'signed-out' });
    this.#settleSignInWaiters(new SignInEndedError('signed-out'));
    return async () => {
      if (!tokens || !grant || !client) return undefined;
      const revocation = await this.#revoke(grant.issuer, tokens, client);
      // Unless the person signed in again meanwhile.
      if (this.#view?.status === 'signed-out')
        this.#setView({ status: 'signed-out', issuer: grant.issuer, revocation });
      return revocation;
    };
  }

  #revoke(issuer: string, tokens: OAuthTokens, client: OAuthClientInformationMixed): Promise<SignInRevocation> {
    // Signed with the key of the client that got the tokens (not of one saved since in its place).
    const assertion = client.client_id === this.#record.client?.client_id ? this.#clientAssertion() : undefined;
    return revokeSignIn({
      issuer,
      tokens,
      client,
      ...(assertion && { addClientAuthentication: assertion }),
      ...(this.#options.fetch && { fetch: this.#options.fetch })
    });
  }

  /**
   * Stores a client the user registered by hand (its secret stays in the key store). A sign-in
   * under way with the previous client is dropped, and so are the tokens it issued.
   */
  async setClient(client: {
    clientId: string;
    clientSecret?: string;
    scope?: string;
    /** Signs in without a browser (client credentials): needs the secret or a private key. */
    clientCredentials?: boolean;
    /** Signing in without a browser, the client proves itself with this key in place of a secret (`private_key_jwt`). */
    privateKey?: { pem: string; algorithm: ClientKeyAlgorithm };
    /** The authorization server the client belongs to: its credentials go nowhere else. */
    issuer?: string;
  }): Promise<void> {
    await this.load();
    if (client.clientCredentials && client.clientSecret === undefined && client.privateKey === undefined)
      throw new Error('Signing in without a browser needs the client secret or a private key.');
    if (client.privateKey !== undefined && !client.clientCredentials)
      throw new Error('A private key is used only to sign in without a browser.');
    if (client.privateKey !== undefined && client.clientSecret !== undefined)
      throw new Error('Give the client secret or a private key, not both.');
    // Read before anything changes: a key that cannot sign leaves the client as it was.
    const clientKey = client.privateKey && {
      privateKey: clientPrivateKeyPem(client.privateKey.pem, client.privateKey.algorithm),
      algorithm: client.privateKey.algorithm
    };
    if (client.issuer !== undefined && !secureEnough(client.issuer)) throw new Error(PLAIN_HTTP_ADDRESS_TEXT);
    // The same client saved again (a new secret, say) still belongs where it did, unless the person
    // gives another address: its secret then goes there, and only there.
    const held = this.#record.preregistered === true ? this.#record.client : undefined;
    const sameClient = held?.client_id === client.clientId;
    const belongsTo = client.issuer ?? (sameClient ? held?.issuer : undefined);
    const sameAddress =
      sameClient && held?.issuer !== undefined && belongsTo !== undefined && sameIssuer(held.issuer, belongsTo);
    const issuerGiven = sameAddress ? this.#record.issuerGiven === true : client.issuer !== undefined;
    const issuer = this.#closeForNewClient();
    await this.#update(
      ({
        tokens: _tokens,
        grant: _grant,
        tokensSavedAt: _at,
        clientCredentials: _cc,
        clientKey: _key,
        issuerGiven: _given,
        ...rest
      }) => ({
        ...rest,
        preregistered: true,
        client: {
          client_id: client.clientId,
          ...(client.clientSecret !== undefined && { client_secret: client.clientSecret }),
          redirect_uris: client.clientCredentials ? [] : [REGISTERED_REDIRECT_URI],
          ...(clientKey && { token_endpoint_auth_method: 'private_key_jwt' }),
          // Stamped as the SDK stamps what it registers: a client stamped for one authorization server is never sent to another.
          ...(belongsTo !== undefined && { issuer: belongsTo })
        },
        ...(issuerGiven && { issuerGiven: true }),
        ...(client.scope !== undefined ? { scope: client.scope } : {}),
        ...(client.clientCredentials && { clientCredentials: true }),
        ...(clientKey && { clientKey })
      })
    );
    this.#setView(this.#notWaitingView(issuer));
  }

  /** Forgets the client registered by hand, with its tokens: the next sign-in registers Taskdesk itself. */
  async forgetClient(): Promise<void> {
    await this.load();
    const issuer = this.#closeForNewClient();
    await this.#update(
      ({
        tokens: _t,
        grant: _g,
        client: _c,
        preregistered: _p,
        scope: _s,
        clientCredentials: _cc,
        clientKey: _key,
        issuerGiven: _given,
        ...rest
      }) => rest
    );
    this.#setView(this.#notWaitingView(issuer));
  }

  /** Drops a sign-in under way before the client changes; the issuer the card named, if any. */
  #closeForNewClient(): string | undefined {
    this.#generation += 1;
    const issuer = this.#pending?.recordedIssuer ?? this.#view?.issuer;
    this.#closePending(
      `The client Taskdesk signs in to ${this.#options.serverName} with was changed, so this sign-in was not used. Sign in again from Taskdesk.`
    );
    this.#codeVerifier = undefined;
    this.#stepUps.clear();
    this.#signInBeforeConnectFailed = undefined;
    return issuer;
  }

  /** The view with nothing under way: signed in if tokens are kept, else asking (or signed out). */
  #notWaitingView(issuer: string | undefined): SignInView {
    const { tokens, grant } = this.#record;
    if (tokens && grant)
      return {
        status: 'signed-in',
        issuer: grant.issuer,
        ...(grant.subject !== undefined && { subject: grant.subject })
      };
    if (this.#view === undefined || this.#view.status === 'signed-out') return { status: 'signed-out' };
    return { status: 'sign-in-required', ...(issuer !== undefined && { issuer }) };
  }

  /**
   * Stops waiting for a sign-in, and closes every listener: the server was removed or moved
   * (`closed`), or the host closes (`taskdesk-closed`), as who waits for it is told.
   */
  close(why: 'closed' | 'taskdesk-closed' = 'closed'): void {
    // What an `auth()` under way brings back later is not kept (it is revoked), nor is its client
    // written back: the server is gone, or its sign-in is another's now.
    this.#generation += 1;
    this.#signInBeforeConnectFailed = undefined;
    this.#closePending();
    this.#settleSignInWaiters(new SignInEndedError(why));
    for (const loopback of this.#closedSignIns) loopback.close();
    this.#closedSignIns.clear();
  }

  async #runAuth(challenge: { resourceMetadataUrl?: URL; scope?: string }): Promise<void> {
    const result = await this.#auth({
      ...(challenge.resourceMetadataUrl && { resourceMetadataUrl: challenge.resourceMetadataUrl }),
      ...(challenge.scope !== undefined && { scope: challenge.scope })
    });
    if (result === 'REDIRECT') throw this.#signInRequired();
  }

  /**
   * The SDK's `auth()` for this server. A request it could not send at all (nothing listening,
   * no such host) fails with a {@link SignInUnreachableError} naming where: fetch itself says
   * only "fetch failed", and not which of discovery's addresses it was.
   */
  async #auth(
    options: { resourceMetadataUrl?: URL; scope?: string; authorizationCode?: string },
    call: { ahead?: boolean } = {}
  ) {
    const base: FetchLike = this.#options.fetch ?? ((url, init) => fetch(url, init));
    const signal = call.ahead ? AbortSignal.timeout(REFRESH_AHEAD_TIMEOUT_MS) : undefined;
    let unreachable: string | undefined;
    const fetchFn: FetchLike = async (url, init) => {
      try {
        return await base(url, signal ? { ...init, signal } : init);
      } catch (error) {
        unreachable = String(url);
        throw error;
      }
    };
    const generation = this.#generation;
    let result: Awaited<ReturnType<typeof auth>>;
    try {
      const provider = this.#providerFor({
        generation,
        ahead: call.ahead === true,
        ...(options.scope !== undefined && { scope: options.scope })
      });
      result = await auth(provider, { serverUrl: this.#options.serverUrl, ...options, fetchFn });
    } catch (error) {
      const words = unreachable !== undefined ? this.#unreachableText(unreachable, error) : undefined;
      if (words !== undefined) throw new SignInUnreachableError(words, { cause: error });
      const client = this.#record.client;
      if (
        this.#record.clientCredentials &&
        client &&
        error instanceof OAuthError &&
        CLIENT_REFUSED.has(error.errorCode)
      ) {
        const words = clientCredentialsRefusedText(
          client.client_id,
          `${error.errorCode}: ${error.message}`,
          this.#record.clientKey ? 'private key' : 'secret'
        );
        if (generation === this.#generation) await this.#clientRefused(words);
        // Not as its cause: the connection's words would then be those of a server wanting another credential.
        // eslint-disable-next-line preserve-caught-error -- its words say all the refusal said
        throw new Error(words);
      }
      throw error;
    }
    if (
      result === 'AUTHORIZED' &&
      this.#record.clientCredentials &&
      generation === this.#generation &&
      (await this.#noteClientCredentialsGrant())
    )
      throw new Error(
        `The client Taskdesk signs in to ${this.#options.serverName} with was changed, so Taskdesk connects it again as the new client; this request was not sent. Send it again.`
      );
    return result;
  }

  /**
   * The authorization server refused the client that signs in without a browser (its secret
   * rotated or revoked, its key replaced): the token in hand is forgotten, as what it proved no
   * longer holds, and the card no longer says it is signed in but why, until the client is
   * saved again or is accepted again.
   */
  async #clientRefused(words: string): Promise<void> {
    await this.#update(({ tokens: _tokens, tokensSavedAt: _at, ...rest }) => rest);
    const issuer = this.#record.grant?.issuer ?? this.#record.client?.issuer ?? this.#view?.issuer;
    this.#setView({ status: 'sign-in-required', ...(issuer !== undefined && { issuer }), reason: words });
  }

  /**
   * A client that signs in without a browser was given a token: the grant is its own (the
   * client is who signs in), and the card says it is signed in. A new token for the same grant
   * changes nothing; one that signs it in (it was not, or no longer) is told as a sign-in.
   * Another grant than the one the connection was made with (the client changed while connected)
   * is told as a sign-in that reconnects, and resolves true: the request that brought it is not
   * sent over the connection made as the other client.
   */
  async #noteClientCredentialsGrant(): Promise<boolean> {
    const { tokens, client, grant: held } = this.#record;
    if (!tokens || !client) return false;
    const grant: OAuthGrant = {
      issuer: tokens.issuer ?? client.issuer ?? String(this.#discovery?.authorizationServerUrl ?? ''),
      clientId: client.client_id,
      resource: this.#discovery?.resourceMetadata?.resource ?? this.#options.serverUrl
    };
    const subject = subjectOf(tokens);
    if (subject !== undefined) grant.subject = subject;
    const same =
      held !== undefined &&
      held.issuer === grant.issuer &&
      held.clientId === grant.clientId &&
      held.resource === grant.resource &&
      held.subject === grant.subject;
    if (!same) await this.#update((record) => ({ ...record, grant }));
    const bound = this.#boundGrant;
    const switched =
      bound !== undefined &&
      (bound.issuer !== grant.issuer ||
        bound.clientId !== grant.clientId ||
        bound.resource !== grant.resource ||
        bound.subject !== grant.subject);
    if (switched) this.#boundGrant = grant;
    const signedInBefore = this.#view?.status === 'signed-in';
    if (same && signedInBefore && !switched) return false;
    this.#setView({ status: 'signed-in', issuer: grant.issuer, ...(subject !== undefined && { subject }) });
    if (!signedInBefore || switched)
      this.#options.onSignedIn(grant, { browser: false, ...(switched && { reconnect: true }) });
    return switched;
  }

  /**
   * This provider as one `auth()` call sees it: tokens it brings after a sign-out or a change of
   * client that came since it began are not kept but revoked (best effort); a refresh ahead
   * (`ahead`) neither keeps a PKCE verifier nor starts a sign-in, which the SDK would on a failed
   * refresh, and which is left to the server's 401 (another call's sign-in is untouched).
   */
  #providerFor(call: { generation: number; ahead: boolean; scope?: string }): OAuthClientProvider {
    const current = () => call.generation === this.#generation;
    // The client this call asks as, and its key's assertion: a late token is revoked as that
    // client, where it came from, never with a client saved since in its place (whose secret or
    // key belongs to its own sign-in service).
    const askedAs = this.#record.client;
    const askedAsAssertion = this.#clientAssertion();
    const provider: Omit<OAuthClientProvider, 'redirectUrl' | 'clientMetadata'> = {
      state: () => this.state(),
      clientInformation: () => this.clientInformation(),
      saveClientInformation: async (client) => {
        if (current()) await this.saveClientInformation(client);
      },
      tokens: () => this.tokens(),
      saveTokens: async (tokens) => {
        if (current()) return this.saveTokens(tokens);
        const issuer = (tokens as { issuer?: unknown }).issuer;
        if (askedAs && typeof issuer === 'string')
          void revokeSignIn({
            issuer,
            tokens,
            client: askedAs,
            ...(askedAsAssertion && { addClientAuthentication: askedAsAssertion }),
            ...(this.#options.fetch && { fetch: this.#options.fetch })
          }).catch(() => undefined);
      },
      saveCodeVerifier: async (verifier) => {
        if (!call.ahead) await this.saveCodeVerifier(verifier);
      },
      codeVerifier: () => this.codeVerifier(),
      invalidateCredentials: (scope) => this.invalidateCredentials(scope),
      prepareTokenRequest: (scope) => {
        // Changed or closed since this `auth()` began (a new client, a sign-out, the server
        // removed): no token request goes with the credentials it read before.
        if (!current()) throw new SignInChangedError(this.#options.serverName);
        return this.prepareTokenRequest(scope, call.scope);
      },
      discoveryState: () => this.discoveryState(),
      saveDiscoveryState: (state) => this.saveDiscoveryState(state),
      redirectToAuthorization: async (url) => {
        if (call.ahead) throw NO_SIGN_IN_AHEAD;
        if (!current()) throw new SignInChangedError(this.#options.serverName);
        await this.redirectToAuthorization(url);
      }
    };
    // Read when the SDK reads them (the redirect URI is the sign-in's own loopback once one waits).
    return Object.defineProperties(provider, {
      redirectUrl: { get: () => this.redirectUrl },
      clientMetadataUrl: { get: () => this.clientMetadataUrl },
      clientMetadata: { get: () => this.clientMetadata },
      addClientAuthentication: { get: () => this.#clientAssertion() }
    }) as OAuthClientProvider;
  }

  /** Words for a sign-in request to `url` that could not be sent; undefined when the error is no network failure. */
  #unreachableText(url: string, error: unknown): string | undefined {
    const why = networkFailureText(error, 'Is it running?');
    if (why === undefined) return undefined;
    const origin = new URL(url).origin;
    // Its own origin serves the server's protected resource metadata: the server itself is down.
    return origin === new URL(this.#options.serverUrl).origin
      ? `${this.#options.serverName} at ${origin} could not be reached to start the sign-in. ${why}`
      : `The sign-in service at ${origin} could not be reached. ${why}`;
  }

  #signInRequired(): SignInRequiredError {
    return new SignInRequiredError(this.#options.serverName, this.#pending?.recordedIssuer);
  }

  async #completeSignIn(pending: PendingSignIn, outcome: RedirectOutcome): Promise<void> {
    if (this.#pending !== pending) return;
    if (outcome.type === 'error') {
      const said = `${outcome.error}${outcome.description ? `: ${outcome.description}` : ''}`;
      this.#failPending(
        pending,
        this.#clientRefusedText(outcome.error, said) ??
          // RFC 6749 §4.1.2.1: the resource owner (most often the person, on the sign-in page) or
          // the server denied it: not said to be the server's doing.
          (outcome.error === 'access_denied'
            ? `Access was not granted: the sign-in was declined on the sign-in page (${said}). Sign in again to allow it.`
            : `The authorization server refused the sign-in: ${said}`)
      );
      return;
    }
    // RFC 9207: an iss that is present is compared exactly (no normalization) with the recorded
    // issuer, advertised or not; an advertised one must be present.
    if (outcome.iss !== undefined ? outcome.iss !== pending.recordedIssuer : pending.issSupported) {
      this.#failPending(
        pending,
        outcome.iss === undefined
          ? `The sign-in response did not name its issuer, which ${pending.recordedIssuer} promised to do; Taskdesk did not use it.`
          : `The sign-in response came from issuer ${outcome.iss}, not ${pending.recordedIssuer}; Taskdesk did not use it.`
      );
      return;
    }
    try {
      const result = await this.#auth({ authorizationCode: outcome.code });
      if (result !== 'AUTHORIZED') throw new Error('the authorization server did not issue a token');
    } catch (error) {
      const refused =
        error instanceof OAuthError
          ? this.#clientRefusedText(error.errorCode, `${error.errorCode}: ${error.message}`)
          : undefined;
      this.#failPending(pending, refused ?? `The sign-in could not be completed: ${errorMessage(error)}`);
      return;
    }
    const tokens = this.#record.tokens;
    const grant: OAuthGrant = {
      issuer: tokens?.issuer ?? pending.authorizationServerUrl,
      clientId: this.#record.client?.client_id ?? '',
      resource: pending.resource
    };
    const subject = tokens && subjectOf(tokens);
    if (subject !== undefined) grant.subject = subject;
    await this.#update((record) => ({ ...record, grant }));
    clearTimeout(pending.timer);
    pending.loopback.respond({
      ok: true,
      message: `Signed in to ${this.#options.serverName}. You can close this tab.`
    });
    pending.loopback.close();
    this.#pending = undefined;
    this.#codeVerifier = undefined;
    this.#setView({ status: 'signed-in', issuer: grant.issuer, ...(subject !== undefined && { subject }) });
    // Before the host connects the server again: who waits for the sign-in waits for that too.
    this.#settleSignInWaiters();
    this.#options.onSignedIn(grant, { browser: true });
  }

  /** Words for a client registered by hand that the authorization server refused; undefined for anything else. */
  #clientRefusedText(code: string, said: string): string | undefined {
    const client = this.#record.client;
    if (!this.#record.preregistered || !client || !CLIENT_REFUSED.has(code)) return undefined;
    return `The authorization server did not accept the client ${client.client_id} (${said}). Correct the client you registered, or use automatic registration.`;
  }

  #failPending(pending: PendingSignIn, reason: string): void {
    if (this.#pending !== pending) return;
    clearTimeout(pending.timer);
    pending.loopback.respond({ ok: false, message: `${reason} Go back to Taskdesk to try again.` });
    this.#keepTelling(pending.loopback, `${reason} Go back to Taskdesk to try again.`);
    this.#pending = undefined;
    this.#codeVerifier = undefined;
    this.#setView({ status: 'sign-in-required', issuer: pending.recordedIssuer, reason });
    this.#settleSignInWaiters(new SignInEndedError('failed', reason));
    this.#options.onSignInFailed?.(reason);
  }

  /** Drops the sign-in under way; with an `afterword`, its listener tells a browser that comes back late why. */
  #closePending(afterword?: string): void {
    const pending = this.#pending;
    if (!pending) return;
    clearTimeout(pending.timer);
    if (afterword === undefined) pending.loopback.close();
    else this.#keepTelling(pending.loopback, afterword);
    this.#pending = undefined;
  }

  #keepTelling(loopback: LoopbackRedirect, afterword: string): void {
    loopback.close(afterword);
    this.#closedSignIns.add(loopback);
    // Each closes by itself after a while; only the last few are worth closing with the host.
    if (this.#closedSignIns.size > 8) {
      const oldest = this.#closedSignIns.values().next().value!;
      oldest.close();
      this.#closedSignIns.delete(oldest);
    }
  }

  async #update(change: (record: OAuthRecord) => OAuthRecord): Promise<void> {
    await this.load();
    this.#record = await this.#options.vault.update(this.#options.serverId, change);
  }

  #setView(view: SignInView): void {
    const { registeredClientId: _old, clientCredentials: _cc, registeredIssuer: _issuer, ...rest } = view;
    const client = this.#record.preregistered ? this.#record.client?.client_id : undefined;
    const withoutBrowser = client !== undefined && this.#record.clientCredentials === true;
    const belongsTo = withoutBrowser ? this.#record.client?.issuer : undefined;
    this.#view = {
      ...rest,
      ...(client !== undefined && { registeredClientId: client }),
      ...(withoutBrowser && { clientCredentials: true as const }),
      ...(belongsTo !== undefined && { registeredIssuer: belongsTo })
    };
    this.#options.onChange({ ...this.#view });
  }
}
