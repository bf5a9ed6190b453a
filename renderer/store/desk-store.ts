import type {
  HistorySummary,
  HostApiClient,
  HostEvent,
  HostEventPayload,
  InboxItem
} from '../../app/contract/host-api.js';
import { toHostCallError } from '../host-client.js';
import { deskReducer, ENDED_RUNS_KEPT, historyKindOf, isEntryOf } from './desk-reducer.js';
import { ended, requestTitle, withdrawnSentence } from '../components/request-title.js';
import { initialDeskState, type DeskAction, type DeskSnapshot, type DeskState } from './desk-state.js';
import { HeldAnswers, heldAnswerWord, type HeldAnswer } from './held-answers.js';
import {
  arrivalGathering,
  arrivalWords,
  handedOverGathering,
  handedOverWords,
  runFailedWords,
  type Arrival
} from './arrival-words.js';
import type { Gathering } from '../shell/announcer.js';

/** Every host event, listed at runtime without loading the contract's zod schemas into the page. */
const HOST_EVENTS = [
  'task.changed',
  'inbox.added',
  'inbox.removed',
  'server.state',
  'store.warning',
  'sampling.partial',
  'outbound.changed',
  'outbound.ended',
  'servers.changed',
  'providers.changed',
  'policies.changed',
  'audit.changed',
  'inbox.expiring',
  'inbox.held',
  'call.changed',
  'history.changed',
  'tools.changed',
  'sources.changed',
  'assistant.partial',
  'assistant.changed',
  'assistant.approval',
  'exchange.changed',
  'sampling.approvedRunFailed'
] as const satisfies readonly HostEvent[];
// An event added to the contract and not listed here fails to compile.
const _allEvents: Exclude<HostEvent, (typeof HOST_EVENTS)[number]> extends never ? true : never = true;

/** A model request's approval sent from its card, its reply not come yet (see `DeskStore.approving`). */
export interface PendingApproval {
  serverId: string;
  taskId?: string | undefined;
  /** The item's `createdAt`: its answer to review, and the request back, have the same. */
  createdAt: string;
  /** Said when its answer to review comes before the reply ("Approved; m answered: review its answer."). */
  reviewed: string;
}

/** How long a stream that is not a task may stay quiet before its entry goes (its `done` never came). */
export const QUIET_STREAM_MS = 30_000;

/** Options of {@link DeskStore}. */
export interface DeskStoreOptions {
  /**
   * Says something to screen readers: arrivals and withdrawals in the inbox, the assistant's
   * approvals and answers. An arrival comes with its gathering: arrivals said together are one
   * sentence that counts them (see `Announcer`).
   */
  announce?: (message: string, gathering?: Gathering<Arrival>) => void;
  setTimeout?: (callback: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
}

/**
 * The Desk's one store: the reducer's state, fed by the host's events and by snapshots fetched
 * on connect and reconnect. Components subscribe with `useSyncExternalStore`.
 */
export class DeskStore {
  readonly client: HostApiClient;
  #state: DeskState = initialDeskState;
  readonly #listeners = new Set<() => void>();
  readonly #options: DeskStoreOptions;
  readonly #quietTimers = new Map<string, unknown>();
  #syncId = 0;
  /** Tool calls already announced as waiting for approval (the event may come again for one). */
  readonly #announcedApprovals = new Set<string>();
  /** Model requests approved from a card whose reply has not come yet (see {@link DeskStore.approving}). */
  readonly #approving = new Set<PendingApproval & { said: boolean }>();
  /**
   * The items handed over to the model path (`inbox.removed`'s `handedOver`), by id: the approval
   * card that comes in the place of one (under its id) is no new request (see {@link handedOverWords}).
   */
  readonly #handedOver = new Set<string>();
  #unsubscribes: Array<() => void> = [];
  /**
   * The Inbox's Declines, Rejects and Dismisses in their undo window: each is sent when its
   * window ends, whichever screen is shown; one whose item goes meanwhile is dropped.
   */
  readonly held: HeldAnswers;
  /** The held answers the host was last told of (see {@link DeskStore.#tellHeld}). */
  #told: Readonly<Record<string, HeldAnswer>> = {};
  /** The last `inbox.hold` call: each goes after the one before, so an Undo never overtakes its hold. */
  #holdCall: Promise<unknown> = Promise.resolve();

