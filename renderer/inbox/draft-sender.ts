import type { InboxDraftValues } from '../../app/contract/host-api.js';

/** How long typing rests before what was typed goes to the host. */
export const DRAFT_SEND_DELAY_MS = 400;

/** The timers a sender waits with (the window's; fake ones in tests). */
export interface DraftTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const windowTimers: DraftTimers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>)
};

/**
 * Sends a card's draft to the host once typing rests, not on every keystroke: only the latest
 * values go, and only when they differ from what was last sent (or what the card started with).
 * `flush` sends what waits at once (the window loses focus or the card goes).
 *
 * `send` resolves to whether the host kept the draft. One it did not keep (the connection
 * dropped, or the host refused it) waits again, without a timer: the next change or flush sends
 * it, so a dropped call is not the last word, and a host that keeps refusing is not asked in a loop.
 */
export class DraftSender {
  readonly #send: (values: InboxDraftValues | null) => Promise<boolean>;
  readonly #delayMs: number;
  readonly #timers: DraftTimers;
  /** What the host holds, or will once the last send is kept, as JSON ('null' for none); undefined: not known. */
  #sent: string | undefined;
  /** Counts the sends: only the answer to the latest one says what the host holds. */
  #sends = 0;
  #waiting: { values: InboxDraftValues | null; json: string } | undefined;
  #timer: unknown;

  constructor(
    send: (values: InboxDraftValues | null) => Promise<boolean>,
    /** What the host holds already (the draft the card came with), or null. */
    start: InboxDraftValues | null,
    delayMs = DRAFT_SEND_DELAY_MS,
    timers: DraftTimers = windowTimers
  ) {
    this.#send = send;
    this.#sent = JSON.stringify(start);
    this.#delayMs = delayMs;
    this.#timers = timers;
  }

  /** The card's values changed (null: nothing typed); sent once they rest. */
  change(values: InboxDraftValues | null): void {
    const json = JSON.stringify(values);
    this.#stopTimer();
    if (json === this.#sent) {
      this.#waiting = undefined;
      return;
    }
    this.#waiting = { values, json };
    this.#timer = this.#timers.setTimeout(() => {
      this.#timer = undefined;
      this.flush();
    }, this.#delayMs);
  }

  /** Sends what waits now, if anything does. */
  flush(): void {
    this.#stopTimer();
    const waiting = this.#waiting;
    if (!waiting) return;
    this.#waiting = undefined;
    this.#sent = waiting.json;
    const send = ++this.#sends;
    const kept = (ok: boolean) => {
      // A later send stands for this one: its own answer tells.
      if (ok || send !== this.#sends) return;
      this.#sent = undefined;
      this.#waiting ??= waiting;
    };
    this.#send(waiting.values).then(kept, () => kept(false));
  }

  #stopTimer(): void {
    if (this.#timer === undefined) return;
    this.#timers.clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
