import type {
  HostEventPayload,
  InboundTask,
  InboxDraftValues,
  InboxItem,
  OutboundTaskView,
  PlainCallView
} from '../../app/contract/host-api.js';
import type { HistorySummary } from '../../app/contract/history.js';
import type {
  AnsweredRun,
  DeskAction,
  DeskSnapshot,
  DeskState,
  HostEventAction,
  LiveStream,
  WithdrawnNotice
} from './desk-state.js';
import { isTerminal } from './task-status.js';
import { requestTitle } from '../components/request-title.js';
import { askedAgainWords } from '../components/exchange-words.js';
import { applyAssistantEvent, mergeSummaries } from './assistant-slice.js';

/**
 * The one reducer of the Desk: a snapshot of the host's lists, folded forward by host events.
 *
 * Events heard while a snapshot is on its way are applied at once and kept; when the snapshot
 * lands they are folded over it again, so an answer or a removal that crossed the fetch is
 * never undone by it. Every event is safe to apply twice and to items the state lacks.
 */
export function deskReducer(state: DeskState, action: DeskAction): DeskState {
  switch (action.type) {
    case 'event': {
      const next = applyEvent(state, action);
      return state.sync ? { ...next, sync: { ...state.sync, pending: [...state.sync.pending, action] } } : next;
    }
    case 'sync-started':
      return { ...state, sync: { syncId: action.syncId, pending: [] } };
    case 'snapshot': {
      // An older fetch answering after a newer one started says nothing the newer will not.
      if (state.sync?.syncId !== action.syncId) return state;
      const base = fromSnapshot(state, action.snapshot);
      return state.sync.pending.reduce(applyEvent, { ...base, sync: undefined });
    }
    case 'sync-failed':
      if (state.sync?.syncId !== action.syncId) return state;
      // Out of contact, the notice keeps saying so (and that it reconnects), not that a fetch failed.
      return { ...state, sync: undefined, problem: state.offline ? state.problem : action.message };
    case 'connection':
      return { ...state, offline: !action.online, problem: action.online ? undefined : action.message };
    case 'live-expired':
      return withoutLive(state, action.key);
    case 'notice-dismissed':
      if (state.failedRuns.some((run) => run.id === action.id))
        return { ...state, failedRuns: state.failedRuns.filter((run) => run.id !== action.id) };
      if (state.withdrawn.some((notice) => notice.id === action.id))
        return { ...state, withdrawn: state.withdrawn.filter((notice) => notice.id !== action.id) };
      return state.unanswered.some((entry) => entry.id === action.id)
        ? { ...state, unanswered: state.unanswered.filter((entry) => entry.id !== action.id) }
        : state;
    case 'connect-failed':
      return { ...state, connectFailures: { ...state.connectFailures, [action.serverId]: action.failure } };
    case 'connect-failure-cleared':
      return withoutConnectFailure(state, action.serverId);
    case 'held-dropped': {
      // The newest notice of each item: an id's earlier notice was of an earlier withdrawal.
      const answers = new Map(action.answers.map(({ id, answer }) => [id, answer]));
      const last = new Map(state.withdrawn.map((notice, at) => [notice.id, at]));
      if (!action.answers.some(({ id }) => last.has(id))) return state;
      return {
        ...state,
        withdrawn: state.withdrawn.map((notice, at) => {
          const answer = answers.get(notice.id);
          return answer !== undefined && last.get(notice.id) === at ? { ...notice, heldAnswer: answer } : notice;
        })
      };
    }
    case 'inbox-answered': {
      // Two answers may be said in the same words ("Answer sent to Everything."): the item tells them apart.
      if (
        state.lastAnswered === action.text &&
        state.answeredRun === action.run &&
        state.answeredItem?.id === action.item?.id
      )
        return state;
      const answeredItem = action.item && action.text !== undefined ? { ...action.item, said: action.text } : undefined;
      const next = { ...state, lastAnswered: action.text, answeredRun: action.run, answeredItem };
      // The run may have ended before the answer's reply came back (events and replies cross):
      // its answer to review (a request that is no task's comes under a new id), or the request
      // back, is here already, and nothing will end the line after.
      const { run } = action;
      if (run && waitsAfterRun(state.inbox, run, action.item?.id))
        return { ...next, lastAnswered: undefined, answeredRun: undefined };
      const task = run?.taskId !== undefined ? state.tasks[run.taskId] : undefined;
      if (task && isTerminal(task.task.status)) return runEnded(next, task.task.status === 'completed');
      const ended = run && state.endedRuns.findLast((entry) => runOf(entry, run));
      return ended ? runEnded(next, answeredBy(ended)) : next;
    }
    case 'inbox-draft':
      return 'values' in action
        ? withDraftValues(state, action.id, action.values)
        : withDraft(state, action.id, action.text);
    default: {
      const missed: never = action;
      throw new Error(`Unknown action ${JSON.stringify(missed)}`);
    }
  }
}

