/**
 * A local OAuth authorization server and an MCP server it protects, both on 127.0.0.1, for
 * the sign-in tests. Built on the SDK's own server-side auth: `mcpAuthRouter` (metadata,
 * registration, authorization, token endpoints) over an in-memory provider, and
 * `requireBearerAuth` in front of a Streamable HTTP MCP endpoint.
 *
 * The authorization page asks for consent (a page with an "Allow" and a "Deny" link), unless
 * `consent` is `auto`; the user it signs in is `servers.user`, so a test can sign in as someone
 * else. Clients register themselves (RFC 7591) or are registered by a test with
 * `servers.registerClient` (as a person registers one by hand); an unknown client id is refused
 * as the SDK's authorization handler refuses it (a 400 page, no redirect: RFC 6749 §4.1.2.1), a
 * wrong client secret at the token endpoint with `invalid_client`.
 * Access tokens are JWT-shaped (unsigned; only this server reads them) with the user as `sub`.
 * Tokens can be revoked (RFC 7009, the SDK's revocation endpoint) unless `revocation` is false.
 *
 * With `clientCredentials`, the authorization server also lists and answers the client
 * credentials grant (RFC 6749 §4.4) for a client registered by hand that authenticates with
 * HTTP Basic (`client_secret_basic`): the token is the client's own (its id is `sub`), with no
 * refresh token. A client registered with a public key (`registerClient({ publicKey })`) proves
 * itself instead with a JWT assertion signed by its private key (`private_key_jwt`, RFC 7523
 * §2.2), checked as test/support/client-assertion.ts says. Every request to the authorization server is kept, to look for a secret where
 * it must not go; the protected resource metadata can be made to name another authorization
 * server (`authorizationServerOf`).
 */
import http from 'node:http';
import { AssertionRefused, JWT_BEARER_ASSERTION, verifyClientAssertion } from './client-assertion.js';
import { createPublicKey, randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  createOAuthMetadata,
  getOAuthProtectedResourceMetadataUrl,
  mcpAuthMetadataRouter,
  mcpAuthRouter
} from '@modelcontextprotocol/sdk/server/auth/router.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { InvalidGrantError, InvalidTokenError, ServerError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import {
  CreateTaskResultSchema,
  GetTaskResultSchema,
  TaskStatusNotificationSchema
} from '@modelcontextprotocol/sdk/types.js';

/**
 * Express's request and response as this file uses them. The SDK builds its auth endpoints on
 * express, whose type declarations are not installed here (adding `@types/express` would be a
 * dependency for one test helper), so the SDK's express types read as `any`; these name what is used.
 */
interface ExpressRequest {
  query: Record<string, unknown>;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}
interface ExpressResponse extends http.ServerResponse {
  status(code: number): ExpressResponse;
  type(type: string): ExpressResponse;
  send(body: string): ExpressResponse;
  redirect(status: number, url: string): void;
}
interface ExpressApp {
  (req: http.IncomingMessage, res: http.ServerResponse): void;
  get(path: string, handler: (req: ExpressRequest, res: ExpressResponse) => void): void;
  all(path: string, ...handlers: unknown[]): void;
  use(handler: unknown): void;
}

