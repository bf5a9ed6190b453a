/** How long a Decline, Reject or Dismiss given in the Inbox waits, with an Undo, before it is sent. */
export const UNDO_WINDOW_MS = 5_000;

/** The answers held for an undo window: those that throw a server's request away. */
export type HeldAction = 'decline' | 'cancel' | 'reject';

/** Whether an answer of `action` is held for an undo window (Submit, Approve, a reply are not). */
export function isHeldAction(action: string): action is HeldAction {
  return action === 'decline' || action === 'cancel' || action === 'reject';
}

/** The answer's button, as a notice names what was held: "your Reject waited to be sent". */
export function heldAnswerWord(action: HeldAction): 'Decline' | 'Reject' | 'Dismiss' {
  return action === 'decline' ? 'Decline' : action === 'reject' ? 'Reject' : 'Dismiss';
}

/**
 * An Inbox answer held back for its undo window. `held`: not sent, and Undo brings the item
 * back; `sending`: the window ended and the host has it (or is about to), no undo any more.
 */
export interface HeldAnswer {
  /** The Inbox item's id. */
  id: string;
  /** The server that asked: a close of it sends its held answers first (see {@link HeldAnswers.flushServer}). */
  serverId: string;
  serverName: string;
  /** What the item is, as "Nothing to undo: Books withdrew that question." names it. */
  noun: 'question' | 'model request';
  /** The item as the held line names it ("Books’s question “Which shelf?”"), as an Undo says it came back. */
  named: string;
  action: HeldAction;
  /** What the answer does, as the Inbox says it ("Declined Books’s question “Which shelf?”."). */
  said: string;
  phase: 'held' | 'sending';
}

/** The timers a window waits with (the window's; fake ones in tests). */
export interface HeldTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/**
 * The Inbox's answers held for an undo window, by item id, as mail clients hold a message after
 * Send. Each goes at its own time: `send` runs once its window ends, unless {@link undo} took it
 * back or {@link dropUnless} dropped it (its question ended meanwhile). {@link flush} sends every
 * one still held at once (the page is closing), {@link flushServer} a server's (it is closing).
 *
 * Kept by the store, not by a card, so that an answer goes whether or not its card is still on
 * screen. Components read {@link getSnapshot} (a new object at each change) with
 * `useSyncExternalStore`.
 */
export class HeldAnswers {
  readonly #timers: HeldTimers;
  readonly #windowMs: number;
  #held: Readonly<Record<string, HeldAnswer>> = {};
  /** Each held answer's send and timer, by item id, in the order they were held (the last is what `u` undoes). */
  readonly #pending = new Map<string, { send: () => Promise<unknown>; timer: unknown }>();
  readonly #listeners = new Set<() => void>();
  /** The item whose answer was held last. */
  #lastHeld: string | undefined;
  /** The answer held last, when it was dropped because its question ended (and whether its server withdrew it). */
  #lastEnded: { answer: HeldAnswer; withdrawn: boolean } | undefined;

  constructor(timers: HeldTimers, windowMs = UNDO_WINDOW_MS) {
    this.#timers = timers;
    this.#windowMs = windowMs;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  };

  /** The answers held or being sent, by item id. */
  readonly getSnapshot = (): Readonly<Record<string, HeldAnswer>> => this.#held;

  /**
   * Holds an answer: `send` runs once the window ends. False (and nothing held) when the item
   * has an answer held or being sent already.
   */
  hold(answer: Omit<HeldAnswer, 'phase'>, send: () => Promise<unknown>): boolean {
    if (answer.id in this.#held) return false;
    const timer = this.#timers.setTimeout(() => void this.#send(answer.id), this.#windowMs);
    this.#pending.set(answer.id, { send, timer });
    this.#lastHeld = answer.id;
    this.#lastEnded = undefined;
    this.#set(answer.id, { ...answer, phase: 'held' });
    return true;
  }

  /**
   * Takes back the answer held for `id`, or, without an id, the one held last: it is not sent.
   * Returns it; undefined when there is none to take back (its window ended, or none was held).
   */
  undo(id?: string): HeldAnswer | undefined {
    const key = id ?? this.newest();
    const held = key === undefined ? undefined : this.#held[key];
    if (held?.phase !== 'held') return undefined;
    this.#forget(held.id);
    return held;
  }

  /** The item whose answer was held last and can still be taken back. */
  newest(): string | undefined {
    // A Map keeps the order its keys were set in: the last one held is the newest.
    return [...this.#pending.keys()].findLast((id) => this.#held[id]?.phase === 'held');
  }

  /**
   * Drops what is held for the items `keep` says no to (their questions ended: withdrawn,
   * expired, answered elsewhere): not sent. One being sent is only forgotten. Returns those
   * dropped before they were sent; `withdrawn`: their server withdrew them (said by `u` after).
   */
  dropUnless(keep: (id: string) => boolean, withdrawn = false): HeldAnswer[] {
    const dropped: HeldAnswer[] = [];
    for (const answer of Object.values(this.#held)) {
      if (keep(answer.id)) continue;
      if (answer.phase === 'held') {
        dropped.push(answer);
        if (answer.id === this.#lastHeld) this.#lastEnded = { answer, withdrawn };
      }
      this.#forget(answer.id);
    }
    return dropped;
  }

  /**
   * The answer held last, when it was dropped unsent because its question ended, and whether
   * its server withdrew it; undefined once another is held.
   */
  lastEnded(): { answer: HeldAnswer; withdrawn: boolean } | undefined {
    return this.#lastEnded;
  }

  /** Sends every answer still held now, without waiting for its window to end. */
  flush(): void {
    for (const [id, pending] of [...this.#pending]) {
      this.#timers.clearTimeout(pending.timer);
      void this.#send(id);
    }
  }

  /**
   * Sends the answers held for `serverId`'s items now (Disconnect, Remove or a restarting Save
   * is about to close it, which would withdraw them unanswered). Resolves once the host has
   * answered each (or refused it), so that the close goes after them.
   */
  flushServer(serverId: string): Promise<void> {
    const sends: Array<Promise<unknown>> = [];
    for (const [id, pending] of [...this.#pending]) {
      if (this.#held[id]?.serverId !== serverId) continue;
      this.#timers.clearTimeout(pending.timer);
      const sent = this.#send(id);
      if (sent) sends.push(sent);
    }
    return Promise.all(sends).then(() => undefined);
  }

  #send(id: string): Promise<unknown> | undefined {
    const pending = this.#pending.get(id);
    const held = this.#held[id];
    if (!pending || held?.phase !== 'held') return undefined;
    this.#pending.delete(id);
    this.#set(id, { ...held, phase: 'sending' });
    // Sent as the card would send it at once; once the host has answered (or refused), the
    // item is the card's again (gone, or back with why it was not sent).
    const done = () => {
      if (this.#held[id]?.phase === 'sending') this.#forget(id);
    };
    return pending.send().then(done, done);
  }

  #forget(id: string): void {
    const pending = this.#pending.get(id);
    if (pending) this.#timers.clearTimeout(pending.timer);
    this.#pending.delete(id);
    if (!(id in this.#held)) return;
    const { [id]: _gone, ...rest } = this.#held;
    this.#held = rest;
    this.#changed();
  }

  #set(id: string, answer: HeldAnswer): void {
    this.#held = { ...this.#held, [id]: answer };
    this.#changed();
  }

  #changed(): void {
    for (const listener of [...this.#listeners]) listener();
  }
}