function fromSnapshot(state: DeskState, snapshot: DeskSnapshot): DeskState {
  const tasks: Record<string, InboundTask> = {};
  for (const task of snapshot.tasks) tasks[task.task.taskId] = task;
  const outbound: Record<string, OutboundTaskView> = {};
  for (const task of snapshot.outbound) outbound[task.outboundId] = task;
  const calls: Record<string, PlainCallView> = {};
  for (const call of snapshot.calls) if (call.state === 'running') calls[call.callId] = call;
  // Streams go on across a refetch, except those of tasks that have ended meanwhile.
  const live: Record<string, LiveStream> = {};
  for (const [key, stream] of Object.entries(state.live)) {
    const task = stream.taskId ? tasks[stream.taskId] : undefined;
    if (!task || !isTerminal(task.task.status)) live[key] = stream;
  }
  const endedRuns = [
    ...state.endedRuns.filter((entry) => !snapshot.endedRuns?.some((ended) => ended.id === entry.id)),
    ...(snapshot.endedRuns ?? [])
  ].slice(-ENDED_RUNS_KEPT);
  // A card the person had typed into that went while the page heard nothing: its notice keeps
  // what they wrote, as a withdrawal heard would, and says why as that one would when History
  // tells (Taskdesk withdrew it, at its restart say, or its server did); else that it is not known.
  const offline: WithdrawnNotice[] = [];
  for (const id of Object.keys(state.drafts)) {
    const item = state.inbox.find((known) => known.id === id);
    if (!item || snapshot.inbox.some((known) => known.id === id)) continue;
    // The whole question: the notice cuts it short itself, with a Show all (see unanswered-notices.tsx).
    const message = requestTitle(item.kind, item.request, Infinity);
    const entry = snapshot.goneItems?.find((ended) => isEntryOf(ended, item));
    offline.push({
      id,
      serverName: item.serverName,
      kind: item.kind,
      ...(message !== undefined && { message }),
      ...whyGone(entry),
      draft: state.drafts[id]!
    });
  }
  const next: DeskState = {
    ...state,
    ready: true,
    // Lists that came while the event stream is down are not kept current by it: still out of contact.
    problem: state.offline ? state.problem : undefined,
    servers: snapshot.servers,
    policies: snapshot.policies,
    inbox: dedupe(snapshot.inbox),
    drafts: Object.fromEntries(
      Object.entries(state.drafts).filter(([id]) => snapshot.inbox.some((item) => item.id === id))
    ),
    draftValues: Object.fromEntries(
      Object.entries(state.draftValues).filter(([id]) => snapshot.inbox.some((item) => item.id === id))
    ),
    // What was typed into an item handed over stays only if the snapshot has its item (the card
    // that took its place, or the item itself when the hand-over is among the events folded over it).
    handedOver: undefined,
    withdrawn: [...state.withdrawn, ...offline],
    tasks,
    outbound,
    providers: snapshot.providers,
    calls,
    live,
    endedRuns,
    waitingExchanges: Object.fromEntries(
      (snapshot.exchanges ?? [])
        .filter((exchange) => exchange.state === 'waiting-for-you')
        .map((exchange) => [exchange.exchangeId, exchange])
    ),
    assistant: mergeSummaries(state.assistant, snapshot.conversations)
  };
  return withRunChecked(next);
}

/**
 * Whether a History entry is that of an Inbox item, ended: a task's by its id, a request that
 * was no task by who asked, what and when (History keeps the time the server asked, as the item does).
 */
export function isEntryOf(
  entry: HistorySummary,
  item: Pick<InboxItem, 'kind' | 'serverId' | 'taskId' | 'createdAt'>
): boolean {
  return (
    entry.endedAt !== undefined &&
    entry.direction === 'received' &&
    entry.kind === historyKindOf(item) &&
    entry.serverId === item.serverId &&
    entry.taskId === item.taskId &&
    entry.createdAt === item.createdAt
  );
}