/** The running pair and what a test may do to it. */
export interface OAuthTestServers {
  /** The authorization server's issuer URL. */
  issuer: string;
  /** The protected MCP endpoint. */
  mcpUrl: string;
  /** Who the next sign-in signs in. */
  user: string;
  /** How many refresh-token grants were answered. */
  readonly refreshes: number;
  /** How many authorization codes were issued. */
  readonly signIns: number;
  /** Every access token issued (to look for them where they must not be). */
  readonly issuedTokens: string[];
  /** Resolves once the client announces (`notifications/tasks/status`) that a task reached `status`. */
  taskStatus(taskId: string, status: string): Promise<void>;
  /**
   * Registers a client as a person does by hand on the authorization server's site; with a
   * `publicKey` (PEM or a key), it proves itself with assertions signed by the private key.
   */
  registerClient(client: { clientId: string; clientSecret?: string; publicKey?: string | KeyObject }): void;
  /** How many client credentials grants were answered with a token. */
  readonly clientCredentialsGrants: number;
  /** How many revocation requests came with a client assertion that was verified (`private_key_jwt`). */
  readonly assertedRevocations: number;
  /** How many requests reached the authorization server carrying `text` (in a header, decoded Basic credentials, or the body). */
  requestsCarrying(text: string): number;
  /** How many token requests the authorization server received, of any grant, answered or refused. */
  readonly tokenRequests: number;
  /** The authorization server the MCP server's protected resource metadata names (its own, unless set). */
  authorizationServerOf: string;
  /** Makes every access token issued so far invalid (the next request gets a 401). */
  expireAccessTokens(): void;
  /** Makes every refresh token invalid too (a refresh then fails with invalid_grant). */
  revokeRefreshTokens(): void;
  /**
   * The next `count` `tools/call` requests find every access and refresh token revoked just before
   * they are checked: each is answered 401, and no refresh helps (a sign-in is needed).
   */
  revokeOnToolCalls(count: number): void;
  /** How many `tools/call` requests passed the bearer check (reached the MCP server). */
  readonly toolCallsReached: number;
  /** How many requests of `method` (`tools/list`, `tools/call`…) the bearer check refused (401 or 403). */
  refused(method: string): number;
  /** Every revocation request answered (RFC 7009), with the client that sent it. */
  readonly revocations: Array<{ clientId: string; token: string; hint?: string }>;
  /** Whether a refresh token still refreshes. */
  refreshTokenValid(token: string): boolean;
  /** Makes the revocation endpoint answer 500 server_error from now on (or again normally). */
  failRevocations: boolean;
  /** Makes refresh-token grants answer 500 server_error from now on (or again normally). */
  failRefreshes: boolean;
  /** Makes refresh-token grants wait, their tokens issued but not yet answered, until {@link releaseRefreshes}. */
  holdRefreshes(): void;
  /** Answers the refresh-token grants held so far (and holds no more). */
  releaseRefreshes(): void;
  /** Resolves once `check` holds, looked at after each refresh and revocation answered (and at once). */
  until(check: () => boolean): Promise<void>;
  /** Stops the authorization server only: the MCP server still answers, and names it. */
  closeAuthorizationServer(): Promise<void>;
  close(): Promise<void>;
}

interface Grant {
  clientId: string;
  subject: string;
  scopes: string[];
  resource?: URL;
}

