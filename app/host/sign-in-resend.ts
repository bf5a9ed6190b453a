import { SIGN_IN_WAIT_MS, SignInEndedError } from '../auth/server-oauth.js';
import type { ConnectionState } from '../contract/host-api.js';
import type { Clock, TimerHandle } from '../core/clock.js';
import { HostError, JsonRpcCode } from '../core/errors.js';
import type { SignInWait } from '../requestor/sign-in-refusal.js';

/** What {@link signInWait} watches. */
export interface SignInWaitParts {
  /** The server's next sign-in completed, or why not (`OAuthSessions.untilSignedIn`). */
  untilSignedIn(serverId: string, signal: AbortSignal): Promise<void>;
  /** Subscribes to the servers' connection states as the Desk sees them (`server.state`); returns the unsubscribe. */
  onServerState(listener: (serverId: string, state: ConnectionState) => void): () => void;
  /** Whether the server is still configured (not removed). */
  registered(serverId: string): boolean;
  clock: Clock;
  /**
   * How long a call waits for the sign-in, and then for the connection after it, before it ends
   * (default {@link SIGN_IN_WAIT_MS}: a sign-in page waits as long). A backstop: the sign-in's own
   * wait usually ends first, and says so.
   */
  waitMs?: number;
}

/**
 * The requestor's {@link SignInWait}: a tool call its server refused for want of a sign-in waits,
 * in the core, for the sign-in the server's card asks for (the server's `ServerOAuth`), then for
 * the connection the host makes after it (its `server.state`: connecting, signed in, then ready).
 * It ends failed, in words, when the sign-in fails, is cancelled or is not completed in time, the
 * person signs out, the server is removed or moved, or it cannot be connected again. Nothing of
 * it is stored: after a restart the call is gone, as every running call is.
 */
export function signInWait(parts: SignInWaitParts): SignInWait {
  const waitMs = parts.waitMs ?? SIGN_IN_WAIT_MS;
  return ({ serverId, serverName: name }, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal.aborted) {
        reject(signal.reason as Error);
        return;
      }
      let settled = false;
      let signedIn = false;
      /** Set once the connection made after the sign-in started. */
      let connecting = false;
      let timer: TimerHandle | undefined;
      const stopped = new AbortController();
      const end = (error?: Error): void => {
        if (settled) return;
        settled = true;
        off();
        signal.removeEventListener('abort', abort);
        if (timer !== undefined) parts.clock.clearTimeout(timer);
        stopped.abort();
        if (error === undefined) resolve();
        else reject(error);
      };
      const abort = (): void => end(signal.reason as Error);
      const bound = (): void => {
        if (timer !== undefined) parts.clock.clearTimeout(timer);
        timer = parts.clock.setTimeout(
          () =>
            end(
              notSent(
                signedIn
                  ? `You signed in to ${name}, but it was not connected again in time, so the call was not sent again.`
                  : `The sign-in to ${name} was not completed in ${Math.round(waitMs / 60_000)} minutes, so the call was not sent again.`
              )
            ),
          waitMs
        );
      };
      const off = parts.onServerState((id, state) => {
        if (id !== serverId || settled) return;
        // The host connects the server again once the sign-in completed: the first connect that
        // goes signed in is that one (while the call waits, the server asks for a sign-in).
        if (state.status === 'connecting') {
          if (state.auth?.status === 'signed-in') connecting = true;
          return;
        }
        if (!connecting) return;
        if (state.status === 'ready') end();
        else if (state.status === 'closed')
          end(notSent(`${name} was disconnected before the call could be sent again.`));
        else if (state.status === 'failed')
          end(
            notSent(
              state.failedFor === 'sign-in'
                ? `${name} asked for a sign-in again after you signed in; Taskdesk sends a call again only once.`
                : `You signed in to ${name}, but it could not be connected again, so the call was not sent again. ${state.reason ?? ''}`.trim()
            )
          );
      });
      signal.addEventListener('abort', abort, { once: true });
      bound();
      parts.untilSignedIn(serverId, stopped.signal).then(
        () => {
          signedIn = true;
          // Now the connection after it, within a bound of its own.
          if (!settled) bound();
        },
        (error: unknown) => {
          if (settled) return;
          end(
            error instanceof SignInEndedError
              ? notSent(endedWords(error, name, parts.registered(serverId)))
              : (error as Error)
          );
        }
      );
    });
}

/** Why a sign-in waited for was given up, for the call that waited: it is not sent again. */
function endedWords(ended: SignInEndedError, name: string, registered: boolean): string {
  switch (ended.why) {
    case 'failed':
      return `The sign-in to ${name} did not complete, so the call was not sent again: ${ended.reason ?? ended.message}`;
    case 'cancelled':
      return `You cancelled the sign-in to ${name}, so the call was not sent again.`;
    case 'signed-out':
      return `You signed out of ${name}, so the call was not sent again.`;
    case 'closed':
      return registered
        ? `The sign-in to ${name} was dropped (its address changed), so the call was not sent again.`
        : `You removed ${name}, so the call was not sent again.`;
  }
}

function notSent(words: string): HostError {
  return new HostError(JsonRpcCode.InternalError, words);
}
