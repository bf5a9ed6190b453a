import { SIGN_IN_WAIT_MS, SignInEndedError } from '../auth/server-oauth.js';
import type { ConnectionState } from '../contract/host-api.js';
import type { Clock, TimerHandle } from '../core/clock.js';
import { HostError, JsonRpcCode } from '../core/errors.js';
import type { SignInWait } from '../requestor/sign-in-refusal.js';

/** What {@link signInWait} watches. */
export interface SignInWaitParts {
  /**
   * The server's next sign-in completed, or why not (`OAuthSessions.untilSignedIn`); `onNewPage`
   * is told each time a new sign-in page is made for it meanwhile (it waits its own time).
   */
  untilSignedIn(serverId: string, signal: AbortSignal, onNewPage: () => void): Promise<void>;
  /** Subscribes to the servers' connection states as the Desk sees them (`server.state`); returns the unsubscribe. */
  onServerState(listener: (serverId: string, state: ConnectionState) => void): () => void;
  /**
   * Subscribes to the person's acts that close a server's connection (Disconnect, Remove, a Save
   * that restarts it, a sign-out), told before the close with their words for a server name ("You
   * disconnected Books"); returns the unsubscribe.
   */
  onClosedByYou(listener: (serverId: string, words: (serverName: string) => string) => void): () => void;
  /** Whether the server is still configured (not removed). */
  registered(serverId: string): boolean;
  clock: Clock;
  /**
   * How long a call waits for the sign-in, and then for the connection after it, before it ends
   * (default {@link SIGN_IN_WAIT_MS}: a sign-in page waits as long, and a new page starts it
   * again). A backstop: the sign-in's own wait usually ends first, and says so.
   */
  waitMs?: number;
}

/**
 * The requestor's {@link SignInWait}: a tool call its server refused for want of a sign-in waits,
 * in the core, for the sign-in the server's card asks for (the server's `ServerOAuth`), then for
 * the connection the host makes after it (its `server.state`: connecting, signed in, then ready).
 * It ends failed, in words, when the sign-in fails, is cancelled or is not completed in time, the
 * person signs out, disconnects the server, removes it or saves settings that restart it, the
 * server is moved, or it cannot be connected again. Nothing of
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
        offAct();
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
        // Only once the sign-in completed: the states before it are of the connection that asked
        // (or of one the person started meanwhile, which the host closes to connect again).
        if (id !== serverId || settled || !signedIn) return;
        // The host connects the server again once the sign-in completed: the first connect that
        // goes signed in is that one.
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
      // The person's Disconnect, Remove or restarting Save (before the sign-in or after it): the
      // call is not sent again, nor does it wait any longer.
      const offAct = parts.onClosedByYou((id, words) => {
        if (id === serverId) end(notSent(`${words(name)}, so the call was not sent again.`));
      });
      signal.addEventListener('abort', abort, { once: true });
      bound();
      // A new sign-in page (the one before was dropped: a change of client) waits its own time.
      const newPage = (): void => {
        if (!settled && !signedIn) bound();
      };
      parts.untilSignedIn(serverId, stopped.signal, newPage).then(
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
    case 'taskdesk-closed':
      return `Taskdesk closed before the sign-in to ${name} completed, so the call was not sent again.`;
  }
}

function notSent(words: string): HostError {
  return new HostError(JsonRpcCode.InternalError, words);
}
