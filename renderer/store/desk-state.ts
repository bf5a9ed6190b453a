import type {
  HostEvent,
  HostEventPayload,
  InboundTask,
  HistorySummary,
  InboxDraftValues,
  InboxItem,
  OutboundTaskView,
  PlainCallView,
  ProviderView,
  SamplingPolicy,
  ServerView
} from '../../app/contract/host-api.js';
import type { ConversationSummary } from '../../app/contract/assistant.js';
import type { InputExchangeView } from '../../app/contract/input-exchanges.js';
import { initialAssistantSlice, type AssistantSlice } from './assistant-slice.js';

/** Text a model is writing now, for a task or (keyed by its stream) a request that is not one. */
export interface LiveStream {
  key: string;
  serverId: string;
  taskId: string | undefined;
  model: string;
  text: string;
}

/** What the host holds, as one fetch of every list returns it. */
export interface DeskSnapshot {
  servers: ServerView[];
  policies: Record<string, SamplingPolicy>;
  inbox: InboxItem[];
  tasks: InboundTask[];
  outbound: OutboundTaskView[];
  providers: ProviderView[];
  /** Plain tool calls running now (`tools.runningCalls`): their elapsed time and Cancel survive a reload. */
  calls: PlainCallView[];
  /** The assistant's conversations (`assistant.list`). */
  conversations: ConversationSummary[];
  /** Multi round-trip requests (`exchanges.list`): the Inbox shows those waiting for the person. */
  exchanges?: InputExchangeView[];
  /**
   * The model requests History last saw end, newest last (`history.list`), fetched while the
   * line above the Inbox says a run is running: it may have ended while the page heard nothing.
   */
  endedRuns?: HistorySummary[];
  /**
   * What History says of the Inbox items the page was writing in that the lists no longer have
   * (`history.list`), fetched when there are any: they went while the page heard nothing, and
   * History tells whether Taskdesk (at its restart, say) or their server withdrew them.
   */
  goneItems?: HistorySummary[];
}

/** One host event as an action: `event` names it, `payload` is what the host sent. */
export type HostEventAction = {
  [E in HostEvent]: { type: 'event'; event: E; payload: HostEventPayload<E> };
}[HostEvent];

/** Everything the reducer folds. */
export type DeskAction =
  | HostEventAction
  /** A snapshot is being fetched: events from now on are kept, to be folded over it. */
  | { type: 'sync-started'; syncId: number }
  | { type: 'snapshot'; syncId: number; snapshot: DeskSnapshot }
  | { type: 'sync-failed'; syncId: number; message: string }
  /** Whether the page hears the host's events; a message says why not. */
  | { type: 'connection'; online: boolean; message?: string }
  /** A stream that is not a task stopped updating (its last update never came). */
  | { type: 'live-expired'; key: string }
  /** The person read a notice: a question that expired unanswered, or an approved run that failed. */
  | { type: 'notice-dismissed'; id: string }
  /** The connect that Add server started was refused: its card says so. */
  | { type: 'connect-failed'; serverId: string; failure: ConnectFailure }
  /** The person dismissed that, or pressed Connect again. */
  | { type: 'connect-failure-cleared'; serverId: string }
  /** An Inbox answer the host took, in words, shown where its card was; `run` when it started a model. */
  | { type: 'inbox-answered'; text: string | undefined; run?: AnsweredRun; item?: AnsweredItem }
  /** What the person has typed into an Inbox card so far (undefined: nothing), kept for its withdrawal's notice. */
  | { type: 'inbox-draft'; id: string; text: string | undefined }
  /** The values of an Inbox card the person changed (null: they emptied it), for another card of the item to start from. */
  | { type: 'inbox-draft'; id: string; values: InboxDraftValues | null }
  /**
   * Inbox answers held for their undo window, dropped unsent as their items went: each item's
   * withdrawal notice says so (`answer`, its button: "Reject").
   */
  | { type: 'held-dropped'; answers: Array<{ id: string; answer: string }> };

/**
 * A model run the person's approval started, that the line above the cards tells about ("… is
 * running") until it ends: by its task, or for a request that was no task by its History entry
 * (the same server, and the time it was asked).
 */
