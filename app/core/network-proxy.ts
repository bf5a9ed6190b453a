import { STATUS_CODES } from 'node:http';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { EnvHttpProxyAgent, fetch as undiciFetch, type Dispatcher } from 'undici';

/**
 * The proxy Taskdesk's own connections go through (LLM providers, MCP servers over HTTP, their
 * sign-in), as undici's `EnvHttpProxyAgent` reads it: `https_proxy`/`HTTPS_PROXY` for https
 * addresses (`http_proxy` when it is not set, unlike curl), `http_proxy`/`HTTP_PROXY` for http
 * ones, and `no_proxy`/`NO_PROXY` for the hosts reached directly (names, domain suffixes,
 * `host:port`, `*`; not CIDR ranges). Node's own `fetch` reads none of them.
 */
export interface ProxySettings {
  httpProxy?: string;
  httpsProxy?: string;
  noProxy?: string;
}

/**
 * Hosts never sent to a proxy, besides those `no_proxy` names: this computer's own addresses
 * (a local model server, an MCP server on loopback), which a proxy elsewhere cannot reach.
 */
export const ALWAYS_DIRECT = ['localhost', '127.0.0.1', '[::1]'] as const;

/**
 * The proxy settings in `env` (lower case first, as curl reads them), or undefined when none
 * names a proxy. A proxy given without a scheme (`proxy.corp:3128`, which curl takes) is an
 * `http://` one.
 */
export function proxyFromEnvironment(env: NodeJS.ProcessEnv = process.env): ProxySettings | undefined {
  const read = (name: string) => {
    const value = env[name] ?? env[name.toUpperCase()];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };
  const address = (name: string) => {
    const value = read(name);
    return value === undefined || /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  };
  const httpProxy = address('http_proxy');
  const httpsProxy = address('https_proxy');
  if (httpProxy === undefined && httpsProxy === undefined) return undefined;
  const noProxy = read('no_proxy');
  return {
    ...(httpProxy !== undefined && { httpProxy }),
    ...(httpsProxy !== undefined && { httpsProxy }),
    ...(noProxy !== undefined && { noProxy })
  };
}

/** A proxy setting Taskdesk cannot use: its message names the variable, never the value (it may hold a password). */
export class ProxySettingError extends Error {}

/**
 * A dispatcher that sends each request through the proxy its address calls for, or directly
 * (loopback, and the hosts `noProxy` names: undici's `EnvHttpProxyAgent`, given the settings
 * rather than reading the environment itself, so that a test or the host can set them). Throws
 * {@link ProxySettingError} for a proxy that is not an http, https or socks5 address.
 */
export function proxyDispatcher(settings: ProxySettings): Dispatcher {
  for (const [name, value] of [
    ['http_proxy', settings.httpProxy],
    ['https_proxy', settings.httpsProxy]
  ] as const) {
    if (value === undefined) continue;
    let protocol: string;
    try {
      protocol = new URL(value).protocol;
    } catch {
      throw new ProxySettingError(`The proxy ${name} names is not an address`);
    }
    if (!['http:', 'https:', 'socks5:', 'socks:'].includes(protocol))
      throw new ProxySettingError(
        `The proxy ${name} names is a ${protocol.slice(0, -1)} one; Taskdesk takes http, https and socks5 proxies`
      );
  }
  // `*` alone means no host at all is proxied; joined to others it would be read as a host name.
  const noProxy =
    settings.noProxy === '*'
      ? '*'
      : [settings.noProxy, ...ALWAYS_DIRECT].filter((entry) => entry !== undefined).join(',');
  // An unset proxy is passed as the empty string: left out, undici would read the environment
  // after all. With no https proxy, an https address goes through the http one, as undici has it.
  return new EnvHttpProxyAgent({
    httpProxy: settings.httpProxy ?? '',
    httpsProxy: settings.httpsProxy ?? '',
    noProxy,
    // An http address is asked of the proxy by its full URL, as curl asks it, rather than through
    // a CONNECT tunnel, which proxies commonly allow to port 443 only (Squid's default rules).
    proxyTunnel: false
  });
}

/**
 * The `fetch` for MCP servers over HTTP and their sign-in through a proxy's `dispatcher` (see
 * {@link proxyDispatcher}): undici's own `fetch` (from the package rather than the one Node
 * bundles), which takes a dispatcher.
 */
export function proxiedFetch(dispatcher: Dispatcher): FetchLike {
  return (url, init) => fetchThrough(url, { ...init, dispatcher });
}

/**
 * undici's `fetch` with a dispatcher, typed as the global one: its `Response` is the global one
 * under Node's types, and a structural twin of the DOM's the tests are checked with.
 */
export const fetchThrough = undiciFetch as unknown as (
  url: string | URL,
  init: Omit<RequestInit, 'dispatcher'> & { dispatcher: Dispatcher }
) => Promise<Response>;

/**
 * What a proxy that would not open a tunnel to an https address said, in words (undici says
 * "Proxy response (407) !== 200 when HTTP Tunneling" under fetch's "fetch failed"), or undefined
 * for any other failure: without it the failure read as the server's ("Is the server running?").
 */
export function proxyRefusal(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const message = (current as { message?: unknown }).message;
    const status =
      typeof message === 'string'
        ? /^Proxy response \((\d{3})\) !== 200 when HTTP Tunneling/.exec(message)?.[1]
        : undefined;
    if (status !== undefined) {
      const said = `the proxy answered HTTP ${status} ${STATUS_CODES[status] ?? ''}`.trimEnd();
      return status === '407'
        ? `${said}: check the user and password in the proxy's address (https_proxy, or http_proxy)`
        : `${said} instead of connecting`;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
