import { STATUS_CODES } from 'node:http';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { proxyFailure } from '../core/network-proxy.js';

/**
 * Words for a connection that failed below MCP, on the network: Node's `fetch` says only
 * "fetch failed" and keeps the reason (a system error's code, address and port) in its `cause`.
 * No library maps these codes to sentences a person can act on, so this small table does.
 * An HTTP server that answered, but with an error status, is {@link httpFailureText}'s.
 *
 * `check` replaces the question that follows a refused connection ("Is the server running, and
 * is the URL's port right?"), for an address the person did not enter (a sign-in service's).
 */
export function networkFailureText(error: unknown, check?: string): string | undefined {
  const proxy = proxyFailure(error);
  // The proxy's own words lead ("The proxy … could not be reached"): the caller says what could not be done.
  if (proxy !== undefined) return `${proxy.charAt(0).toUpperCase()}${proxy.slice(1)}.`;
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const cause = current as { code?: unknown; address?: unknown; port?: unknown; hostname?: unknown; cause?: unknown };
    const code = typeof cause.code === 'string' ? cause.code : undefined;
    const where =
      typeof cause.address === 'string'
        ? `${cause.address}${typeof cause.port === 'number' ? `:${cause.port}` : ''}`
        : typeof cause.hostname === 'string'
          ? cause.hostname
          : 'the server';
    const words = code ? sentence(code, where) : undefined;
    // The code closes the sentence it names; a question about what to check comes after it.
    if (typeof words === 'object') return `${words.what} (${code}). ${check ?? words.check}`;
    if (words) return `${words} (${code}).`;
    if (refusesPort(current))
      return 'Taskdesk cannot connect to this port: it is one of the ports web clients refuse (as browsers do). Use another port.';
    current = cause.cause;
  }
  return undefined;
}

/**
 * Whether `error` (or what caused it) is Node's fetch refusing a port that browsers block (1, 9,
 * 21, 25, 6000…) before it connects: no server behind it is at fault, the port is.
 */