/** The Inbox item an answer was given to, as far as the Inbox's line needs it: the task it links on to. */
export type AnsweredItem = Pick<InboxItem, 'id' | 'serverId' | 'taskId' | 'relatedTaskId' | 'relatedCall'>;

export interface AnsweredRun {
  serverId: string;
  taskId?: string;
  /** The item's `createdAt`: when the server asked. */
  createdAt: string;
  /** What the line says once the model's answer went back ("Approved; m answered Server a."). */
  ended: string;
}

/** An item handed over (see `DeskState.handedOver`): what tells its request's History entry. */
export type HandedOverItem = Pick<InboxItem, 'serverId' | 'taskId' | 'createdAt'>;

/** A connect the host refused, in words: what failed, why, what to do (an `ActionError`'s failure). */
export interface ConnectFailure {
  what: string;
  why?: string;
  next?: string;
}

/**
 * The UI's state: a projection of the host API. Views select from it and keep no copies of
 * server, inbox or task data.
 */
export interface DeskState {
  /** A snapshot has been applied at least once. */
  ready: boolean;
  /** Why the page cannot hear the host or load from it; undefined while all is well. */
  problem: string | undefined;
  /**
   * The host's event stream is down (`connection` with `online: false`, until `online: true`):
   * nothing the page shows changes with the host until it is back. A failed fetch of the lists
   * (`problem` set by `sync-failed`) is not this: events are still heard.
   */
  offline: boolean;
  servers: ServerView[];
  policies: Record<string, SamplingPolicy>;
  /** Pending questions, in the order they arrived. */
  inbox: InboxItem[];
  /** Inbound tasks by task id. */
  tasks: Record<string, InboundTask>;
  /** Outbound (tool-call) tasks by outbound id. */
  outbound: Record<string, OutboundTaskView>;
  providers: ProviderView[];
  /** Models writing now, by task id or stream id. */
  live: Record<string, LiveStream>;
  warnings: Array<HostEventPayload<'store.warning'>>;
  /** Moves with every change the audit log records: the audit screen reads the log again. */
  auditRevision: number;
  /** Plain tool calls running now, by call id (an ended call leaves). */
  calls: Record<string, PlainCallView>;
  /** Moves with every change of the task history: a history view reads its page again. */
  historyRevision: number;
  /** Moves, per server, each time it says its tools changed: the Tools screen lists them again. */
  toolsRevisions: Record<string, number>;
  /** Moves, per server, each time it says its prompts or resources changed: a picker of them lists them again. */
  sourcesRevisions: Record<string, number>;
  /** Questions that expired before anyone answered (from `history.changed`), newest last, until dismissed. */
  unanswered: HistorySummary[];
  /**
   * Multi round-trip requests waiting for the person to finish in the browser what a link they
   * agreed to open asks (`waiting-for-you`), by exchange id: the Inbox shows each with Continue.
   */
  waitingExchanges: Record<string, InputExchangeView>;
  /** Inbox items past their `warnAt`, by id: about to expire unanswered. */
  expiring: Record<string, true>;
  /** Model runs the person approved that then failed, oldest first, until dismissed. */
  failedRuns: Array<HostEventPayload<'sampling.approvedRunFailed'>>;
  /** Ordinary (not task) requests their server withdrew before anyone answered, oldest first, until dismissed. */
  withdrawn: WithdrawnNotice[];
  /**
   * Connects started by Add server that the host refused, by server id: the form is gone by
   * then, so the server's card says so, until dismissed, tried again, or the server is ready or
   * removed.
   */
  connectFailures: Record<string, ConnectFailure>;
  /**
   * The Inbox items that went withdrawn (not answered) lately, the newest last (a few dozen kept):
   * when one held the focus, the card the focus goes on to has not been looked at, and the Inbox's
   * a, d and x ask for a second press there. Several may go before the Inbox renders.
   */
  lastWithdrawn?: string[];
  /** What the person's last Inbox answer did ("Declined: Everything’s question."), until the next one or leaving the Inbox. */
  lastAnswered?: string;
  /** The run `lastAnswered` says is running, until it ends. */
  answeredRun?: AnsweredRun;
  /** The item `lastAnswered` was said of, with those words: while the line still says them, it links on to the item's task. */
  answeredItem?: AnsweredItem & { said: string };
  /**
   * What the person has typed into Inbox cards not yet answered, by item id: a withdrawn card's
   * notice keeps it (`WithdrawnNotice.draft`), so a reply being written is not lost with the card.
   */
  drafts: Record<string, string>;
  /**
   * The values last typed into Inbox cards, by item id (null: emptied): a card of the item that
   * mounts later (the Assistant's chat shows a task's questions too) starts from these, not from
   * the `keptDraft` the item came with, which is older. See {@link startDraft}.
   */
  draftValues: Record<string, InboxDraftValues | null>;
  /**
   * Inbox items handed over to the model path with something typed into their cards
   * (`inbox.removed`'s `handedOver`), by id: their `drafts` and `draftValues` are kept for the
   * approval card that takes their place under the same id, until it comes, or until History says
   * the request ended without one ("Run without asking": the model answered), when they go.
   */
  handedOver?: Record<string, HandedOverItem>;
  /**
   * The last few model requests History said ended (newest last): a run can end before the
   * reply to its approval comes back, and a request that was no task leaves nothing else behind.
   */
  endedRuns: HistorySummary[];
  /** The assistant's conversations and the answers streaming now. */
  assistant: AssistantSlice;
  /** The snapshot being fetched and the events heard since it was asked for. */
  sync: { syncId: number; pending: HostEventAction[] } | undefined;
}