/** Starts both servers. */
export async function startOAuthTestServers(
  options: {
    consent?: 'page' | 'auto';
    revocation?: boolean;
    /** The MCP server of each new session, in place of the protected server's `whoami` and the rest. */
    mcpServer?: () => McpServer;
    /** Lists and answers the client credentials grant (with `client_secret_basic`). */
    clientCredentials?: boolean;
    /** How long access tokens are said to live (`expires_in`, seconds; default an hour). */
    tokenLifetime?: number;
  } = {}
): Promise<OAuthTestServers> {
  const asHttp = http.createServer();
  const mcpHttp = http.createServer();
  await Promise.all([listen(asHttp), listen(mcpHttp)]);
  // As the SDK's router writes it in the metadata (`URL.href`: with the trailing slash).
  const issuer = new URL(`http://127.0.0.1:${(asHttp.address() as AddressInfo).port}`).href;
  const mcpUrl = `http://127.0.0.1:${(mcpHttp.address() as AddressInfo).port}/mcp`;

  const clients = new Map<string, OAuthClientInformationFull>();
  /** The public key of each client registered with one (`private_key_jwt`). */
  const clientKeys = new Map<string, KeyObject>();
  /** The `jti` of every client assertion taken: one is never taken twice. */
  const assertionIds = new Set<string>();
  const pendingAuthorizations = new Map<string, { client: OAuthClientInformationFull; params: AuthorizationParams }>();
  const codes = new Map<string, { params: AuthorizationParams; grant: Grant }>();
  const accessTokens = new Map<string, Grant & { expiresAt: number }>();
  const refreshTokens = new Map<string, Grant>();
  const issuedTokens: string[] = [];
  const state = {
    refreshes: 0,
    signIns: 0,
    user: 'alice',
    failRevocations: false,
    failRefreshes: false,
    revokeOnToolCalls: 0,
    toolCallsReached: 0,
    clientCredentialsGrants: 0,
    assertedRevocations: 0,
    tokenRequests: 0,
    authorizationServerOf: issuer
  };
  /** Every request to the authorization server: its headers (Basic credentials decoded) and body. */
  const asRequests: string[] = [];
  const revocations: OAuthTestServers['revocations'] = [];
  const refusedByMethod = new Map<string, number>();
  let held: Array<() => void> | undefined;
  const watchers = new Set<{ check: () => boolean; resolve: () => void }>();
  const looked = () => {
    for (const watcher of [...watchers])
      if (watcher.check()) {
        watchers.delete(watcher);
        watcher.resolve();
      }
  };
  const statusWaiters = new Set<{ taskId: string; status: string; resolve: () => void }>();

  const lifetime = options.tokenLifetime ?? 3600;
  const issue = (grant: Grant, refresh = true): OAuthTokens => {
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url');
    const payload = Buffer.from(
      JSON.stringify({ iss: issuer, sub: grant.subject, jti: randomUUID(), aud: mcpUrl })
    ).toString('base64url');
    const accessToken = `${header}.${payload}.`;
    issuedTokens.push(accessToken);
    accessTokens.set(accessToken, { ...grant, expiresAt: Math.floor(Date.now() / 1000) + lifetime });
    const refreshToken = refresh ? randomBytes(24).toString('base64url') : undefined;
    if (refreshToken !== undefined) {
      issuedTokens.push(refreshToken);
      refreshTokens.set(refreshToken, grant);
    }
    return {
      access_token: accessToken,
      token_type: 'bearer',
      expires_in: lifetime,
      ...(refreshToken !== undefined && { refresh_token: refreshToken }),
      scope: grant.scopes.join(' ')
    };
  };

  const approve = (id: string, res: ExpressResponse) => {
    const pending = pendingAuthorizations.get(id);
    if (!pending) {
      res.status(400).send('Unknown authorization request');
      return;
    }
    pendingAuthorizations.delete(id);
    state.signIns += 1;
    const code = randomBytes(16).toString('base64url');
    codes.set(code, {
      params: pending.params,
      grant: {
        clientId: pending.client.client_id,
        subject: state.user,
        scopes: pending.params.scopes ?? [],
        ...(pending.params.resource && { resource: pending.params.resource })
      }
    });
    const target = new URL(pending.params.redirectUri);
    target.searchParams.set('code', code);
    if (pending.params.state !== undefined) target.searchParams.set('state', pending.params.state);
    target.searchParams.set('iss', issuer);
    res.redirect(302, target.href);
  };

  /** Denied on the consent page: back to the client with `access_denied` (RFC 6749 §4.1.2.1). */
  const deny = (id: string, res: ExpressResponse) => {
    const pending = pendingAuthorizations.get(id);
    if (!pending) {
      res.status(400).send('Unknown authorization request');
      return;
    }
    pendingAuthorizations.delete(id);
    const target = new URL(pending.params.redirectUri);
    target.searchParams.set('error', 'access_denied');
    target.searchParams.set('error_description', 'The user denied the request');
    if (pending.params.state !== undefined) target.searchParams.set('state', pending.params.state);
    target.searchParams.set('iss', issuer);
    res.redirect(302, target.href);
  };

  const clientsStore: OAuthRegisteredClientsStore = {
    getClient: (clientId) => clients.get(clientId),
    registerClient: (client) => {
      const full = client as OAuthClientInformationFull;
      clients.set(full.client_id, full);
      return full;
    }
  };

  const provider: OAuthServerProvider = {
    get clientsStore() {
      return clientsStore;
    },
    authorize: async (client, params, response) => {
      const res = response as ExpressResponse;
      const id = randomUUID();
      pendingAuthorizations.set(id, { client, params });
      if (options.consent === 'auto') {
        approve(id, res);
        return;
      }
      res
        .status(200)
        .type('html')
        .send(
          `<!doctype html><meta charset="utf-8"><title>Test authorization server</title>` +
            `<h1>Allow ${escape(client.client_name ?? client.client_id)} to use the test MCP server as ${escape(state.user)}?</h1>` +
            `<p><a href="/consent?id=${id}">Allow</a> <a href="/deny?id=${id}">Deny</a></p>`
        );
    },
    challengeForAuthorizationCode: async (_client, code) => {
      const entry = codes.get(code);
      if (!entry) throw new InvalidGrantError('Unknown authorization code');
      return entry.params.codeChallenge;
    },
    exchangeAuthorizationCode: async (client, code) => {
      const entry = codes.get(code);
      if (!entry || entry.grant.clientId !== client.client_id)
        throw new InvalidGrantError('Unknown authorization code');
      codes.delete(code);
      return issue(entry.grant);
    },
    exchangeRefreshToken: async (client, refreshToken) => {
      if (state.failRefreshes) throw new ServerError('The token store is down');
      const grant = refreshTokens.get(refreshToken);
      if (!grant || grant.clientId !== client.client_id) throw new InvalidGrantError('The refresh token is not valid');
      refreshTokens.delete(refreshToken);
      state.refreshes += 1;
      const tokens = issue(grant);
      queueMicrotask(looked);
      // Issued, and its answer held back: as a refresh whose answer is still on its way.
      if (held) await new Promise<void>((resolve) => held?.push(resolve));
      return tokens;
    },
    // RFC 7009 (advertised unless `revocation` is false): a refresh token revoked ends the
    // access tokens of its grant too (§2.1); an unknown token is answered 200 all the same (§2.2).
    ...(options.revocation !== false && {
      revokeToken: async (client: OAuthClientInformationFull, request: { token: string; token_type_hint?: string }) => {
        if (state.failRevocations) throw new ServerError('The revocation store is down');
        revocations.push({
          clientId: client.client_id,
          token: request.token,
          ...(request.token_type_hint !== undefined && { hint: request.token_type_hint })
        });
        queueMicrotask(looked);
        const grant = refreshTokens.get(request.token) ?? accessTokens.get(request.token);
        if (!grant || grant.clientId !== client.client_id) return;
        for (const [token, each] of refreshTokens)
          if (each.clientId === grant.clientId && each.subject === grant.subject) refreshTokens.delete(token);
        for (const [token, each] of accessTokens)
          if (each.clientId === grant.clientId && each.subject === grant.subject) accessTokens.delete(token);
      }
    }),
    verifyAccessToken: async (token): Promise<AuthInfo> => {
      const grant = accessTokens.get(token);
      if (!grant) throw new InvalidTokenError('The access token is not valid');
      return {
        token,
        clientId: grant.clientId,
        scopes: grant.scopes,
        expiresAt: grant.expiresAt,
        extra: { subject: grant.subject }
      };
    }
  };

  const asApp = createMcpExpressApp({ host: '127.0.0.1' }) as ExpressApp;
  // Read here, before the SDK's handlers (whose body parser then leaves it be): every request is
  // kept, and the client credentials grant, which the SDK's token handler does not know, answered.
  asApp.use((req: ExpressRequest & http.IncomingMessage, res: ExpressResponse, next: () => void) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const text = Buffer.concat(chunks).toString('utf8');
      const basic = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
      const credentials = basic === undefined ? undefined : Buffer.from(basic, 'base64').toString('utf8');
      asRequests.push(`${req.method} ${req.url}\n${JSON.stringify(req.headers)}\n${credentials ?? ''}\n${text}`);
      const form = new URLSearchParams(text);
      if (text !== '')
        req.body = (req.headers['content-type'] ?? '').includes('json')
          ? (JSON.parse(text) as unknown)
          : Object.fromEntries(form);
      if (req.method === 'POST' && req.url === '/token') state.tokenRequests += 1;
      const refuse = (status: number, error: string, description: string) =>
        res
          .status(status)
          .type('json')
          .send(JSON.stringify({ error, error_description: description }));
      // A client that proves itself with a signed assertion, at the token or the revocation endpoint.
      const assertionType = form.get('client_assertion_type');
      let asserted: string | undefined;
      if (req.method === 'POST' && assertionType !== null) {
        if (assertionType !== JWT_BEARER_ASSERTION)
          return refuse(401, 'invalid_client', `Unknown client_assertion_type ${assertionType}`);
        try {
          asserted = verifyClientAssertion(form.get('client_assertion') ?? '', {
            clientId: form.get('client_id') ?? undefined,
            publicKeyOf: (id) => clientKeys.get(id),
            audiences: [issuer, new URL('/token', issuer).href],
            now: Math.floor(Date.now() / 1000),
            seen: assertionIds
          });
        } catch (error) {
          if (!(error instanceof AssertionRefused)) throw error;
          return refuse(401, 'invalid_client', error.message);
        }
        if (req.url === '/revoke') state.assertedRevocations += 1;
      }
      if (req.method !== 'POST' || req.url !== '/token' || form.get('grant_type') !== 'client_credentials') {
        next();
        return;
      }
      if (!options.clientCredentials)
        return refuse(400, 'unsupported_grant_type', 'The client credentials grant is not supported');
      let clientId: string;
      if (asserted !== undefined) clientId = asserted;
      else {
        const colon = credentials?.indexOf(':') ?? -1;
        clientId = credentials !== undefined && colon > 0 ? decodeURIComponent(credentials.slice(0, colon)) : '';
        const secret = credentials !== undefined && colon > 0 ? decodeURIComponent(credentials.slice(colon + 1)) : '';
        const client = clients.get(clientId);
        if (!client?.client_secret || client.client_secret !== secret)
          return refuse(401, 'invalid_client', 'Invalid client credentials');
      }
      state.clientCredentialsGrants += 1;
      const resource = form.get('resource');
      const scope = form.get('scope');
      const tokens = issue(
        {
          clientId,
          subject: clientId,
          scopes: scope ? scope.split(' ') : [],
          ...(resource !== null && URL.canParse(resource) && { resource: new URL(resource) })
        },
        false
      );
      res.status(200).type('json').send(JSON.stringify(tokens));
    })().catch((error: unknown) => {
      if (!res.headersSent) res.status(500).send(String(error));
    });
  });
  const asMetadata = createOAuthMetadata({
    provider,
    issuerUrl: new URL(issuer),
    scopesSupported: ['mcp', 'offline_access']
  });
  if (options.clientCredentials) {
    asMetadata.grant_types_supported = [...(asMetadata.grant_types_supported ?? []), 'client_credentials'];
    asMetadata.token_endpoint_auth_methods_supported = [
      'client_secret_basic',
      'private_key_jwt',
      ...(asMetadata.token_endpoint_auth_methods_supported ?? [])
    ];
    asMetadata.token_endpoint_auth_signing_alg_values_supported = ['RS256', 'PS256', 'ES256', 'ES384'];
    asApp.get(
      '/.well-known/oauth-authorization-server',
      (_req, res) => void res.status(200).type('json').send(JSON.stringify(asMetadata))
    );
  }
  asApp.get('/consent', (req, res) => approve(String(req.query.id), res));
  asApp.get('/deny', (req, res) => deny(String(req.query.id), res));
  asApp.use(mcpAuthRouter({ provider, issuerUrl: new URL(issuer), scopesSupported: ['mcp', 'offline_access'] }));
  asHttp.on('request', asApp);

  const mcpApp = createMcpExpressApp({ host: '127.0.0.1' }) as ExpressApp;
  mcpApp.get(
    getOAuthProtectedResourceMetadataUrl(new URL(mcpUrl)).replace(/^https?:\/\/[^/]+/, ''),
    (_req, res) =>
      void res
        .status(200)
        .type('json')
        .send(
          JSON.stringify({
            resource: mcpUrl,
            authorization_servers: [state.authorizationServerOf],
            scopes_supported: ['mcp']
          })
        )
  );
  mcpApp.use(
    mcpAuthMetadataRouter({
      oauthMetadata: createOAuthMetadata({
        provider,
        issuerUrl: new URL(issuer),
        scopesSupported: ['mcp', 'offline_access']
      }),
      resourceServerUrl: new URL(mcpUrl),
      scopesSupported: ['mcp']
    })
  );
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const servers: McpServer[] = [];
  const isToolCall = (req: ExpressRequest) => (req.body as { method?: unknown } | undefined)?.method === 'tools/call';
  mcpApp.all(
    '/mcp',
    (req: ExpressRequest, res: ExpressResponse, next: () => void) => {
      if (state.revokeOnToolCalls > 0 && isToolCall(req)) {
        state.revokeOnToolCalls -= 1;
        accessTokens.clear();
        refreshTokens.clear();
      }
      const method = (req.body as { method?: unknown } | undefined)?.method;
      if (typeof method === 'string')
        res.on('finish', () => {
          if (res.statusCode === 401 || res.statusCode === 403)
            refusedByMethod.set(method, (refusedByMethod.get(method) ?? 0) + 1);
        });
      next();
    },
    requireBearerAuth({
      verifier: provider,
      resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(new URL(mcpUrl))
    }),
    (req: ExpressRequest & http.IncomingMessage, res: ExpressResponse) => {
      if (isToolCall(req)) state.toolCallsReached += 1;
      void (async () => {
        const sessionId = req.headers['mcp-session-id'];
        let transport = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
        if (!transport) {
          const created = new StreamableHTTPServerTransport({
            sessionIdGenerator: () => randomUUID(),
            onsessioninitialized: (id) => void sessions.set(id, created)
          });
          const server =
            options.mcpServer?.() ??
            protectedMcpServer((params) => {
              for (const waiter of [...statusWaiters])
                if (waiter.taskId === params.taskId && waiter.status === params.status) {
                  statusWaiters.delete(waiter);
                  waiter.resolve();
                }
            });
          servers.push(server);
          await server.connect(created);
          transport = created;
        }
        await transport.handleRequest(req, res, req.body);
      })().catch((error: unknown) => {
        if (!res.headersSent) res.status(500).send(String(error));
      });
    }
  );
  mcpHttp.on('request', mcpApp);

  return {
    issuer,
    mcpUrl,
    get user() {
      return state.user;
    },
    set user(user: string) {
      state.user = user;
    },
    get refreshes() {
      return state.refreshes;
    },
    get signIns() {
      return state.signIns;
    },
    get clientCredentialsGrants() {
      return state.clientCredentialsGrants;
    },
    get assertedRevocations() {
      return state.assertedRevocations;
    },
    get tokenRequests() {
      return state.tokenRequests;
    },
    requestsCarrying: (text) => asRequests.filter((request) => request.includes(text)).length,
    get authorizationServerOf() {
      return state.authorizationServerOf;
    },
    set authorizationServerOf(url: string) {
      state.authorizationServerOf = url;
    },
    issuedTokens,
    taskStatus: (taskId, status) => new Promise<void>((resolve) => void statusWaiters.add({ taskId, status, resolve })),
    registerClient: ({ clientId, clientSecret, publicKey }) => {
      if (publicKey === undefined) clientKeys.delete(clientId);
      else clientKeys.set(clientId, typeof publicKey === 'string' ? createPublicKey(publicKey) : publicKey);
      clients.set(clientId, {
        client_id: clientId,
        ...(clientSecret !== undefined && { client_secret: clientSecret }),
        client_name: `Taskdesk (registered by hand as ${clientId})`,
        // Registered without a port: a loopback redirect may use any (RFC 8252 §7.3).
        redirect_uris: ['http://127.0.0.1/callback'],
        token_endpoint_auth_method:
          publicKey !== undefined ? 'private_key_jwt' : clientSecret !== undefined ? 'client_secret_post' : 'none'
      });
    },
    revocations,
    refreshTokenValid: (token) => refreshTokens.has(token),
    get failRevocations() {
      return state.failRevocations;
    },
    set failRevocations(fail: boolean) {
      state.failRevocations = fail;
    },
    holdRefreshes: () => {
      held ??= [];
    },
    releaseRefreshes: () => {
      const waiting = held ?? [];
      held = undefined;
      for (const release of waiting) release();
    },
    until: (check) =>
      new Promise<void>((resolve) => {
        if (check()) resolve();
        else watchers.add({ check, resolve });
      }),
    get failRefreshes() {
      return state.failRefreshes;
    },
    set failRefreshes(fail: boolean) {
      state.failRefreshes = fail;
    },
    expireAccessTokens: () => accessTokens.clear(),
    revokeOnToolCalls: (count) => void (state.revokeOnToolCalls = count),
    get toolCallsReached() {
      return state.toolCallsReached;
    },
    refused: (method) => refusedByMethod.get(method) ?? 0,
    revokeRefreshTokens: () => refreshTokens.clear(),
    closeAuthorizationServer: () => stop(asHttp),
    close: async () => {
      await Promise.all(servers.map((server) => server.close().catch(() => undefined)));
      for (const server of [asHttp, mcpHttp]) await stop(server);
    }
  };
}

