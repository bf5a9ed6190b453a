import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { EnvHttpProxyAgent, fetch as undiciFetch, type Dispatcher } from 'undici';

/**
 * The proxy Taskdesk's own connections go through (LLM providers, MCP servers over HTTP, their
 * sign-in): read, as curl and most tools read it, from `https_proxy`/`HTTPS_PROXY` for https
 * addresses (`http_proxy` when it is not set), `http_proxy`/`HTTP_PROXY` for http ones, and
 * `no_proxy`/`NO_PROXY` for the hosts reached directly. Node's own `fetch` reads none of them.
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

/** The proxy settings in `env` (lower case first, as curl reads them), or undefined when none names a proxy. */
export function proxyFromEnvironment(env: NodeJS.ProcessEnv = process.env): ProxySettings | undefined {
  const read = (name: string) => {
    const value = env[name] ?? env[name.toUpperCase()];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  };
  const httpProxy = read('http_proxy');
  const httpsProxy = read('https_proxy');
  if (httpProxy === undefined && httpsProxy === undefined) return undefined;
  const noProxy = read('no_proxy');
  return {
    ...(httpProxy !== undefined && { httpProxy }),
    ...(httpsProxy !== undefined && { httpsProxy }),
    ...(noProxy !== undefined && { noProxy })
  };
}

/**
 * A dispatcher that sends each request through the proxy its address calls for, or directly
 * (loopback, and the hosts `noProxy` names: undici's `EnvHttpProxyAgent`, given the settings
 * rather than reading the environment itself, so that a test or the host can set them).
 */
export function proxyDispatcher(settings: ProxySettings): Dispatcher {
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