/** The state before anything is known. */
export const initialDeskState: DeskState = {
  ready: false,
  problem: undefined,
  offline: false,
  servers: [],
  policies: {},
  inbox: [],
  tasks: {},
  outbound: {},
  providers: [],
  live: {},
  warnings: [],
  auditRevision: 0,
  calls: {},
  historyRevision: 0,
  toolsRevisions: {},
  sourcesRevisions: {},
  unanswered: [],
  waitingExchanges: {},
  expiring: {},
  failedRuns: [],
  withdrawn: [],
  connectFailures: {},
  drafts: {},
  draftValues: {},
  endedRuns: [],
  assistant: initialAssistantSlice,
  sync: undefined
};

/** A question its server stopped waiting for (ordinary requests have no TTL, so no History entry says so). */
export interface WithdrawnNotice {
  id: string;
  serverName: string;
  kind: InboxItem['kind'];
  /** What it asked (`requestTitle`), whole: the question, or a model request's last text (the notice cuts it short, with a Show all). */
  message?: string;
  /** Set when Taskdesk withdrew it, not its server: why (the task it was asked for has ended). */
  reason?: string;
  /** Set when its server withdrew it after the person stopped a call it may have been for: that call's tool. */
  afterStoppedCall?: string;
  /** Set when its server said the request timed out as it withdrew it. */
  timedOut?: true;
  /** It went while the page heard nothing (answered elsewhere, or withdrawn): what happened is not known. */
  offline?: boolean;
  /** What the person had typed into its card, not sent: kept here for them to copy. */
  draft?: string;
  /**
   * The answer the person had given it ("Reject"), held for its undo window when it went:
   * never sent, so the notice says so rather than "before you answered".
   */
  heldAnswer?: string;
}

/**
 * What a card of `item` starts from as it mounts: what was last typed into a card of it in this
 * page, else the draft the host kept (`keptDraft`); undefined when there is neither, or the
 * person emptied it.
 */
export function startDraft(state: DeskState, item: InboxItem): InboxDraftValues | undefined {
  return item.id in state.draftValues ? (state.draftValues[item.id] ?? undefined) : item.keptDraft;
}

/**
 * How far the lists (and the counts the bar and the tab's title show) can be taken as current:
 * `no-contact` while the event stream is down; `not-up-to-date` while it is up but the last fetch
 * of the lists failed, or while the lists are fetched again after the page had them (a reconnect:
 * events sent while it was down are lost); else `current`.
 */
export type ListsFreshness = 'current' | 'no-contact' | 'not-up-to-date';

/** See {@link ListsFreshness}. */
export function listsFreshness(state: DeskState): ListsFreshness {
  if (state.offline) return 'no-contact';
  if (state.problem !== undefined || (state.ready && state.sync !== undefined)) return 'not-up-to-date';
  return 'current';
}
