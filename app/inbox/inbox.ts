import { randomBytes } from 'node:crypto';
import type { InboxAnswer, InboxItem } from '../contract/host-api.js';
import type { Clock, TimerHandle } from '../core/clock.js';
import { HostError, JsonRpcCode } from '../core/errors.js';
import { copyJson } from '../core/json-copy.js';
import { validateElicitationContent } from '../contract/elicitation-check.js';
import { warningTime } from '../contract/warning-time.js';
import type { WithdrawalCause } from '../receiver/withdrawn-note.js';

/** The answers each kind of item takes. */
const ALLOWED_ANSWERS: Record<InboxItem['kind'], ReadonlyArray<InboxAnswer['action']>> = {
  elicitation: ['accept', 'decline', 'cancel'],
  sampling: ['reply', 'reject'],
  // A person may write the reply instead of running a model, as they do when no provider is set up.
  'sampling-approval': ['approve', 'reply', 'reject'],
  'sampling-review': ['approve', 'reject']
};

/** What the inbox tells the host. */
export interface InboxEvents {
  /**
   * An item is about to be added. A reason returned (why, in words for a person) withdraws it at
   * once instead: its request is answered as {@link Inbox.withdraw} answers it, and it is never
   * added, announced (`added`) or removed (`removed`). Nobody saw it: the host records it.
   */
  arriving?(item: Readonly<InboxItem>): string | undefined;
  added(item: InboxItem): void;
  /**
   * An item left the inbox. `how.reason` is given when Taskdesk itself withdrew it ({@link Inbox.withdraw}):
   * why, in words for a person; `how.byYou` when that was the person's own doing. An item handed over
   * ({@link Inbox.handOver}) leaves as `answered` with `how.handedOver`: nobody withdrew it, its
   * request goes on, and the next question it asks (an approval card) takes its place under its id.
   */
  removed(id: string, why: 'answered' | 'withdrawn', item: Readonly<InboxItem>, how?: InboxRemoval): void;
  /** The person answered an item (told before its request goes on). */
  answered?(item: Readonly<InboxItem>, action: InboxAnswer['action']): void;
  /** An item reached its `warnAt`: it expires soon, unanswered. */
  expiring?(item: InboxItem): void;
  /**
   * The person's answer to an item is held in the Desk for its undo window (`held`), or no longer
   * (Undo took it back, or its hold ran out): see {@link Inbox.hold}. Not told when the item goes.
   */
  held?(id: string, held: boolean): void;
}

/**
 * How long an answer the Desk holds (see {@link Inbox.hold}) keeps its item out of what waits on
 * the person, at most: far more than the Desk's undo window and its send, so that an item whose
 * Desk went before it sent the answer (a page closed, its last call lost) waits on them again.
 */
export const INBOX_HOLD_MAX_MS = 60_000;

/** How an item left the inbox, beyond answered or withdrawn (see {@link InboxEvents.removed}). */
export interface InboxRemoval {
  reason?: string;
  byYou?: boolean;
  handedOver?: true;
  /** Its server's cancellation said the request timed out (see {@link isTimeoutReason}). */
  timedOut?: true;
}

/**
 * Whether what a server's `notifications/cancelled` gave as its reason says the request timed
 * out: the SDK's own timeout sends "McpError: MCP error -32001: Request timed out".
 */
export function isTimeoutReason(reason: unknown): boolean {
  return typeof reason === 'string' && (/-32001\b/.test(reason) || /\btimed out\b/i.test(reason));
}

/**
 * The user's approvals inbox: pending elicitation and sampling items, answered through the host API.
 *
 * Items of task-augmented requests use the task id, so after a restart the resumed task asks
 * again under the same id. An item is withdrawn when its request is cancelled or expires, or
 * when Taskdesk withdraws it (nobody waits for its answer any more), which it may do as the item
 * arrives (see `InboxEvents.arriving`).
 */
export class Inbox {
  readonly #clock: Clock;
  readonly #events: InboxEvents;
  readonly #items = new Map<
    string,
    {
      item: InboxItem;
      /** The signal it was asked with: what {@link handOver} names it by. */
      signal: AbortSignal;
      settle: (answer: InboxAnswer) => void;
      validate?: (answer: InboxAnswer) => void;
      /** The person's answer is held in the Desk (see {@link hold}): the timer that ends the hold. */
      hold?: TimerHandle;
    }
  >();
  /**
   * The answers {@link withdraw} gave, why, whether the person's own action was why, and its
   * cause when one was given, so that what asked can tell them from a person's answer.
   */
  readonly #withdrawals = new WeakMap<InboxAnswer, { reason: string; byYou: boolean; cause?: WithdrawalCause }>();
  /** The answers {@link handOver} gave, so that what asked can tell them from a person's answer. */
  readonly #handOvers = new WeakSet<InboxAnswer>();
  /**
   * Where each question {@link handOver} took away stood, by the signal it was asked with: the next
   * question asked with that signal takes its place (see {@link ask}).
   */
  readonly #places = new WeakMap<AbortSignal, { id: string; createdAt: string }>();

