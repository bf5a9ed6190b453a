import type { HostApiClient, HostEvent, HostEventPayload, HostReply } from '../app/contract/host-api.js';
import { CONNECTION_LOST, HostCallError, STALE_TAB, UNREACHABLE } from './host-client.js';

/**
 * Whether the page hears the host's events; `stale` when the server answers 401: it runs, but
 * under another launch token (browser mode was restarted and printed a new address).
 */
export type StreamStatus = 'online' | 'offline' | 'stale';

/**
 * How long a call must have waited for its answer before a broken connection is taken for
 * Taskdesk stopping while it was under way rather than refusing it (which fails at once).
 */
const UNDER_WAY_MS = 500;

/** Options of {@link browserClient}. */
export interface BrowserClientOptions {
  /** This launch's token, from the page URL. */
  token: string;
  /** Told when the event stream opens (again) or drops; events are missed while offline. */
  onStatus?: (status: StreamStatus) => void;
}

/**
 * The host API over HTTP for browser mode: `call` is a `POST /api/call`, `on` listens to one
 * shared `EventSource` on `/api/events`.
 *
 * The token goes in a header; only the event stream carries it in its URL, because
 * `EventSource` cannot send headers.
 */
export function browserClient(options: BrowserClientOptions): HostApiClient & { close(): void } {
  const listeners = new Map<string, Set<(payload: never) => void>>();
  const source = new EventSource(`/api/events?token=${encodeURIComponent(options.token)}`);
  let stale = false;
  const goneStale = () => {
    if (stale) return;
    stale = true;
    // Retrying with a token the server no longer knows can never work.
    source.close();
    options.onStatus?.('stale');
  };
  // Whether the event stream is open: Taskdesk ran a moment ago, so a call it does not answer
  // most likely reached it.
  let online = false;
  source.addEventListener('open', () => {
    online = true;
    options.onStatus?.('online');
  });
  source.addEventListener('error', () => {
    online = false;
    if (stale) return;
    options.onStatus?.('offline');
    // An EventSource does not tell why it failed: ask once with a plain request, which does.
    void fetch('/api/call', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-taskdesk-token': options.token },
      body: JSON.stringify({ method: 'servers.list', params: {} }),
      credentials: 'omit',
      cache: 'no-store'
    }).then(
      (response) => response.status === 401 && goneStale(),
      () => undefined
    );
  });
  source.addEventListener('message', (message: MessageEvent<string>) => {
    let parsed: { event?: unknown; payload?: unknown };
    try {
      parsed = JSON.parse(message.data) as typeof parsed;
    } catch {
      return;
    }
    if (typeof parsed.event !== 'string') return;
    for (const listener of [...(listeners.get(parsed.event) ?? [])]) {
      try {
        (listener as (payload: unknown) => void)(parsed.payload);
      } catch (error) {
        // One broken view must not stop the others from hearing the event.
        console.error(error);
      }
    }
  });

  return {
    async call(method, params) {
      let response: Response;
      // A fetch that fails does not say whether its request went out. One that Taskdesk could
      // not take fails at once (a refused connection); one that fails after a while, sent while
      // the event stream was open, most likely went out and Taskdesk stopped before it answered
      // (a tool call that ran until browser mode was stopped): "nothing was sent" would then
      // invite the person to run it twice.
      const sentToRunningHost = online;
      const startedAt = performance.now();
      try {
        response = await fetch('/api/call', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-taskdesk-token': options.token },
          body: JSON.stringify({ method, params }),
          credentials: 'omit',
          cache: 'no-store'
        });
      } catch {
        throw new HostCallError(
          sentToRunningHost && performance.now() - startedAt >= UNDER_WAY_MS
            ? {
                code: CONNECTION_LOST,
                message: 'The connection to Taskdesk ended while this was under way, so it may have been done.'
              }
            : { code: UNREACHABLE, message: 'Taskdesk could not be reached, so nothing was sent.' }
        );
      }
      if (response.status === 401) {
        goneStale();
        throw new HostCallError({
          code: STALE_TAB,
          message: "This tab's token is out of date (Taskdesk was restarted), so nothing was sent."
        });
      }
      let reply: HostReply<typeof method>;
      try {
        reply = (await response.json()) as HostReply<typeof method>;
      } catch {
        throw new HostCallError({ code: -32603, message: `Unexpected answer from Taskdesk (HTTP ${response.status})` });
      }
      if (!reply.ok) throw new HostCallError(reply.error);
      return reply.result;
    },
    on<E extends HostEvent>(event: E, listener: (payload: HostEventPayload<E>) => void) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      return () => void set.delete(listener);
    },
    close: () => source.close()
  };
}
