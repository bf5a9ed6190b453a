import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The header the page sends its access token in. */
export const TOKEN_HEADER = 'x-taskdesk-token';

/** A fresh access token: 256 random bits, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Why a request was refused, with the HTTP status to refuse it with. */
export interface Refusal {
  status: 401 | 403;
  message: string;
}

/**
 * Checks that a request comes from our own page, before it can reach the host API.
 *
 * Three independent locks, because a local web page can send requests to 127.0.0.1:
 * - the `Host` header must name this server (a DNS-rebinding page sends its own name);
 * - a present `Origin` (always sent on POST and on cross-origin requests) must be ours,
 *   and `Sec-Fetch-Site`, when the browser sends it, must say same-origin;
 * - the access token must match. It is in the header; only the event stream may carry
 *   it in the query, since `EventSource` cannot set headers.
 */
export class RequestGuard {
  readonly #token: Buffer;
  readonly #allowedHosts: Set<string>;

  constructor(token: string, port: number) {
    this.#token = Buffer.from(token);
    this.#allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  }

  /** The origins our page can have (the one it was opened under). */
  origins(): string[] {
    return [...this.#allowedHosts].map((host) => `http://${host}`);
  }

  /** Checks `Host` only: enough for the static files, which hold no secret. */
  checkHost(request: IncomingMessage): Refusal | undefined {
    const host = request.headers.host;
    if (!host || !this.#allowedHosts.has(host.toLowerCase())) return { status: 403, message: 'Unexpected Host header' };
    return undefined;
  }

  /** Checks everything an API request must carry. */
  checkApi(request: IncomingMessage, options: { tokenInQuery: boolean; requireOrigin: boolean }): Refusal | undefined {
    const hostRefusal = this.checkHost(request);
    if (hostRefusal) return hostRefusal;
    const origin = request.headers.origin;
    if (origin === undefined) {
      if (options.requireOrigin) return { status: 403, message: 'Missing Origin header' };
    } else if (origin !== `http://${request.headers.host?.toLowerCase()}`) {
      return { status: 403, message: 'Foreign Origin' };
    }
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin') return { status: 403, message: 'Cross-site request' };
    const presented = this.#presentedToken(request, options.tokenInQuery);
    if (presented === undefined || !this.#matches(presented)) return { status: 401, message: 'Missing or wrong token' };
    return undefined;
  }

  #presentedToken(request: IncomingMessage, tokenInQuery: boolean): string | undefined {
    const header = request.headers[TOKEN_HEADER];
    if (typeof header === 'string') return header;
    if (!tokenInQuery) return undefined;
    return new URL(request.url ?? '/', 'http://127.0.0.1').searchParams.get('token') ?? undefined;
  }

  #matches(presented: string): boolean {
    const candidate = Buffer.from(presented);
    // timingSafeEqual needs equal lengths; the length itself is not secret.
    return candidate.length === this.#token.length && timingSafeEqual(candidate, this.#token);
  }
}
