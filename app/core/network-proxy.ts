import { STATUS_CODES } from 'node:http';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { Client, EnvHttpProxyAgent, Pool, fetch as undiciFetch, type buildConnector, type Dispatcher } from 'undici';

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
  const named = [
    ['http_proxy', settings.httpProxy],
    ['https_proxy', settings.httpsProxy]
  ] as const;
  for (const [name, value] of named) {
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
    proxyTunnel: false,
    ...watchingProxies(named)
  });
}

/**
 * A connection to the proxy itself that could not be made (nothing listens at its port, its host
 * name is not found…), rather than one the proxy could not make to the server. Its message names
 * the proxy without the user and password its address may hold, and the variable that names it.
 */
export class ProxyUnreachableError extends Error {
  /** The system error's code (`ECONNREFUSED`, `ENOTFOUND`…), as on the error it stands for. */
  readonly code: string;
  constructor(proxy: string, names: string, cause: NodeJS.ErrnoException, why: string) {
    super(`the proxy ${proxy} (from ${names}) could not be reached (${why})`, { cause });
    this.name = 'ProxyUnreachableError';
    this.code = cause.code ?? '';
  }
}

/** The failures to connect that leave a host unreached, in words, by the system error's code. */
const UNREACHED = new Map([
  ['ECONNREFUSED', 'connection refused'],
  ['ENOTFOUND', 'its host name was not found'],
  ['EAI_AGAIN', 'its host name could not be looked up'],
  ['ETIMEDOUT', 'the connection timed out'],
  ['UND_ERR_CONNECT_TIMEOUT', 'the connection timed out'],
  ['EHOSTUNREACH', 'no route to it'],
  ['ENETUNREACH', 'no route to it']
]);

/**
 * The client factories of an `EnvHttpProxyAgent` whose connections to a proxy `named` fail with
 * a {@link ProxyUnreachableError}: undici's own error names only an address and a port, which
 * would read as the server's or the provider's. undici makes a proxy's client with
 * `clientFactory` (for a tunnel) or with `factory` (for an http address asked by its full URL;
 * `factory` makes the clients of the servers reached directly too, which are left as they are).
 */
function watchingProxies(named: ReadonlyArray<readonly [string, string | undefined]>) {
  const proxies = new Map<string, string[]>();
  for (const [name, value] of named) {
    if (value === undefined) continue;
    const shown = shownProxy(value);
    proxies.set(shown, [...(proxies.get(shown) ?? []), name]);
  }
  const watched = (origin: string | URL, options: Pool.Options): Pool.Options => {
    const shown = shownProxy(origin);
    const names = proxies.get(shown)?.join(' and ');
    const connect = options.connect;
    if (names === undefined || typeof connect !== 'function') return options;
    const watching: buildConnector.connector = (connection, callback) =>
      connect(connection, (...[error, socket]) => {
        const code = error !== null && 'code' in error ? error.code : undefined;
        const why = typeof code === 'string' ? UNREACHED.get(code) : undefined;
        if (error === null) callback(error, socket);
        else callback(why === undefined ? error : new ProxyUnreachableError(shown, names, error, why), null);
      });
    return { ...options, connect: watching };
  };
  return {
    // As undici's own factories make them.
    factory: (origin: string | URL, options: Pool.Options) =>
      options.connections === 1
        ? new Client(origin, watched(origin, options))
        : new Pool(origin, watched(origin, options)),
    clientFactory: (origin: URL, options: Pool.Options) => new Pool(origin, watched(origin, options))
  };
}

/** A proxy's address as a message shows it: its scheme, host and port, never a user or password. */
function shownProxy(address: string | URL): string {
  const url = new URL(address);
  return `${url.protocol}//${url.host}`;
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
 * What went wrong with the proxy itself, in words, or undefined for any other failure: without
 * it the failure read as the server's ("Is the server running?") or the provider's. Either the
 * proxy could not be reached (a {@link ProxyUnreachableError}), it would not open a tunnel to
 * an https address (undici says "Proxy response (407) !== 200 when HTTP Tunneling" under fetch's
 * "fetch failed"), or it asked for a password for an http address.
 */
export function proxyFailure(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    if (current instanceof ProxyUnreachableError) return `${current.message}: check the proxy setting`;
    const message = (current as { message?: unknown }).message;
    // A tunnel refused says "Proxy response (N) !== 200 when HTTP Tunneling"; an http address
    // asked of the proxy by its full URL and answered 407, "Proxy Authentication Required (407)".
    const status =
      typeof message === 'string'
        ? (/^Proxy response \((\d{3})\) !== 200 when HTTP Tunneling/.exec(message)?.[1] ??
          /^Proxy Authentication Required \((407)\)$/.exec(message)?.[1])
        : undefined;
    if (status !== undefined) {
      const said = `the proxy answered HTTP ${status} ${STATUS_CODES[status] ?? ''}`.trimEnd();
      return status === '407'
        ? `${said}: check the user and password in the proxy's address (https_proxy, or http_proxy)`
        : `${said} instead of connecting (the server may be down, or out of the proxy's reach)`;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
