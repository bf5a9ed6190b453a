import type { ConnectionState } from '../../app/contract/host-api.js';
import { isSignInRequest } from '../../app/contract/sign-in-words.js';

/**
 * What a screen reader hears after "Add server": that the server was added and, when it was
 * connected at once, how that went. A failure says so with the first sentence of its reason
 * (the card shows the rest), so that "Added Bogus." is not heard for a server that is not working.
 * A server that only asks the person to sign in did not fail: that is said as the next step.
 */
export function addedWords(
  name: string,
  connect?: { connected: true } | { connected: false; reason?: string }
): string {
  if (!connect) return `Added ${name}.`;
  if (connect.connected) return `Added ${name}; it is connected.`;
  if (isSignInRequest(connect.reason)) return `Added ${name}. It asks you to sign in: press Sign in on its card.`;
  const why = connect.reason ? firstSentence(connect.reason.replace(/^Could not connect: /, '')) : '';
  return why ? `Added ${name}, but it could not connect: ${why}` : `Added ${name}, but it could not connect.`;
}

/**
 * The first sentence of a text: up to the first `.`, `?` or `!` that a space or the end follows,
 * outside parentheses (a reason's "(stderr: …)" or "(ECONNREFUSED)" stays whole), ending in a stop.
 */
export function firstSentence(text: string): string {
  const trimmed = text.trim();
  let depth = 0;
  for (let index = 0; index < trimmed.length; index++) {
    const char = trimmed[index]!;
    if (char === '(') depth++;
    else if (char === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0 && '.?!'.includes(char) && (index + 1 === trimmed.length || /\s/.test(trimmed[index + 1]!)))
      return trimmed.slice(0, index + 1);
  }
  return trimmed === '' || /[.?!…]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/**
 * What a screen reader hears of how the person's own Connect, Disconnect or Save (which
 * reconnects) ended: connected, disconnected, or failed with the first sentence of its reason
 * (the card shows the rest). Undefined while it is still connecting: the outcome comes later.
 */
export function connectionWords(name: string, state: { status: string; reason?: string }): string | undefined {
  if (state.status === 'ready') return `${name} is connected.`;
  if (state.status === 'closed' || state.status === 'idle') return `${name} is disconnected.`;
  if (state.status !== 'failed') return undefined;
  const why = state.reason ? firstSentence(state.reason.replace(/^Could not connect: /, '')) : '';
  return why ? `${name} could not connect: ${why}` : `${name} could not connect.`;
}

/**
 * What to do about a server that could not connect: check what its transport is made of, where
 * it can be changed (Edit…, or Taskdesk's configuration for a server given by it), then try again.
 */
export function connectAgainWords(transport: 'stdio' | 'http', configured = false): string {
  const what = transport === 'stdio' ? 'its command, arguments and environment' : 'its URL and headers';
  const where = configured ? 'where Taskdesk is configured' : 'with Edit…';
  return `Check ${what} ${where}, then press Connect again.`;
}

/**
 * Whether a server that is not connected waits for the person to sign in, and for nothing else:
 * its card says "Sign-in needed", "Signing in" or "Signed out", not a failure. Not for a connect
 * that failed for another reason (the server is down), whatever sign-in it asked for before.
 */
export function needsSignIn(state: ConnectionState): boolean {
  const auth = state.auth;
  if (!auth || auth.status === 'signed-in' || state.status === 'ready' || state.status === 'connecting') return false;
  return state.status !== 'failed' || state.failedFor === 'sign-in';
}

/**
 * A server named among those not connected (the Inbox's "Not connected: …"), with "needs you to
 * sign in" for one that only waits for that: it is not down, and the step is the person's.
 */
export function notConnectedName(server: { name: string; state: ConnectionState }): string {
  return needsSignIn(server.state) ? `${server.name} (needs you to sign in)` : server.name;
}

/**
 * One server that is not connected, said alone (the Inbox's "Server a is not connected"): one
 * that only waits for a sign-in "needs you to sign in", as it is not down.
 */
export function oneNotConnected(server: { name: string; state: ConnectionState }): string {
  return needsSignIn(server.state) ? `${server.name} needs you to sign in` : `${server.name} is not connected`;
}

/**
 * The step to take on the cards of servers that are not connected (the words of the Inbox's
 * link to them): a sign-in when that is all every one of them waits for, else a look at how
 * they connect.
 */
export function notConnectedStep(servers: ReadonlyArray<{ state: ConnectionState }>): string {
  const one = servers.length === 1;
  if (servers.length > 0 && servers.every((server) => needsSignIn(server.state)))
    return one ? 'sign in on its card' : 'sign in on their cards';
  return one ? 'check its connection' : 'check their connections';
}