/** The kind History lists an Inbox item's request under: a question, or a model request (approved, reviewed or not). */
export function historyKindOf(item: Pick<InboxItem, 'kind'>): 'elicitation' | 'sampling' {
  return item.kind === 'elicitation' ? 'elicitation' : 'sampling';
}

/**
 * Why an item went while the page heard nothing, as its withdrawal's notice says it: withdrawn by
 * Taskdesk or by the person's own act elsewhere (History's words why), or by its server; not known
 * (`offline`) without a History entry that says it was withdrawn (it may have been answered in
 * another window).
 */
function whyGone(entry: HistorySummary | undefined): Pick<WithdrawnNotice, 'reason' | 'offline'> {
  if (entry?.status !== 'cancelled') return { offline: true };
  if (entry.cancelledBy === 'server') return {};
  const by = entry.cancelledBy === 'taskdesk' || entry.cancelledBy === 'you';
  return by && entry.statusMessage !== undefined ? { reason: entry.statusMessage } : { offline: true };
}

/**
 * The approved run as the state now tells it, after a snapshot (events may have been missed
 * while the page was offline): over once its task has ended or gone, once its answer waits for
 * review in the Inbox (or its request, the run having failed), or once History says it ended; said running only while none of these is so.
 */
function withRunChecked(state: DeskState): DeskState {
  const run = state.answeredRun;
  if (!run) return state;
  if (waitsAfterRun(state.inbox, run)) return { ...state, lastAnswered: undefined, answeredRun: undefined };
  const ended = state.endedRuns.findLast((entry) => runOf(entry, run));
  if (ended) return runEnded(state, answeredBy(ended));
  if (run.taskId === undefined) return state;
  const task = state.tasks[run.taskId];
  // A task no longer held ended (it expired, or was removed); History, when it had said how, said so above.
  return !task || isTerminal(task.task.status) ? runEnded(state, task?.task.status === 'completed') : state;
}

/**
 * Whether the run's answer waits for review in `inbox`, or its request is back (the run failed):
 * the model is done. `answered`: the item the approval answered, which is not its own request back.
 */
function waitsAfterRun(
  inbox: readonly InboxItem[],
  run: Pick<AnsweredRun, 'serverId' | 'taskId' | 'createdAt'>,
  answered?: string
): boolean {
  return inbox.some(
    (item) =>
      item.id !== answered &&
      (item.kind === 'sampling-review' || item.draft?.lastFailure !== undefined) &&
      item.serverId === run.serverId &&
      item.taskId === run.taskId &&
      item.createdAt === run.createdAt
  );
}

function dedupe<T extends { id: string }>(items: T[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(item.id) && seen.add(item.id));
}

/** Keeps what was typed into an Inbox card (only while the card is there), or forgets it. */
function withDraft(state: DeskState, id: string, text: string | undefined): DeskState {
  if (text !== undefined && text.trim() !== '') {
    if (state.drafts[id] === text || !state.inbox.some((item) => item.id === id)) return state;
    return { ...state, drafts: { ...state.drafts, [id]: text } };
  }
  if (!(id in state.drafts)) return state;
  const { [id]: _gone, ...drafts } = state.drafts;
  return { ...state, drafts };
}

/** Keeps the values last typed into an Inbox card (only while the card is there), or forgets them (`undefined`). */
function withDraftValues(state: DeskState, id: string, values: InboxDraftValues | null | undefined): DeskState {
  if (values === undefined) {
    if (!(id in state.draftValues)) return state;
    const { [id]: _gone, ...draftValues } = state.draftValues;
    return { ...state, draftValues };
  }
  if (!state.inbox.some((item) => item.id === id)) return state;
  return { ...state, draftValues: { ...state.draftValues, [id]: values } };
}

/** Forgets an item handed over (see `DeskState.handedOver`), and what was typed into it unless a card takes it up. */
function withoutHandedOver(state: DeskState, id: string, dropDrafts: boolean): DeskState {
  if (state.handedOver === undefined || !(id in state.handedOver)) return state;
  const { [id]: _gone, ...rest } = state.handedOver;
  const next = { ...state, handedOver: Object.keys(rest).length === 0 ? undefined : rest };
  return dropDrafts ? withDraftValues(withDraft(next, id, undefined), id, undefined) : next;
}

function withoutLive(state: DeskState, key: string): DeskState {
  if (!(key in state.live)) return state;
  const { [key]: _gone, ...live } = state.live;
  return { ...state, live };
}