  constructor(clock: Clock, events: InboxEvents) {
    this.#clock = clock;
    this.#events = events;
  }

  /**
   * Puts a question in the inbox and waits for the answer, or rejects when `signal` aborts.
   *
   * `validate` may refuse an answer (throw a `HostError`); the item then stays pending and
   * the person answering sees the error.
   *
   * A question asked with the signal of one {@link handOver} took away takes its place: its id
   * and time, unless given others, so that the Desk shows it where that one was.
   */
  ask(
    item: Omit<InboxItem, 'id' | 'createdAt'> & { id?: string; createdAt?: string },
    signal: AbortSignal,
    validate?: (answer: InboxAnswer) => void
  ): Promise<InboxAnswer> {
    if (signal.aborted) return Promise.reject(signal.reason);
    const place = this.#places.get(signal);
    this.#places.delete(signal);
    const createdAt = item.createdAt ?? place?.createdAt ?? new Date(this.#clock.now()).toISOString();
    const full: InboxItem = {
      ...item,
      id: item.id ?? place?.id ?? randomBytes(12).toString('base64url'),
      // A task's question keeps the time the server asked, across restarts.
      createdAt,
      ...(item.expiresAt !== undefined && { warnAt: warningTime(createdAt, item.expiresAt) })
    };
    const withdrawn = this.#events.arriving?.(full);
    if (withdrawn !== undefined) return Promise.resolve(this.#withdrawal(full, withdrawn));
    return new Promise<InboxAnswer>((resolve, reject) => {
      const warning =
        full.warnAt !== undefined && this.#events.expiring
          ? this.#clock.setTimeout(
              () => {
                if (this.#items.get(full.id)?.item === full) this.#events.expiring?.(copyJson(full));
              },
              Math.max(0, Date.parse(full.warnAt) - this.#clock.now())
            )
          : undefined;
      const stopWarning = () => warning !== undefined && this.#clock.clearTimeout(warning);
      const onAbort = () => {
        if (this.#items.get(full.id)?.item !== full) return;
        stopWarning();
        this.#take(full.id);
        this.#events.removed(full.id, 'withdrawn', full, isTimeoutReason(signal.reason) ? { timedOut: true } : {});
        reject(signal.reason);
      };
      this.#items.set(full.id, {
        item: full,
        signal,
        settle: (answer) => {
          stopWarning();
          signal.removeEventListener('abort', onAbort);
          resolve(answer);
        },
        ...(validate && { validate })
      });
      signal.addEventListener('abort', onAbort, { once: true });
      // A copy that shares the question's strings (immutable): a 1 MB question is not copied again.
      this.#events.added(copyJson(full));
    });
  }

  /** How many items are pending. */
  get size(): number {
    return this.#items.size;
  }

  /**
   * How many pending items wait on the person: all but those whose answer the Desk holds for its
   * undo window ({@link hold}), which the person has answered, as far as they know.
   */
  get waiting(): number {
    let waiting = 0;
    for (const { hold } of this.#items.values()) if (hold === undefined) waiting++;
    return waiting;
  }

  /**
   * Notes that the person's answer to item `id` waits out its undo window in the Desk (`held`),
   * or that Undo took it back: a held item stays pending until its answer comes, but waits on
   * the person no more ({@link waiting}). A hold goes with its item, and after
   * {@link INBOX_HOLD_MAX_MS}. Returns whether that changed anything: an item no longer pending
   * (its answer came first), or already so, changes nothing.
   */
  hold(id: string, held: boolean): boolean {
    const entry = this.#items.get(id);
    if (!entry || (entry.hold !== undefined) === held) return false;
    if (held) {
      const handle = this.#clock.setTimeout(() => {
        if (this.#items.get(id) !== entry || entry.hold !== handle) return;
        delete entry.hold;
        this.#events.held?.(id, false);
      }, INBOX_HOLD_MAX_MS);
      entry.hold = handle;
    } else {
      if (entry.hold !== undefined) this.#clock.clearTimeout(entry.hold);
      delete entry.hold;
    }
    this.#events.held?.(id, held);
    return true;
  }

  /** Takes item `id` out of the inbox, and ends its hold (see {@link hold}). */
  #take(id: string): void {
    const hold = this.#items.get(id)?.hold;
    if (hold !== undefined) this.#clock.clearTimeout(hold);
    this.#items.delete(id);
  }

  /** Whether some pending item matches (read in place: nothing is copied). */
  some(predicate: (item: Readonly<InboxItem>) => boolean): boolean {
    for (const { item } of this.#items.values()) if (predicate(item)) return true;
    return false;
  }

  /** Copies of the pending items, oldest first by when their servers asked. */
  list(): InboxItem[] {
    // Not the order they came in: a model's answer to review comes after questions asked since its
    // request, with the request's time, and takes the request's place (as the Desk puts it live).
    return [...this.#items.values()]
      .map(({ item }) => copyJson(item))
      .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  }

  /**
   * Withdraws the pending items that match, on Taskdesk's side: each leaves the inbox as withdrawn,
   * with `reason` (why, in words for a person), and its request is answered as a person dismissing
   * it would answer it (an elicitation cancelled, a sampling item rejected: −1), so that the server
   * is not left waiting. `byYou`: the person's own action is why (they cancelled the task the items
   * were asked for), told with `removed`. `cause`: why, for a machine ({@link withdrawalCause}).
   * Returns how many were withdrawn.
   */
  withdraw(
    predicate: (item: Readonly<InboxItem>) => boolean,
    reason: string,
    byYou = false,
    cause?: WithdrawalCause
  ): number {
    let withdrawn = 0;
    for (const [id, entry] of [...this.#items]) {
      if (!predicate(entry.item)) continue;
      this.#take(id);
      this.#events.removed(id, 'withdrawn', entry.item, { reason, byYou });
      entry.settle(this.#withdrawal(entry.item, reason, byYou, cause));
      withdrawn++;
    }
    return withdrawn;
  }

  /**
   * Hands the question asked with `signal` over to another way of answering it, before the person
   * answers: it leaves the inbox as `answered` (not withdrawn: no notice, no `inbox.withdrawn`
   * entry, as its request is not answered now but goes on), and its ask resolves with an answer
   * {@link isHandedOver} tells apart, for the asker to go on its other way. The next question asked
   * with the same signal takes its place (see {@link ask}), and what was typed into the item's card
   * is kept for it (`handedOver`, told with `removed`). False when none waits: the person's
   * answer came first (an answer is taken at once, so one of the two wins, never both).
   */
  handOver(signal: AbortSignal): boolean {
    for (const [id, entry] of this.#items) {
      if (entry.signal !== signal) continue;
      this.#take(id);
      this.#places.set(signal, { id, createdAt: entry.item.createdAt });
      this.#events.removed(id, 'answered', entry.item, { handedOver: true });
      const answer: InboxAnswer = { action: 'reject' };
      this.#handOvers.add(answer);
      entry.settle(answer);
      return true;
    }
    return false;
  }

  /** Whether `answer` is the one {@link handOver} gave: nobody answered the question. */
  isHandedOver(answer: InboxAnswer): boolean {
    return this.#handOvers.has(answer);
  }

  /** The answer Taskdesk gives for an item it withdraws: as a person dismissing it would. */
  #withdrawal(item: Readonly<InboxItem>, reason: string, byYou = false, cause?: WithdrawalCause): InboxAnswer {
    const answer: InboxAnswer = item.kind === 'elicitation' ? { action: 'cancel' } : { action: 'reject', reason };
    this.#withdrawals.set(answer, { reason, byYou, ...(cause !== undefined && { cause }) });
    return answer;
  }

  /** Whether `answer` is one Taskdesk gave ({@link withdraw}, or as the item arrived) rather than the person's. */
  isWithdrawal(answer: InboxAnswer): boolean {
    return this.#withdrawals.has(answer);
  }

  /** Why Taskdesk gave `answer` (see {@link isWithdrawal}), in words for a person; undefined for a person's answer. */
  withdrawalReason(answer: InboxAnswer): string | undefined {
    return this.#withdrawals.get(answer)?.reason;
  }

  /**
   * Whether Taskdesk gave `answer` because of the person's own action ({@link withdraw}'s `byYou`:
   * they cancelled or forgot the task it was asked for); false for any other answer.
   */
  withdrawnByYou(answer: InboxAnswer): boolean {
    return this.#withdrawals.get(answer)?.byYou === true;
  }

  /** The cause {@link withdraw} was given for `answer`; undefined without one, and for a person's answer. */
  withdrawalCause(answer: InboxAnswer): WithdrawalCause | undefined {
    return this.#withdrawals.get(answer)?.cause;
  }

  /**
   * Answers an item. Throws −32602 with per-field errors in `data.fields` when form content
   * does not match the requested schema, or when the answer does not fit the item's kind.
   */
  answer(id: string, answer: InboxAnswer): void {
    const entry = this.#items.get(id);
    if (!entry) throw new HostError(JsonRpcCode.InvalidParams, `No pending inbox item ${id}`);
    const { item } = entry;
    const allowed = ALLOWED_ANSWERS[item.kind];
    if (!allowed.includes(answer.action)) {
      throw new HostError(
        JsonRpcCode.InvalidParams,
        `A ${item.kind} item is answered with ${allowed.join(', ')}, not ${answer.action}`
      );
    }
    if (item.kind === 'elicitation' && answer.action === 'accept' && item.request.mode !== 'url') {
      const fields = validateElicitationContent(item.request.requestedSchema, answer.content ?? {});
      if (Object.keys(fields).length > 0) {
        throw new HostError(
          JsonRpcCode.InvalidParams,
          `The answer does not match the form: ${Object.entries(fields)
            .map(([field, message]) => `${field || 'content'}: ${message}`)
            .join('; ')}`,
          { fields }
        );
      }
    }
    entry.validate?.(answer);
    this.#take(id);
    this.#events.answered?.(item, answer.action);
    this.#events.removed(id, 'answered', item);
    entry.settle(answer);
  }
}