export function isBadPort(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    if (refusesPort(current)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Whether this error itself (not what caused it) is fetch's refusal of a blocked port. */
function refusesPort(error: object): boolean {
  return (error as { message?: unknown }).message === 'bad port';
}

function sentence(code: string, where: string): string | { what: string; check: string } | undefined {
  switch (code) {
    case 'ECONNREFUSED':
      return {
        what: `Nothing is listening at ${where}`,
        check: "Is the server running, and is the URL's port right?"
      };
    case 'ENOTFOUND':
      return `The host name ${where} was not found: is the URL right?`;
    case 'EAI_AGAIN':
      return `The host name ${where} could not be looked up just now: is the network up?`;
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `Connecting to ${where} timed out: is the server up, and reachable from here?`;
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return `${where} closed the connection before it answered`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `${where} cannot be reached from this network`;
    case 'CERT_HAS_EXPIRED':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `The TLS certificate of ${where} is not trusted`;
    default:
      return undefined;
  }
}

/** Where an HTTP failure happened, as a reason may show it. */
export interface HttpFailurePlace {
  /** The server's URL without user info or query (`redactUrl`). */
  url: string;
  /** Hides the server's secrets in text it sent back (`redactServerText`), before the text is cut. */
  redact(text: string): string;
}

/** The most of a server's own words a reason quotes. */
const SAID_MAX = 160;

/**
 * Words for a Streamable HTTP server that answered with an HTTP error instead of MCP. The SDK's
 * `StreamableHTTPError` says only "Error POSTing to endpoint:" and the raw body; it keeps the
 * status in `code` (−1 for a content type that is not MCP's). The reason names the status in
 * words with what to check, and quotes the message of the body, if it has one, cut short.
 *
 * A 401 that reached Taskdesk's OAuth client and failed there (an `OAuthError` from the SDK's
 * `auth()`: the server has no OAuth metadata, or its endpoints refused) says that the server
 * wants a credential, rather than quoting the OAuth client's complaint.
 */
export function httpFailureText(error: unknown, place: HttpFailurePlace): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    if (current instanceof StreamableHTTPError) return statusText(current, place);
    if (current instanceof OAuthError) return signInText(current, place);
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function statusText(error: StreamableHTTPError, place: HttpFailurePlace): string | undefined {
  const detail = error.message.replace(/^Streamable HTTP error: /, '');
  const path = pathOf(place.url);
  const usual = path.endsWith('/sse')
    ? '(Taskdesk speaks Streamable HTTP, whose address usually ends in /mcp, not the older SSE transport.)'
    : path.endsWith('/mcp')
      ? undefined
      : '(MCP servers usually end in /mcp.)';
  if (error.code === -1) {
    const type = /^Unexpected content type: (.*)$/.exec(detail)?.[1]?.trim();
    if (!type) return undefined;
    const what = type.startsWith('text/html') ? `a web page (${type})` : type;
    return `The server at ${place.url} answered with ${what}, not MCP: is the address that of an MCP server?${usual ? ` ${usual}` : ''}`;
  }
  const status = error.code;
  if (status === undefined || !Number.isInteger(status) || status < 100 || status > 599) return undefined;
  const phrase = STATUS_CODES[status];
  const head = `The server at ${place.url} answered ${status}${phrase ? ` ${phrase}` : ''}`;
  const body = detail.replace(/^(Error POSTing to endpoint|Failed to open SSE stream): /, '');
  const said = saidOf(status, body, phrase, place);
  const hint = statusHint(status, path, usual);
  return `${head}${hint ? `: ${hint}` : '.'}${said ? ` It said: "${said}".` : ''}`;
}

/** What to check for a status, as a sentence ending in its own punctuation; undefined for none. */
function statusHint(status: number, path: string, usual: string | undefined): string | undefined {
  if (status >= 300 && status < 400)
    return 'it points elsewhere, and Taskdesk follows a redirect only within the same origin. If the address it points to is right, use that one.';
  switch (status) {
    case 401:
      return "it did not take the credentials Taskdesk sent. Check the Authorization header (or the key) in the server's settings (Edit…).";
    case 403:
      return "it refuses access. Do the credentials in the server's settings allow it, and does the server accept requests from this machine?";
    case 404:
      return path.endsWith('/mcp')
        ? 'is the address right, and is an MCP server there?'
        : `is the address right? ${usual}`;
    case 405:
      return `it does not take MCP requests at this address.${usual ? ` ${usual}` : ' Is it the MCP endpoint?'}`;
    case 408:
    case 504:
      return 'the server, or a proxy in front of it, did not answer in time. Is it running?';
    case 429:
      return 'it is limiting how many requests it takes. Try again later.';
    case 502:
    case 503:
      return 'the server, or a proxy in front of it, is not available just now. Is it running?';
    default:
      return status >= 500 ? 'the server failed; its own log should say why.' : undefined;
  }
}

/**
 * The message a response body carries, redacted and cut: a JSON error's message (`error.message`,
 * `error_description`, `detail`…), an HTML page's `<pre>`, heading or title, or plain text.
 * Nothing when the body only repeats the status, or is empty.
 */
function saidOf(status: number, body: string, phrase: string | undefined, place: HttpFailurePlace): string | undefined {
  const found = status >= 300 && status < 400 ? body.replace(/ \(redirectPolicy: [^)]*\)$/, '') : messageOf(body);
  if (!found) return undefined;
  const text = place.redact(found).replace(/\s+/g, ' ').trim();
  const letters = (words: string) => words.toLowerCase().replace(/[^a-z]/g, '');
  if (!text || text === 'null' || letters(text) === letters(phrase ?? '')) return undefined;
  return cut(text, SAID_MAX);
}

function messageOf(body: string): string | undefined {
  const text = body.trim();
  if (!text) return undefined;
  try {
    return messageIn(JSON.parse(text), 0);
  } catch {
    // Not JSON: an HTML page or plain text.
  }
  if (/^<|<\/(html|body|head)>/i.test(text)) {
    for (const tag of ['pre', 'h1', 'title']) {
      const inner = new RegExp(`<${tag}[^>]*>([\\s\\S]*?)</${tag}>`, 'i').exec(text)?.[1];
      const plain = inner?.replace(/<[^>]*>/g, ' ').trim();
      if (plain && plain.toLowerCase() !== 'error') return plain;
    }
    return undefined;
  }
  return text;
}

/** The first message a JSON body holds: its own `message` and the like, then its `error`'s. */
function messageIn(value: unknown, depth: number): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value) || depth > 2) return undefined;
  const record = value as Record<string, unknown>;
  for (const key of ['message', 'error_description', 'detail', 'error', 'title', 'msg']) {
    const found = messageIn(record[key], depth + 1);
    if (found) return found;
  }
  return undefined;
}

function signInText(error: OAuthError, place: HttpFailurePlace): string {
  // The SDK's words for an OAuth endpoint that did not answer as OAuth: its status says enough.
  const status = /^HTTP (\d{3}): Invalid OAuth error response/.exec(error.message)?.[1];
  const phrase = status ? STATUS_CODES[Number(status)] : undefined;
  const why = status
    ? `an OAuth request got ${status}${phrase ? ` ${phrase}` : ''}`
    : cut(place.redact(error.message).replace(/\s+/g, ' ').trim(), SAID_MAX);
  return `The server at ${place.url} asks for authorization, and Taskdesk could not sign in to it with OAuth (${why}). If it takes an API key or a token instead, add it as a header (Authorization) in the server's settings (Edit…).`;
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname.replace(/\/+$/, '');
  } catch {
    return '';
  }
}

/** `text` cut to `max` characters, at a space when one is near, with an ellipsis. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max - 1);
  const space = head.lastIndexOf(' ');
  return `${space > max * 0.7 ? head.slice(0, space) : head}…`;
}