/** Folds one host event into the state. */
export function applyEvent(state: DeskState, action: HostEventAction): DeskState {
  switch (action.event) {
    case 'task.changed': {
      const { taskId, task } = action.payload;
      const { [taskId]: _old, ...rest } = state.tasks;
      const tasks = task ? { ...rest, [taskId]: task } : rest;
      const next = { ...state, tasks };
      if (task && !isTerminal(task.task.status)) return next;
      // A task that ended (or expired) is no longer streaming, nor is the run approved for it
      // running, nor will a card come in the place of its question handed over.
      const ended = withoutHandedOver(withoutLive(next, taskId), taskId, true);
      return state.answeredRun?.taskId === taskId ? runEnded(ended, task?.task.status === 'completed') : ended;
    }
    case 'inbox.added': {
      const { item } = action.payload;
      // In the place of an item handed over: the reply written in its card is the approval card's
      // reply (`restoredApproval` reads it, as from `keptDraft`), and fits no other card.
      let next = state.inbox.some((known) => known.id === item.id)
        ? state
        : withoutHandedOver(
            { ...state, inbox: inOrder(state.inbox, item) },
            item.id,
            item.kind !== 'sampling-approval'
          );
      // The answer to review has arrived, or the request is back after its run failed: the model
      // is done writing, and "… is running" is over (the card says how).
      if (
        (item.kind === 'sampling-review' || item.draft?.lastFailure !== undefined) &&
        (next.lastAnswered !== undefined || next.answeredRun !== undefined)
      )
        next = { ...next, lastAnswered: undefined, answeredRun: undefined };
      if (item.taskId) next = withoutLive(next, item.taskId);
      else if (item.kind === 'sampling-review')
        for (const stream of Object.values(next.live))
          if (!stream.taskId && stream.serverId === item.serverId) next = withoutLive(next, stream.key);
      return next;
    }
    case 'inbox.removed': {
      const { id, why, reason, byYou, afterStoppedCall, handedOver, timedOut } = action.payload;
      const item = state.inbox.find((known) => known.id === id);
      if (!item) return state;
      const { [id]: _warned, ...expiring } = state.expiring;
      const draft = state.drafts[id];
      const gone: DeskState = {
        ...state,
        inbox: state.inbox.filter((known) => known.id !== id),
        expiring,
        // The Inbox hands the focus on from a card that went this way with care (see `lastWithdrawn`).
        ...(why === 'withdrawn' && { lastWithdrawn: [...(state.lastWithdrawn ?? []).slice(-49), id] })
      };
      // Handed over to the model path (nobody withdrew it: nothing says it went): what was typed
      // into its card waits for the approval card that takes its place (see `handedOver`).
      if (handedOver === true) {
        if (!(id in state.drafts) && !(id in state.draftValues)) return gone;
        const { serverId, taskId, createdAt } = item;
        return {
          ...gone,
          handedOver: { ...state.handedOver, [id]: { serverId, ...(taskId !== undefined && { taskId }), createdAt } }
        };
      }
      const next = withDraftValues(withDraft(gone, id, undefined), id, undefined);
      // A task's item that expires is told through History; an ordinary request has no TTL and
      // no History entry, so its withdrawal (the server cancelled it, or stopped waiting) is told
      // here, as is any item Taskdesk withdrew itself (`reason`: the task it was asked for ended),
      // unless the person's own action was why (`byYou`: they know; the store announces it) and
      // they had written nothing in it, or it says not why (a notice would read as the server's
      // doing). A task's question withdrawn with something typed or chosen in it gets one too: it
      // keeps what they wrote (`drafts`: a form's choices are written there as its text is),
      // saying why (`reason`, the person's own cancel included).
      if (why !== 'withdrawn' || (byYou === true && (draft === undefined || reason === undefined))) return next;
      if (item.taskId !== undefined && reason === undefined && draft === undefined) return next;
      // The whole question: the notice cuts it short itself, with a Show all that shows it all.
      const message = requestTitle(item.kind, item.request, Infinity);
      return {
        ...next,
        withdrawn: [
          ...state.withdrawn,
          {
            id,
            serverName: item.serverName,
            kind: item.kind,
            ...(message !== undefined && { message }),
            ...(reason !== undefined && { reason }),
            ...(afterStoppedCall !== undefined && { afterStoppedCall }),
            ...(timedOut === true && { timedOut }),
            // What the person was writing is not lost with the card: the notice keeps it to copy.
            ...(draft !== undefined && { draft })
          }
        ]
      };
    }
    case 'server.state': {
      const { serverId, state: connection } = action.payload;
      // A server the list does not have yet comes with `servers.changed`.
      if (!state.servers.some((server) => server.id === serverId)) return state;
      const next = connection.status === 'ready' ? withoutConnectFailure(state, serverId) : state;
      return {
        ...next,
        servers: state.servers.map((server) => (server.id === serverId ? { ...server, state: connection } : server))
      };
    }
    case 'servers.changed': {
      const ids = new Set(action.payload.servers.map((server) => server.id));
      const policies = Object.fromEntries(Object.entries(state.policies).filter(([id]) => ids.has(id)));
      const connectFailures = Object.fromEntries(Object.entries(state.connectFailures).filter(([id]) => ids.has(id)));
      return { ...state, servers: action.payload.servers, policies, connectFailures };
    }
    case 'policies.changed': {
      const { serverId, policy } = action.payload;
      if (!state.servers.some((server) => server.id === serverId)) return state;
      return { ...state, policies: { ...state.policies, [serverId]: policy } };
    }
    case 'providers.changed':
      return { ...state, providers: action.payload.providers };
    // The Audit log screen reads the log again.
    case 'audit.changed':
      return { ...state, auditRevision: state.auditRevision + 1 };
    case 'outbound.changed': {
      const change = action.payload;
      if (change.type === 'removed') {
        if (!(change.outboundId in state.outbound)) return state;
        const { [change.outboundId]: _gone, ...outbound } = state.outbound;
        return { ...state, outbound };
      }
      const known = state.outbound[change.task.outboundId];
      // A view a call returned may cross an event: never go back to an older one.
      if (known && known.updatedAt > change.task.updatedAt) return state;
      return {
        ...state,
        outbound: { ...state.outbound, [change.task.outboundId]: change.task }
      };
    }
    case 'sampling.partial': {
      const update = action.payload;
      const key = update.taskId ?? update.streamId;
      // The stream's last update: what it wrote goes on with the request (a review, a result).
      if (update.done) return withoutLive(state, key);
      const task = update.taskId ? state.tasks[update.taskId] : undefined;
      if (task && isTerminal(task.task.status)) return state;
      const stream: LiveStream = {
        key,
        serverId: update.serverId,
        taskId: update.taskId,
        model: update.model,
        text: update.text
      };
      return { ...state, live: { ...state.live, [key]: stream } };
    }
    case 'store.warning': {
      // Each new event stream starts with the host's warnings, and an event heard during a sync
      // is folded over the snapshot again: a warning already shown is not shown twice. A warning
      // with an id is that one (the same problem again is a new id, shown again); one without is
      // told apart by its words.
      const { message, movedTo, id, replaces } = action.payload;
      const same = (shown: HostEventPayload<'store.warning'>) =>
        id !== undefined || shown.id !== undefined
          ? shown.id === id
          : shown.message === message && shown.movedTo === movedTo;
      // The warning it takes the place of goes (a server's newest failed run made without asking).
      const kept = replaces === undefined ? state.warnings : state.warnings.filter((shown) => shown.id !== replaces);
      if (kept.some(same)) return kept === state.warnings ? state : { ...state, warnings: kept };
      return { ...state, warnings: [...kept, action.payload] };
    }
    case 'inbox.expiring': {
      const { item } = action.payload;
      if (!state.inbox.some((pending) => pending.id === item.id)) return state;
      return { ...state, expiring: { ...state.expiring, [item.id]: true } };
    }
    case 'call.changed': {
      const { call } = action.payload;
      if (call.state === 'running') return { ...state, calls: { ...state.calls, [call.callId]: call } };
      if (!(call.callId in state.calls)) return state;
      const { [call.callId]: _ended, ...calls } = state.calls;
      return { ...state, calls };
    }
    case 'tools.changed': {
      const { serverId } = action.payload;
      return {
        ...state,
        toolsRevisions: { ...state.toolsRevisions, [serverId]: (state.toolsRevisions[serverId] ?? 0) + 1 }
      };
    }
    case 'sources.changed': {
      const { serverId } = action.payload;
      return {
        ...state,
        sourcesRevisions: { ...state.sourcesRevisions, [serverId]: (state.sourcesRevisions[serverId] ?? 0) + 1 }
      };
    }
    case 'history.changed': {
      const { entry } = action.payload;
      let next: DeskState = { ...state, historyRevision: state.historyRevision + 1 };
      if (entry.endedAt !== undefined && entry.direction === 'received' && entry.kind === 'sampling') {
        next = { ...next, endedRuns: [...state.endedRuns.slice(-(ENDED_RUNS_KEPT - 1)), entry] };
        // A request handed over that ended with no card in its place: the model answered it.
        for (const [id, held] of Object.entries(state.handedOver ?? {}))
          if (runOf(entry, held)) next = withoutHandedOver(next, id, true);
      }
      if (state.answeredRun && runOf(entry, state.answeredRun)) next = runEnded(next, answeredBy(entry));
      // Said once per entry: the same event folded again over a snapshot adds nothing.
      if (!entry.unanswered || state.unanswered.some((known) => known.id === entry.id)) return next;
      return { ...next, unanswered: [...state.unanswered, entry] };
    }
    case 'assistant.partial':
    case 'assistant.changed':
    case 'assistant.approval': {
      const assistant = applyAssistantEvent(state.assistant, action.event, action.payload);
      return assistant === state.assistant ? state : { ...state, assistant };
    }
    case 'sampling.approvedRunFailed':
      // Said once: the same event folded again over a snapshot adds nothing.
      return state.failedRuns.some((run) => run.id === action.payload.id)
        ? state
        : { ...state, failedRuns: [...state.failedRuns, action.payload] };
    // Multi round-trip requests show through their questions in the Inbox, and while they wait
    // for the person to finish in the browser.
    case 'exchange.changed': {
      const { exchangeId, exchange } = action.payload;
      if (exchange?.state === 'waiting-for-you')
        return { ...state, waitingExchanges: { ...state.waitingExchanges, [exchangeId]: exchange } };
      const waiting = state.waitingExchanges[exchangeId];
      if (!waiting) return state;
      const { [exchangeId]: _gone, ...rest } = state.waitingExchanges;
      // Sent again without the person's Continue here: its server said they had finished (a
      // Continue here says its own line once it is answered). The card is gone; this says why.
      if (exchange?.state === 'retrying')
        return {
          ...state,
          waitingExchanges: rest,
          lastAnswered: `${waiting.serverName} says you have finished in the browser: Taskdesk ${askedAgainWords(waiting)}.`,
          answeredRun: undefined,
          answeredItem: undefined
        };
      return { ...state, waitingExchanges: rest };
    }
    // Told to the person by a system notification (see desk-notifications); the task itself came with `outbound.changed`.
    case 'outbound.ended':
      return state;
    // For the tray's and dock's count: the Desk that holds an answer shows it held already (`held`).
    case 'inbox.held':
      return state;
    default: {
      const missed: never = action;
      throw new Error(`Unknown host event ${JSON.stringify(missed)}`);
    }
  }
}

