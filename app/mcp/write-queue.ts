import type { Writable } from 'node:stream';

/** The most a connection may hold unwritten before its server counts as not reading. */
export interface WriteQueueLimits {
  /** Bytes of serialized messages waiting, beyond what the stream itself buffers. */
  maxQueuedBytes: number;
  /** Messages waiting. */
  maxQueuedMessages: number;
}

/** The defaults documented in the README ("Task receiver policy", connection limits). */
export const defaultWriteQueueLimits: WriteQueueLimits = {
  maxQueuedBytes: 16 * 1024 * 1024,
  maxQueuedMessages: 10_000
};

/** What a queue has seen, for tests and benchmarks. */
export interface WriteQueueStats {
  queuedBytes: number;
  queuedMessages: number;
  peakQueuedBytes: number;
  peakQueuedMessages: number;
  /** `drain` listeners on the stream right now (the queue keeps exactly one while it waits). */
  drainListeners: number;
}

/**
 * A bounded outgoing queue in front of a writable stream (a server's stdin).
 *
 * Node's `write` never refuses data: it buffers whatever a reader does not take. This queue
 * hands the stream one chunk at a time while it accepts them, keeps the rest itself, waits
 * for `drain` with one listener (never one per message), and overflows once more than the
 * limits are waiting: `onOverflow` is called once and everything after is refused.
 *
 * Our own: stream libraries bound what a reader buffers, not what a writer may pile up for a
 * reader that stopped, and none reports that as a reason to drop the peer.
 */
export class BoundedWriteQueue {
  readonly #stream: Writable;
  readonly #limits: WriteQueueLimits;
  readonly #onOverflow: (reason: string) => void;
  readonly #pending: Array<{ chunk: string; bytes: number; done: () => void }> = [];
  #queuedBytes = 0;
  #peakBytes = 0;
  #peakMessages = 0;
  #waiting = false;
  #overflowed = false;

  constructor(stream: Writable, limits: WriteQueueLimits, onOverflow: (reason: string) => void) {
    this.#stream = stream;
    this.#limits = limits;
    this.#onOverflow = onOverflow;
  }

  /** Whether the queue overflowed (the connection is being dropped). */
  get overflowed(): boolean {
    return this.#overflowed;
  }

  get stats(): WriteQueueStats {
    return {
      queuedBytes: this.#queuedBytes,
      queuedMessages: this.#pending.length,
      peakQueuedBytes: this.#peakBytes,
      peakQueuedMessages: this.#peakMessages,
      drainListeners: this.#stream.listenerCount('drain')
    };
  }

  /**
   * Queues one serialized message; resolves once the stream has taken it. Rejects when the
   * queue overflowed (now or earlier) or the stream is gone.
   */
  write(chunk: string): Promise<void> {
    if (this.#overflowed)
      return Promise.reject(new Error('The connection is being dropped: its server stopped reading'));
    if (this.#stream.destroyed || !this.#stream.writable) return Promise.reject(new Error('Not connected'));
    if (!this.#waiting && this.#pending.length === 0) {
      if (!this.#stream.write(chunk)) this.#wait();
      return Promise.resolve();
    }
    const bytes = Buffer.byteLength(chunk);
    if (
      this.#queuedBytes + bytes > this.#limits.maxQueuedBytes ||
      this.#pending.length + 1 > this.#limits.maxQueuedMessages
    ) {
      this.#overflow(bytes);
      return Promise.reject(new Error('The connection is being dropped: its server stopped reading'));
    }
    return new Promise<void>((resolve) => {
      this.#pending.push({ chunk, bytes, done: resolve });
      this.#queuedBytes += bytes;
      this.#peakBytes = Math.max(this.#peakBytes, this.#queuedBytes);
      this.#peakMessages = Math.max(this.#peakMessages, this.#pending.length);
    });
  }

  /** Drops everything waiting (the connection closed); their writes stay unresolved no longer. */
  clear(): void {
    for (const entry of this.#pending.splice(0)) entry.done();
    this.#queuedBytes = 0;
    if (this.#waiting) this.#stream.off('drain', this.#flush);
    this.#waiting = false;
  }

  #wait(): void {
    this.#waiting = true;
    this.#stream.once('drain', this.#flush);
  }

  readonly #flush = (): void => {
    this.#waiting = false;
    while (this.#pending.length > 0) {
      const entry = this.#pending.shift()!;
      this.#queuedBytes -= entry.bytes;
      const accepted = this.#stream.write(entry.chunk);
      entry.done();
      if (!accepted) {
        this.#wait();
        return;
      }
    }
  };

  #overflow(bytes: number): void {
    this.#overflowed = true;
    const mib = (n: number) => `${Math.round((n / (1024 * 1024)) * 10) / 10} MiB`;
    const reason =
      this.#pending.length + 1 > this.#limits.maxQueuedMessages
        ? `The server stopped reading its input: ${this.#pending.length} messages to it were waiting (limit ${this.#limits.maxQueuedMessages}); Taskdesk disconnected it`
        : `The server stopped reading its input: ${mib(this.#queuedBytes + bytes)} of messages to it were waiting (limit ${mib(this.#limits.maxQueuedBytes)}); Taskdesk disconnected it`;
    this.clear();
    this.#onOverflow(reason);
  }
}