  constructor(client: HostApiClient, options: DeskStoreOptions = {}) {
    this.client = client;
    this.#options = options;
    this.held = new HeldAnswers({
      setTimeout: (callback, ms) =>
        (this.#options.setTimeout ?? ((run: () => void, wait: number) => window.setTimeout(run, wait)))(callback, ms),
      clearTimeout: (handle) => this.#clearTimeout(handle)
    });
    this.held.subscribe(() => this.#tellHeld());
  }

  /**
   * Tells the host which answers are held (`inbox.hold`) as they are held and as they end: held,
   * the person has answered as far as they know, and the host's count of what waits on them (the
   * tray's and dock's) leaves the item out; taken back, or not sent, it waits on them again. One
   * that was sent ends with its item. A call that fails only leaves the count as it was: the host
   * ends a hold it was not told the end of after a while.
   */
  #tellHeld(): void {
    const held = this.held.getSnapshot();
    const told = this.#told;
    this.#told = held;
    const changes = [
      ...Object.keys(held)
        .filter((id) => !(id in told))
        .map((id) => ({ id, held: true })),
      ...Object.keys(told)
        .filter((id) => !(id in held))
        .map((id) => ({ id, held: false }))
    ];
    for (const change of changes)
      this.#holdCall = this.#holdCall.then(() => this.client.call('inbox.hold', change)).catch(() => undefined);
  }

  readonly getState = (): DeskState => this.#state;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  };

  dispatch(action: DeskAction): void {
    const previous = this.#state;
    const next = deskReducer(previous, action);
    if (next === previous) return;
    this.#state = next;
    // A question that ended (withdrawn, expired, answered elsewhere) takes its held answer with
    // it; its notice says that answer was waiting, and was not sent (not "before you answered").
    if (next.inbox !== previous.inbox) {
      const dropped = this.held.dropUnless(
        (id) => next.inbox.some((item) => item.id === id),
        withdrawnByServer(action)
      );
      if (dropped.length > 0)
        this.#state = deskReducer(this.#state, {
          type: 'held-dropped',
          answers: dropped.map(({ id, action: held }) => ({ id, answer: heldAnswerWord(held) }))
        });
    }
    for (const listener of [...this.#listeners]) listener();
  }

  /** Applies a fact the host reported, from an event or from a call's answer (the same path). */
  apply<E extends HostEvent>(event: E, payload: HostEventPayload<E>): void {
    this.dispatch({ type: 'event', event, payload } as DeskAction);
  }

  /**
   * Notes a model request's approval on its way to the host, until its reply comes. The reply and
   * the host's events cross (HTTP and SSE in browser mode): a model that answers at once may have
   * its answer to review (or, failed, the request) back before the reply. Its approval is then
   * said as that arrives, before it, in the words of how the run ended, not "… is running" after
   * it. Returns what the reply (or the refusal) calls: whether those words were said already.
   */
  approving(approval: PendingApproval): () => boolean {
    const pending = { ...approval, said: false };
    this.#approving.add(pending);
    return () => {
      this.#approving.delete(pending);
      return pending.said;
    };
  }

  /** Listens to every host event. Call once, before the first {@link refresh}, so nothing is missed. */
  listen(): void {
    this.#unsubscribes = HOST_EVENTS.map((event) =>
      this.client.on(event, (payload: HostEventPayload<typeof event>) => this.#heard(event, payload))
    );
  }

  /** Stops listening and drops the timers. */
  close(): void {
    for (const unsubscribe of this.#unsubscribes) unsubscribe();
    for (const handle of this.#quietTimers.values()) this.#clearTimeout(handle);
    this.#quietTimers.clear();
  }

  /** Fetches every list; events heard meanwhile are folded over the answer. */
  async refresh(): Promise<void> {
    const syncId = ++this.#syncId;
    this.dispatch({ type: 'sync-started', syncId });
    try {
      // A run the line says is running may have ended while the page heard nothing: History says.
      const snapshot = await fetchSnapshot(this.client, { endedRuns: this.#state.answeredRun !== undefined });
      // A card being written in that went meanwhile: History may say why (see `goneItems`).
      const goneItems = await fetchGoneItems(this.client, this.#state, snapshot.inbox);
      this.dispatch({ type: 'snapshot', syncId, snapshot: goneItems ? { ...snapshot, goneItems } : snapshot });
    } catch (error) {
      this.dispatch({
        type: 'sync-failed',
        syncId,
        message: `Could not load from Taskdesk: ${toHostCallError(error).message}`
      });
    }
  }

  #heard<E extends HostEvent>(event: E, payload: HostEventPayload<E>): void {
    if (event === 'inbox.added') {
      const { item } = payload as HostEventPayload<'inbox.added'>;
      // The approval first, then what came of it.
      this.#announceRunEnded(item);
      this.#announceArrival(item);
    }
    if (event === 'inbox.removed') {
      const removed = payload as HostEventPayload<'inbox.removed'>;
      const { id, why, reason, afterStoppedCall, timedOut } = removed;
      if (removed.handedOver === true) {
        // Bounded: a request run without asking leaves no card to take its id again.
        if (this.#handedOver.size >= 1_000) this.#handedOver.clear();
        this.#handedOver.add(id);
      }
      const item = why === 'withdrawn' ? this.#state.inbox.find((known) => known.id === id) : undefined;
      if (item) {
        // Said in a line of its own: the question quoted as far as tells which (its notice has it whole).
        const message = requestTitle(item.kind, item.request, 120);
        // An answer held for its undo window goes with it, unsent: said so, not "before you answered".
        const waiting = this.held.getSnapshot()[id];
        const heldAnswer = waiting?.phase === 'held' ? heldAnswerWord(waiting.action) : undefined;
        const said = withdrawnSentence({ ...item, message, reason, afterStoppedCall, heldAnswer, timedOut });
        this.apply('inbox.removed', removed);
        // Said only when the notice the reducer made holds it (none is made for the person's own
        // cancel, unless it keeps what they typed).
        const kept = this.#state.withdrawn.some((notice) => notice.id === id && notice.draft !== undefined)
          ? ' What you had written is kept in its notice.'
          : '';
        this.#options.announce?.(`${reason === undefined ? ended(said) : said}${kept}`);
        return;
      }
    }
    if (event === 'assistant.approval') this.#announceApproval(payload as HostEventPayload<'assistant.approval'>);
    if (event === 'assistant.partial') this.#announceAnswered(payload as HostEventPayload<'assistant.partial'>);
    this.apply(event, payload);
    if (event === 'sampling.partial') this.#watchQuiet(payload as HostEventPayload<'sampling.partial'>);
  }

  #announceArrival(item: InboxItem): void {
    if (this.#state.inbox.some((known) => known.id === item.id)) return;
    const arrival = { kind: item.kind, serverId: item.serverId, serverName: item.serverName };
    // In the place of a request that waited for the person's reply: the same request, now to approve.
    if (this.#handedOver.delete(item.id)) {
      this.#options.announce?.(handedOverWords([arrival]), handedOverGathering(arrival));
      return;
    }
    // A run the person approved failed, and its request is back: that is the news, with why. One
    // they stopped themselves they know of (its Stop said so).
    const failure = item.draft?.lastFailure;
    if (failure !== undefined) {
      if (failure.stopped !== true) this.#options.announce?.(runFailedWords(item, failure.message));
      return;
    }
    // Several arriving at once (within a frame) are said as one line that counts them.
    this.#options.announce?.(arrivalWords([arrival]), arrivalGathering(arrival));
  }

  /**
   * The answer to review (or the request back, its run failed) of a model request whose
   * approval's reply has not come: the approval is said now, as ended (see {@link approving}).
   */
  #announceRunEnded(item: InboxItem): void {
    const failure = item.draft?.lastFailure;
    if (item.kind !== 'sampling-review' && failure === undefined) return;
    for (const pending of this.#approving) {
      if (
        pending.said ||
        pending.serverId !== item.serverId ||
        pending.taskId !== item.taskId ||
        pending.createdAt !== item.createdAt
      )
        continue;
      pending.said = true;
      // The request back, its run failed: its arrival says so, with why (see `#announceArrival`).
      if (failure === undefined) this.#options.announce?.(pending.reviewed);
      return;
    }
  }

  /**
   * A tool call of the assistant waits for the person: said wherever they are, since the chat's
   * messages are not read out as they stream (see the message list).
   */
  #announceApproval({ conversationId, toolCall }: HostEventPayload<'assistant.approval'>): void {
    const key = `${conversationId}\u0000${toolCall.id}`;
    if (this.#announcedApprovals.has(key)) return;
    // Bounded: an id is only ever announced again after a thousand others.
    if (this.#announcedApprovals.size >= 1_000) this.#announcedApprovals.clear();
    this.#announcedApprovals.add(key);
    this.#options.announce?.(
      `The assistant asks to run ${toolCall.toolName ?? toolCall.functionName} in ${this.#conversationTitle(conversationId)}: approve or deny it on the Assistant screen.`
    );
  }

  /** The model's answer in a conversation is complete (its stream ended). */
  #announceAnswered({ conversationId, done }: HostEventPayload<'assistant.partial'>): void {
    if (!done || !(conversationId in this.#state.assistant.streams)) return;
    this.#options.announce?.(`The answer in ${this.#conversationTitle(conversationId)} is complete.`);
  }

  /** “Its title”, in quotes, or "a conversation" for one the Desk has not loaded. */
  #conversationTitle(conversationId: string): string {
    const { conversations, summaries } = this.#state.assistant;
    const title = conversations[conversationId]?.title ?? summaries.find((s) => s.id === conversationId)?.title;
    return title === undefined ? 'a conversation' : `“${title}”`;
  }

  /** A stream that is not a task ends with its `done` update; should that never come, it goes once quiet. */
  #watchQuiet(update: HostEventPayload<'sampling.partial'>): void {
    if (update.taskId) return;
    const key = update.streamId;
    const old = this.#quietTimers.get(key);
    if (old !== undefined) this.#clearTimeout(old);
    this.#quietTimers.delete(key);
    if (update.done) return;
    const set = this.#options.setTimeout ?? ((callback: () => void, ms: number) => window.setTimeout(callback, ms));
    this.#quietTimers.set(
      key,
      set(() => {
        this.#quietTimers.delete(key);
        this.dispatch({ type: 'live-expired', key });
      }, QUIET_STREAM_MS)
    );
  }

  #clearTimeout(handle: unknown): void {
    if (this.#options.clearTimeout) this.#options.clearTimeout(handle);
    else window.clearTimeout(handle as number);
  }
}

/** How many of a server's newest History entries of a kind are read to find an item that went. */
const GONE_ENTRIES_READ = 100;

/**
 * The History entries of the Inbox items `state` has and was being written in that `inbox` (the
 * lists just fetched) has not: the newest entries of each one's server and kind, those of the
 * items kept (see `DeskSnapshot.goneItems`). Undefined when none went or History says nothing of
 * them (it could not be read: their notices then say only that they went).
 */
export async function fetchGoneItems(
  client: HostApiClient,
  state: Pick<DeskState, 'inbox' | 'drafts'>,
  inbox: readonly InboxItem[]
): Promise<HistorySummary[] | undefined> {
  const gone = state.inbox.filter((item) => item.id in state.drafts && !inbox.some((known) => known.id === item.id));
  if (gone.length === 0) return undefined;
  const filters = new Map<string, { serverId: string; kind: 'elicitation' | 'sampling' }>();
  for (const item of gone) {
    const kind = historyKindOf(item);
    filters.set(`${item.serverId}\u0000${kind}`, { serverId: item.serverId, kind });
  }
  const pages = await Promise.all(
    [...filters.values()].map((filter) =>
      client
        .call('history.list', { filter: { direction: 'received', ...filter }, limit: GONE_ENTRIES_READ })
        .catch(() => undefined)
    )
  );
  const entries = pages.flatMap(
    (page) => page?.entries.filter((entry) => gone.some((item) => isEntryOf(entry, item))) ?? []
  );
  return entries.length > 0 ? entries : undefined;
}

/**
 * Every list the Desk shows, fetched at once; the policies of the listed servers after them.
 * With `endedRuns`, also the model requests History last saw end (see `DeskSnapshot.endedRuns`).
 */
export async function fetchSnapshot(
  client: HostApiClient,
  options: { endedRuns?: boolean } = {}
): Promise<DeskSnapshot> {
  const [servers, inbox, tasks, outbound, providers, calls, conversations, exchanges, ended] = await Promise.all([
    client.call('servers.list', {}),
    client.call('inbox.list', {}),
    client.call('tasks.list', {}),
    client.call('outbound.list', {}),
    client.call('providers.list', {}),
    client.call('tools.runningCalls', {}),
    client.call('assistant.list', {}),
    client.call('exchanges.list', {}),
    options.endedRuns
      ? // Only a check of the line above the Inbox: its failure does not fail the lists.
        client
          .call('history.list', { filter: { direction: 'received', kind: 'sampling' }, limit: ENDED_RUNS_KEPT })
          .catch(() => undefined)
      : undefined
  ]);
  const policies = Object.fromEntries(
    await Promise.all(
      servers.map(async (server) => [server.id, await client.call('sampling.getPolicy', { serverId: server.id })])
    )
  ) as DeskSnapshot['policies'];
  return {
    servers,
    policies,
    inbox,
    tasks,
    outbound,
    providers,
    calls,
    conversations,
    exchanges,
    // Newest last, as the state keeps them; a request still running has no end yet.
    ...(ended && { endedRuns: ended.entries.filter((entry) => entry.endedAt !== undefined).reverse() })
  };
}

/** Whether `action` is a server withdrawing an Inbox item itself (not Taskdesk, not an answer elsewhere). */
function withdrawnByServer(action: DeskAction): boolean {
  return (
    action.type === 'event' &&
    action.event === 'inbox.removed' &&
    action.payload.why === 'withdrawn' &&
    action.payload.reason === undefined
  );
}
