import { z } from 'zod';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { MODERN_PROTOCOL_VERSION, SPOKEN_VERSIONS } from './modern-protocol.js';
import type { ServerConfig } from './server-config.js';

/**
 * Words for a server whose answer to `initialize` the SDK's `Client.connect` rejected, or that
 * gave none in time ({@link unansweredText}).
 *
 * The SDK rejects an answer its `InitializeResultSchema` does not accept with the bare
 * `ZodError` (its message is the issues as pretty-printed JSON), an answer the Streamable HTTP
 * transport cannot read as JSON-RPC with the `ZodError` of its message schema, and a protocol
 * version it does not know with "Server's protocol version is not supported: X". None of these
 * reads well as a reason; this module says what was wrong instead.
 *
 * Relies on (SDK 1.32.2, checked by `test/unit/mcp/initialize-failure.test.ts`): those errors
 * reaching the caller of `connect` unwrapped, with that message.
 */

/** The most problems a reason lists before "and N more". */
const SHOWN_ISSUES = 3;
/** The most of a server's protocol version a reason quotes. */
const VERSION_MAX = 40;

const UNSUPPORTED_VERSION = /^Server's protocol version is not supported: ([\s\S]*)$/;

/**
 * The reason for a failed `initialize` whose answer was the problem, or undefined for any other
 * failure (an error answer, a closed connection, a timeout). `pinnedLegacy`: the server is set
 * to MCP 2025-11-25, which a server that answers with the modern revision is told to change.
 */
export function initializeFailureText(error: unknown, options: { pinnedLegacy?: boolean } = {}): string | undefined {
  const zodError = zodErrorOf(error);
  if (zodError) return `The server's answer to initialize is not valid: ${issuesText(zodError.issues)}.`;
  if (!(error instanceof Error)) return undefined;
  const unsupported = UNSUPPORTED_VERSION.exec(error.message);
  if (!unsupported) return undefined;
  const version = unsupported[1]!;
  if (version === MODERN_PROTOCOL_VERSION) {
    // Not an unknown revision: one that has no initialize, whose servers answer server/discover.
    return `The server answered initialize with MCP ${MODERN_PROTOCOL_VERSION}, a revision without initialize (Taskdesk reaches such a server through server/discover).${options.pinnedLegacy ? ` Set its protocol to "auto" or ${MODERN_PROTOCOL_VERSION}.` : ''}`;
  }
  return `The server speaks MCP ${versionText(version)}, which Taskdesk does not support (it speaks ${SPOKEN_VERSIONS}).`;
}

/**
 * The reason for a connect that got no answer to `initialize` within the connect timeout (the
 * SDK's bare "Request timed out", which `ServerConnection` throws when the deadline passes), or
 * undefined for any other failure. It names what was waited for and for how long (`timeoutMs`,
 * the whole connect's), and what to check: over HTTP the address took the connection, so
 * something listens there that does not speak MCP, or not at that path; over stdio the process
 * started and said nothing.
 */
export function unansweredText(
  error: unknown,
  place: { transport: ServerConfig['transport']; timeoutMs: number }
): string | undefined {
  if (!(error instanceof McpError) || error.code !== Number(ErrorCode.RequestTimeout)) return undefined;
  const waited = durationText(place.timeoutMs);
  const transport = place.transport;
  if (transport.type === 'stdio') {
    // A first run of a package runner is mostly its download: it may answer the next time.
    const runner = PACKAGE_RUNNERS.has(commandName(transport.command));
    return runner
      ? `${transport.command} started but did not answer in ${waited}. It may still be fetching the package (a first run downloads it): press Connect again; if it never answers, is it an MCP server?`
      : `${transport.command} started but did not answer in ${waited}. Is it an MCP server?`;
  }
  return `${hostOf(transport.url)} accepted the connection but sent no answer in ${waited}. Is it an MCP server, and is the URL's path right?`;
}

/** Commands that fetch a package before they run it, on their first run. */
const PACKAGE_RUNNERS = new Set(['npx', 'uvx', 'bunx', 'pnpx', 'pipx']);

/** A command's name without its folder or a Windows extension (`C:\\bin\\npx.cmd` → `npx`). */
function commandName(command: string): string {
  const base = command.split(/[\\/]/).pop() ?? command;
  return base.replace(/\.(cmd|exe|bat)$/i, '').toLowerCase();
}

/** "20 s", "1.5 s", "300 ms": how long a connect waited, as its reasons say it. */
export function durationText(ms: number): string {
  return ms < 1_000 ? `${Math.round(ms)} ms` : `${Math.round(ms / 100) / 10} s`;
}

/** The host and port of a URL (no user info, path or query); "the server" for one that does not parse. */
function hostOf(url: string): string {
  try {
    return new URL(url).host || 'the server';
  } catch {
    return 'the server';
  }
}

/** The zod error itself, or one it was wrapped in as a cause. */
function zodErrorOf(error: unknown): z.core.$ZodError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 3 && typeof current === 'object' && current !== null; depth++) {
    // zod 4's `instanceof` checks the error's traits, so the SDK's `zod/v4` errors pass too.
    if (current instanceof z.core.$ZodError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The first few problems, joined, then how many more there are. */
function issuesText(issues: readonly z.core.$ZodIssue[]): string {
  const problems = issues.flatMap((issue) => problemsOf(issue));
  if (problems.length === 0) return 'it is not what MCP defines';
  const shown = problems.slice(0, SHOWN_ISSUES).join('; ');
  const more = problems.length - SHOWN_ISSUES;
  return more > 0 ? `${shown}; and ${more} more` : shown;
}

/** One issue in words: a union that matched no branch says what the closest branch lacked. */
function problemsOf(issue: z.core.$ZodIssue, prefix: PropertyKey[] = []): string[] {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    const closest = issue.errors.reduce((best, branch) => (branch.length < best.length ? branch : best));
    return closest.flatMap((inner) => problemsOf(inner, path));
  }
  const where = pathText(path);
  switch (issue.code) {
    case 'invalid_type': {
      const got = /received (\w+)/.exec(issue.message)?.[1];
      if (got === 'undefined') return [`${where} is missing`];
      return [`${where} must be ${article(issue.expected)}${got ? ` (got ${article(got)})` : ''}`];
    }
    case 'invalid_value':
      return [`${where} must be ${issue.values.map((value) => JSON.stringify(value)).join(' or ')}`];
    case 'unrecognized_keys':
      return [`${where} has fields MCP does not define (${issue.keys.join(', ')})`];
    default:
      return [`${where}: ${issue.message}`];
  }
}

/** `serverInfo.name`, `tools[0]`; the result itself when the path is empty. */
function pathText(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'the result';
  return path
    .map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index > 0 ? '.' : ''}${String(key)}`))
    .join('');
}

/** "a string", "an object", "an array"; null as it is. */
function article(type: string): string {
  if (type === 'null') return type;
  return `${/^[aeiou]/i.test(type) ? 'an' : 'a'} ${type}`;
}

/** A server's version as a reason quotes it: as is when it looks like one, else quoted and cut short. */
function versionText(version: string): string {
  if (/^[\w.-]+$/.test(version) && version.length <= VERSION_MAX) return version;
  const cut = version.length > VERSION_MAX ? `${version.slice(0, VERSION_MAX)}…` : version;
  return JSON.stringify(cut);
}