/**
 * The protected server's tools: `whoami` (the signed-in subject), `elicit-as-task` (asks the
 * client a question as a task and answers with its id) and `check-task` (the client's
 * `tasks/get` for an id, or its error).
 */
function protectedMcpServer(onStatus: (params: { taskId: string; status: string }) => void): McpServer {
  const mcp = new McpServer({ name: 'protected-test-server', version: '1.0.0' }, { capabilities: { tools: {} } });
  mcp.server.setNotificationHandler(TaskStatusNotificationSchema, (notification) => onStatus(notification.params));
  const text = (value: unknown) => ({ content: [{ type: 'text' as const, text: JSON.stringify(value) }] });
  mcp.registerTool('whoami', { description: 'Who the access token belongs to' }, (extra) =>
    text({ subject: extra.authInfo?.extra?.subject })
  );
  mcp.registerTool('elicit-as-task', { description: 'Asks the client a question as a task' }, async (extra) => {
    const created = await extra.sendRequest(
      {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'Which colour?',
          requestedSchema: { type: 'object', properties: { colour: { type: 'string' } } },
          task: { ttl: 600_000 }
        }
      },
      CreateTaskResultSchema
    );
    return text({ taskId: created.task.taskId });
  });
  mcp.registerTool(
    'check-task',
    { description: "The client's tasks/get for a task id", inputSchema: { taskId: z.string() } },
    async ({ taskId }, extra) => {
      try {
        const task = await extra.sendRequest({ method: 'tasks/get', params: { taskId } }, GetTaskResultSchema);
        return text({ status: task.status });
      } catch (error) {
        return text({ error: { code: (error as { code?: number }).code, message: (error as Error).message } });
      }
    }
  );
  return mcp;
}

/** Closes a server and its connections; one already closed is left as it is. */
async function stop(server: http.Server): Promise<void> {
  if (!server.listening) return;
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

function listen(server: http.Server): Promise<void> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
