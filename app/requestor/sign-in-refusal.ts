import { SignInRequiredError } from '../auth/server-oauth.js';
import { HostError, inChain } from '../core/errors.js';
import { toHostError } from './task-rpc.js';

/**
 * A request its server refused for want of a sign-in: it answered HTTP 401 (or 403
 * `insufficient_scope`, for more scope) and no token could be had without the person, so the
 * request never reached what it asked for (the SDK's transport throws what the OAuth fetch threw,
 * `SignInRequiredError`). The same code and words as the error it stands for; only its kind is
 * new, so that a tool call can be sent again once the person has signed in (see
 * `OutboundTasks.callTool`) and nothing else is.
 */
export class RefusedForSignIn extends HostError {
  constructor(error: HostError) {
    super(error.code, error.message, error.data);
    this.name = 'RefusedForSignIn';
  }
}

/** `error` as a {@link RefusedForSignIn} when it is a sign-in refusal, else undefined. */
export function signInRefusal(error: unknown): RefusedForSignIn | undefined {
  if (error instanceof RefusedForSignIn) return error;
  return inChain(error, SignInRequiredError) ? new RefusedForSignIn(toHostError(error)) : undefined;
}

/**
 * Waits until the person has signed in to a server that refused a call, and the server is
 * connected again over the new sign-in. Rejects, in words, when that will not be (the sign-in
 * failed, was cancelled or not completed in time, the server was removed or could not be
 * connected again), or with the signal's reason once it aborts (the call was cancelled).
 */
export type SignInWait = (server: { serverId: string; serverName: string }, signal: AbortSignal) => Promise<void>;

/**
 * Sends a tool call (`send`). When its server refuses it for want of a sign-in, it waits for the
 * person to sign in (`wait`; `waitingForSignIn` says so on the running call meanwhile) and is sent
 * again once (`sendAgain`): a second refusal ends it, saying so, and so does any other failure.
 * Only a {@link RefusedForSignIn} is sent again: it never reached the tool. Without `wait`, it
 * fails at once, as before.
 */
export async function sendAgainAfterSignIn<T>(call: {
  server: { serverId: string; serverName: string };
  signal: AbortSignal;
  wait: SignInWait | undefined;
  waitingForSignIn: (waiting: boolean) => void;
  send: () => Promise<T>;
  sendAgain: () => Promise<T>;
}): Promise<T> {
  try {
    return await call.send();
  } catch (error) {
    if (!(error instanceof RefusedForSignIn) || !call.wait) throw error;
  }
  // Cancelled while its refusal came: it ends as cancelled, never said to wait.
  if (call.signal.aborted) throw call.signal.reason as Error;
  call.waitingForSignIn(true);
  try {
    await call.wait(call.server, call.signal);
  } finally {
    call.waitingForSignIn(false);
  }
  try {
    return await call.sendAgain();
  } catch (error) {
    // Its tool list read again over the new connection may be what is refused, as well as the call.
    const refusal = signInRefusal(error);
    if (!refusal) throw error;
    throw new HostError(
      refusal.code,
      `${call.server.serverName} asked for a sign-in again after you signed in; Taskdesk sends a call again only once. ${refusal.message}`,
      refusal.data
    );
  }
}
