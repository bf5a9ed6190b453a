import type { ModernPeer } from './modern-task-follower.js';

/**
 * How long a `subscriptions/listen` request may stay open before the SDK gives up on it (its
 * timers' largest): it is opened again then, for as long as the server stays attached.
 */
export const LISTEN_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * The most task ids one stream asks about. A server running more of Taskdesk's tasks than this
 * is told of the ones Taskdesk took up last (on this connection; resumed ones in the order the
 * store lists them); the others are followed by polling alone, as every task is anyway.
 */
export const WATCHED_TASKS_LIMIT = 256;

/**
 * The `subscriptions/listen` stream a server of MCP 2026-07-28 tells of its tasks' changes on
 * (`notifications/tasks`, the tasks extension): it asks for the ids of the tasks Taskdesk follows
 * on that server (`taskIds`), and is opened again whenever that set changes (a listen request's
 * filter is fixed when it is sent), once per turn of the event loop however many tasks started or
 * ended in it.
 *
 * Kept apart from the stream of list changes (see `AttachmentRegistry`): tasks come and go far
 * more often than lists change, and each new stream of lists makes the lists read before stale.
 * Nothing relies on it: every task is polled at its `pollIntervalMs` all the same (the extension
 * lets a client poll as well), so a notification only makes a change show sooner. A server that
 * refuses the stream with a JSON-RPC error, or acknowledges it without `taskIds` (it does not know
 * them), is not asked again on this connection; one that ends it, or a stream that failed
 * otherwise (the network), is asked again when the set next changes.
 */
export class TaskStatusStream {
  readonly #peer: ModernPeer;
  /** The ids to ask about, oldest first (a Set keeps the order they were added in). */
  readonly #wanted = new Set<string>();
  /** The stream open now (its request's abort), and the ids it asked about (sorted, joined). */
  #open: AbortController | undefined;
  #openKey = '';
  /** The JSON-RPC id of the open stream's request, when the peer told it (see {@link subscriptionId}). */
  #openId: string | number | undefined;
  #syncQueued = false;
  #refused = false;
  #closed = false;

  constructor(peer: ModernPeer) {
    this.#peer = peer;
  }

  /** Whether the server refused the stream (it is not asked again while this connection lasts). */
  get refused(): boolean {
    return this.#refused;
  }

  /**
   * The id of the open stream (its `subscriptions/listen` request's JSON-RPC id), which the server
   * tags its acknowledgement and notifications with; undefined when none is open or the peer did
   * not tell it. A stream replaced or ended has no id here any more: what comes tagged with it is
   * not this stream's.
   */
  get subscriptionId(): string | number | undefined {
    return this.#open ? this.#openId : undefined;
  }

  /** Asks to be told of task `taskId` (`watched` true) or no longer (false); the stream follows at the end of the turn. */
  watch(taskId: string, watched: boolean): void {
    if (watched === this.#wanted.has(taskId)) return;
    if (watched) this.#wanted.add(taskId);
    else this.#wanted.delete(taskId);
    if (this.#syncQueued || this.#refused || this.#closed) return;
    this.#syncQueued = true;
    queueMicrotask(() => {
      this.#syncQueued = false;
      this.#sync();
    });
  }

  /**
   * The server acknowledged a task stream, agreeing to tell of `taskIds`. One that does not know
   * the field (it acknowledged nothing of it) is not asked again on this connection; one that agreed
   * to none of the tasks asked about (they may have ended there) is asked again when the set changes.
   */
  acknowledged(taskIds: unknown): void {
    if (!this.#open) return;
    if (!Array.isArray(taskIds)) this.#refused = true;
    else if (taskIds.length > 0) return;
    this.#end();
  }

  /** Ends the stream for good (the server was detached). */
  close(): void {
    this.#closed = true;
    this.#wanted.clear();
    this.#end();
  }

  /** Opens the stream anew for the ids wanted now, unless the open one asks for exactly those. */
  #sync(): void {
    if (this.#refused || this.#closed) return;
    const ids = [...this.#wanted].slice(-WATCHED_TASKS_LIMIT);
    const key = [...ids].sort().join('\n');
    if (this.#open && key === this.#openKey) return;
    this.#end();
    if (ids.length > 0) this.#start(ids, key);
  }

  #end(): void {
    const open = this.#open;
    this.#open = undefined;
    this.#openKey = '';
    this.#openId = undefined;
    open?.abort();
  }

  #start(taskIds: string[], key: string): void {
    const stream = new AbortController();
    // An HTTP server's stream is opened again before an idle body is given up on (see HTTP_LISTEN_RENEWAL_MS).
    const renewal = new AbortController();
    const renewAfter = this.#peer.listenRenewalMs;
    const timer = renewAfter === undefined ? undefined : setTimeout(() => renewal.abort(), renewAfter);
    timer?.unref();
    this.#open = stream;
    this.#openKey = key;
    this.#openId = undefined;
    this.#peer
      .request(
        'subscriptions/listen',
        { notifications: { taskIds } },
        // Asking for task notifications without declaring the extension is refused (−32021).
        {
          tasks: true,
          timeout: LISTEN_TIMEOUT_MS,
          signal: AbortSignal.any([stream.signal, renewal.signal]),
          onRequestId: (id) => {
            if (this.#open === stream) this.#openId = id;
          }
        }
      )
      .then(
        // The server ended it: not opened again until the tasks followed change.
        () => {
          clearTimeout(timer);
          if (this.#open !== stream) return;
          this.#open = undefined;
          this.#openKey = '';
          this.#openId = undefined;
        },
        (error: unknown) => {
          clearTimeout(timer);
          // Replaced by a stream for another set, or closed: that one is in charge now.
          if (this.#open !== stream) return;
          this.#open = undefined;
          this.#openId = undefined;
          const timedOut = (error as { code?: unknown } | undefined)?.code === -32001;
          if (renewal.signal.aborted || timedOut) {
            this.#sync();
            return;
          }
          // Refused by the server (it has no such stream, or not for tasks): not asked again on this
          // connection. Anything else (a network failure, an HTTP error, the connection going, when
          // the attachment goes too) is asked again when the tasks followed next change.
          this.#openKey = '';
          if (refuses(error)) this.#refused = true;
        }
      );
  }
}

/** JSON-RPC errors by which a server refuses a task stream: −32021 (a capability missing), −32601, −32602, −32600. */
const REFUSALS = new Set([-32021, -32601, -32602, -32600]);

function refuses(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'number' && REFUSALS.has(code);
}