/** The approved run has ended: the line says the model answered, or goes (a failed run has its own notice). */
function runEnded(state: DeskState, answered: boolean): DeskState {
  if (!state.answeredRun) return state;
  return { ...state, lastAnswered: answered ? state.answeredRun.ended : undefined, answeredRun: undefined };
}

/** How many ended model requests are kept for an approval's reply that comes after its run ended. */
export const ENDED_RUNS_KEPT = 10;

function answeredBy(entry: HistorySummary): boolean {
  return entry.status === 'completed' && !entry.rejected;
}

/** Whether a History entry tells the end of the approved run: a task's by its id, a plain request's by who asked and when. */
function runOf(entry: HistorySummary, run: Pick<AnsweredRun, 'serverId' | 'taskId' | 'createdAt'>): boolean {
  return (
    entry.endedAt !== undefined &&
    entry.direction === 'received' &&
    entry.kind === 'sampling' &&
    entry.serverId === run.serverId &&
    entry.taskId === run.taskId &&
    entry.createdAt === run.createdAt
  );
}

function withoutConnectFailure(state: DeskState, serverId: string): DeskState {
  if (!Object.hasOwn(state.connectFailures, serverId)) return state;
  const { [serverId]: _gone, ...connectFailures } = state.connectFailures;
  return { ...state, connectFailures };
}

/**
 * The Inbox with `item` in its place, oldest first by when its server asked: after every item
 * asked at the same time or before. A model's answer to review comes with its request's time, so
 * it takes the place the request had rather than going after questions asked since.
 */
function inOrder(inbox: readonly InboxItem[], item: InboxItem): InboxItem[] {
  let at = inbox.length;
  while (at > 0 && inbox[at - 1]!.createdAt > item.createdAt) at -= 1;
  return [...inbox.slice(0, at), item, ...inbox.slice(at)];
}
