import { TOOL_REPORTED_AN_ERROR } from '../../app/contract/tool-error-words.js';
import type { InboundTask, InboxItem, OutboundTaskView, ServerView } from '../../app/contract/host-api.js';
import { answerNotFetched, type NotFetched } from './unfetched-answer.js';
import { isRejectedSampling } from '../../app/contract/rejected-sampling.js';
import { argumentsPreview, CALL_ARGUMENTS_CHARS } from '../../app/contract/request-preview.js';
import { searchFolded, searchWords } from '../../app/contract/search-words.js';
import { warningTime } from '../../app/contract/warning-time.js';
import { asText, truncate } from '../components/format.js';
import {
  CHANGED_BY_YOU,
  cancelledWords,
  WAITING_FOR_YOU,
  WAITING_FOR_YOU_LABEL
} from '../../app/contract/task-row-words.js';
import { BY_THE_ASSISTANT } from '../../app/contract/call-origin-words.js';
import { requestTitle } from '../components/request-title.js';
import { questionEndLabel, statusLabel } from '../components/status-words.js';
import { KIND_WORDS, type TaskKind } from '../components/kind-words.js';
import { isTerminal } from '../store/task-status.js';
import { isCancelling } from '../components/waiting-questions.js';
import { NO_RESULT, OUTCOME_TEXT_LIMIT, outcomeSummary, type OutcomeLine } from './outcome-summary.js';
import { errorLine, failedReason, isNoResultStored } from '../components/end-message.js';
import type { HeldAnswer } from '../store/held-answers.js';

/** One row of the Tasks screen: a task a server gave Taskdesk, or one Taskdesk asked of a server. */
export interface TaskItem {
  /** `received:<taskId>` or `requested:<outboundId>`: the same ids as History's. */
  key: string;
  direction: 'received' | 'requested';
  kind: TaskKind;
  taskId: string;
  serverId: string;
  serverName: string;
  /** What was asked, in a line. */
  title: string;
  /**
   * The protocol status, or a requested task's `expired` / `lost`; `cancelled` for a received
   * task Taskdesk withdrew (its server was told it was dismissed: see `InboundTask.withdrawn`).
   */
  status: string;
  running: boolean;
  createdAt: string;
  updatedAt: string;
  /** When the task's TTL ends (ISO); undefined when unlimited or unknown. */
  expiresAt: string | undefined;
  /** From when its countdown warns (as the Inbox's: five minutes before, or the last fifth of its life). */
  warnAt: string | undefined;
  cancelledBy: 'you' | 'server' | 'taskdesk' | undefined;
  /** A model request turned down (see `isRejectedSampling`): `failed`, said as "Rejected". */
  rejected: boolean;
  /**
   * What its badge says in place of its status: how a question to the person ended ("Answered",
   * "Declined", "Dismissed"), as History says it (see `questionEndLabel`), or "Answered" for a
   * model request the person answered (`InboundTask.answered`); else undefined.
   */
  label: string | undefined;
  /** The person changed a received task's request before it ran (History's "changed by you"). */
  edited: boolean;
  inbound?: InboundTask;
  outbound?: OutboundTaskView;
}

/** What a received request asks, in a line: the question, or the last message of the person. */
function receivedTitle(inbound: InboundTask): string {
  return (
    requestTitle(inbound.kind, inbound.request) ?? (inbound.kind === 'elicitation' ? 'A question' : 'A model request')
  );
}

/**
 * A received task's title as its row says it: a model request named as one, and whose, before
 * what it asks ("Model request from Everything: …"), as the Inbox's card says who asks to run a
 * model; its last message alone ("Resource trigger-…") did not say what the row was. A question
 * is its own words.
 */
export function receivedRowTitle(item: Pick<TaskItem, 'kind' | 'direction' | 'serverName' | 'title'>): string {
  if (item.kind !== 'sampling' || item.direction !== 'received') return item.title;
  return `${KIND_WORDS.sampling} from ${item.serverName}: ${item.title}`;
}

/** What a row's badge says of a running task the Inbox waits on the person for (see `waitsOnYou`), as History's does. */
export { WAITING_FOR_YOU_LABEL };

/** A received task as a row. */
export function receivedItem(inbound: InboundTask): TaskItem {
  const { task } = inbound;
  // Said as History says it: what Taskdesk answered for the person is no answer of theirs.
  const withdrawn = inbound.withdrawn !== undefined;
  const expiresAt = task.ttl === null ? undefined : new Date(Date.parse(task.createdAt) + task.ttl).toISOString();
  return {
    key: `received:${task.taskId}`,
    direction: 'received',
    kind: inbound.kind,
    taskId: task.taskId,
    serverId: inbound.serverId,
    serverName: inbound.serverName,
    title: receivedTitle(inbound),
    status: withdrawn ? 'cancelled' : task.status,
    running: !isTerminal(task.status),
    createdAt: task.createdAt,
    updatedAt: task.lastUpdatedAt,
    expiresAt,
    warnAt: expiresAt && warningTime(task.createdAt, expiresAt),
    cancelledBy: withdrawn && inbound.cancelledBy !== 'you' ? 'taskdesk' : inbound.cancelledBy,
    rejected:
      !withdrawn &&
      isRejectedSampling({
        kind: inbound.kind,
        direction: 'received',
        error: inbound.outcome?.type === 'error' ? inbound.outcome.error : undefined
      }),
    label: withdrawn
      ? undefined
      : (questionEndLabel({
          kind: inbound.kind,
          direction: 'received',
          status: task.status,
          result: inbound.outcome?.type === 'result' ? inbound.outcome.result : undefined
        }) ??
        // A model request the person answered (wrote its reply, or approved it), as History says it.
        (inbound.answered === true && task.status === 'completed' ? statusLabel('answered') : undefined)),
    edited: inbound.edited === true,
    inbound
  };
}

/** A requested (tool-call) task as a row. */
export function requestedItem(outbound: OutboundTaskView): TaskItem {
  return {
    key: `requested:${outbound.outboundId}`,
    direction: 'requested',
    kind: 'tool-call',
    taskId: outbound.taskId,
    serverId: outbound.serverId,
    serverName: outbound.serverName,
    title: outbound.toolName,
    status: outbound.state,
    running: !isTerminal(outbound.state),
    createdAt: outbound.createdAt,
    updatedAt: outbound.updatedAt,
    expiresAt: outbound.expiresAt ?? undefined,
    warnAt: outbound.expiresAt ? warningTime(outbound.createdAt, outbound.expiresAt) : undefined,
    cancelledBy: outbound.cancelledBy,
    rejected: false,
    label: undefined,
    edited: false,
    outbound
  };
}

/** How a task ended (or stands), in a line. */
export function itemOutcome(item: TaskItem): OutcomeLine {
  if (item.inbound) return outcomeSummary(item.inbound);
  const outbound = item.outbound!;
  const outcome = outbound.outcome;
  // Said as a received task's is (outcome-summary.ts): who cancelled it is said under its badge.
  if (outbound.state === 'cancelled' && outcome?.type !== 'result') return NO_RESULT;
  if (outbound.reason) return outbound.reason;
  // Its server said why it failed and kept no result: that is how it ended, the error that failed
  // it after it (none for the generic "has no result stored"), as its card and detail say it.
  const failed = failedReason(outbound);
  if (failed !== undefined)
    return {
      // Its Status column says Failed: the reason alone.
      text: failed,
      note:
        outcome?.type === 'error' && !isNoResultStored(outcome.error) ? errorLine(outbound.state, outcome.error) : ''
    };
  if (!outcome) return item.running ? 'Pending' : '—';
  if (outcome.type === 'error') return errorLine(outbound.state, outcome.error);
  const content = Array.isArray(outcome.result.content)
    ? (outcome.result.content as Array<Record<string, unknown>>)
    : [];
  const text = content.find((block) => block.type === 'text' && typeof block.text === 'string')?.text as
    string | undefined;
  // In the words its detail says it with, above the whole result.
  const flag = outcome.result.isError === true ? `${TOOL_REPORTED_AN_ERROR} ` : '';
  if (text !== undefined) return { before: flag, markdown: truncate(text, OUTCOME_TEXT_LIMIT), after: '' };
  return `${flag}[${content.map((block) => asText(block.type, '?')).join(', ') || 'no'} content]`;
}

/**
 * A row's status as its badge says it, as the Status filter picks it: how a question ended
 * (`answered`, `declined`, `dismissed`, `replied`), `rejected` for a model request turned down,
 * else its status. A declined question is no Completed row to someone who reads its badge.
 */
export function shownStatus(item: TaskItem): string {
  if (item.label !== undefined) return item.label.toLowerCase();
  return item.rejected ? 'rejected' : item.status;
}

/** The Status filter's choice of the tasks that wait on the person (see `waitsOnYou`), as History's is. */
export { WAITING_FOR_YOU };

/** A task as the Inbox's items name it: by direction, server and task id. */
function waitingKey(direction: TaskItem['direction'], serverId: string, taskId: string): string {
  return `${direction}\u0000${serverId}\u0000${taskId}`;
}

/**
 * The tasks the Inbox holds something of the person's for, to tell rows by (`waitsOnYou`): a
 * received question or model request (its item's `taskId`, the task Taskdesk was given), and a
 * question a server asks during a tool task of Taskdesk's (its `relatedTaskId`; not one of a
 * request that is no task, `relatedCall`).
 */
export function waitingTasks(inbox: readonly InboxItem[]): ReadonlySet<string> {
  const keys = new Set<string>();
  for (const item of inbox) {
    if (item.taskId !== undefined) keys.add(waitingKey('received', item.serverId, item.taskId));
    if (item.relatedTaskId !== undefined && !item.relatedCall)
      keys.add(waitingKey('requested', item.serverId, item.relatedTaskId));
  }
  return keys;
}

/**
 * The received tasks whose question or model request waits in `inbox` while its server will not
 * fetch the answer (see `answerNotFetched`), by the key `waitingTasks` names them by, and why: their
 * rows say so under "Waiting for you", as the Inbox's cards do.
 */
export function notFetchedTasks(
  inbox: readonly InboxItem[],
  servers: readonly ServerView[]
): ReadonlyMap<string, NotFetched> {
  const keys = new Map<string, NotFetched>();
  for (const item of inbox) {
    if (item.taskId === undefined) continue;
    const why = answerNotFetched(
      item,
      servers.find((server) => server.id === item.serverId)
    );
    if (why !== undefined) keys.set(waitingKey('received', item.serverId, item.taskId), why);
  }
  return keys;
}

/** Why a row's server will not fetch the answer it waits on the person for (see `notFetchedTasks`), if so. */
export function notFetchedOf(item: TaskItem, notFetched: ReadonlyMap<string, NotFetched>): NotFetched | undefined {
  return item.running ? notFetched.get(waitingKey(item.direction, item.serverId, item.taskId)) : undefined;
}

/**
 * The person's answers that wait out their undo window in the Inbox (or are being sent), by the
 * task whose request they answer (`heldAnswerOf`): a received task's question or model request,
 * or its server's question during a tool task of Taskdesk's (as `waitingTasks` ties them). Those
 * items wait on the person no more: `waitingTasks` is given the Inbox without them, as its badge
 * counts it.
 */
export function heldTasks(
  inbox: readonly InboxItem[],
  held: Readonly<Record<string, HeldAnswer>>
): ReadonlyMap<string, HeldAnswer> {
  const keys = new Map<string, HeldAnswer>();
  for (const item of inbox) {
    const answer = held[item.id];
    if (!answer) continue;
    if (item.taskId !== undefined) keys.set(waitingKey('received', item.serverId, item.taskId), answer);
    if (item.relatedTaskId !== undefined && !item.relatedCall)
      keys.set(waitingKey('requested', item.serverId, item.relatedTaskId), answer);
  }
  return keys;
}

/** The answer held for a running task's request (see `heldTasks`), if any; none once the person asked to cancel a tool task. */
export function heldAnswerOf(item: TaskItem, held: ReadonlyMap<string, HeldAnswer>): HeldAnswer | undefined {
  if (!item.running || (item.outbound && isCancelling(item.outbound))) return undefined;
  return held.get(waitingKey(item.direction, item.serverId, item.taskId));
}

/**
 * What a row's badge says while the person's answer to a received task's request is held or
 * being sent, as "Working" is said. Not for a tool task: the person declined its server's
 * question, not the task, which runs on (its badge says its status).
 */
export function heldLabel(answer: HeldAnswer): string {
  return answer.action === 'decline' ? 'Declining' : answer.action === 'reject' ? 'Rejecting' : 'Dismissing';
}

/**
 * What the person did, as the badge says it once the task ended: for a tool task, what they did
 * to its server's question ("Declined its server’s question").
 */
export function heldDone(answer: HeldAnswer, direction: TaskItem['direction']): string {
  const done = answer.action === 'decline' ? 'Declined' : answer.action === 'reject' ? 'Rejected' : 'Dismissed';
  return direction === 'received' ? done : `${done} its server’s ${answer.noun}`;
}

/** A row's outcome meanwhile: what the person did, and that it can still be undone (until it is being sent). */
export function heldOutcome(answer: HeldAnswer, direction: TaskItem['direction']): OutcomeLine {
  const done = heldDone(answer, direction);
  return {
    muted:
      answer.phase === 'held' ? `${done}: you can still undo it in the Inbox.` : `${done}: on its way to the server.`
  };
}

/**
 * Whether a running task waits on the person: its question or model request is in the Inbox
 * (the row says "Waiting for your answer in the Inbox", though its status is Working), or its
 * server's question during a tool task is. Not once the person asked to cancel the tool task.
 */
export function waitsOnYou(item: TaskItem, waiting: ReadonlySet<string>): boolean {
  if (!item.running || (item.outbound && isCancelling(item.outbound))) return false;
  return waiting.has(waitingKey(item.direction, item.serverId, item.taskId));
}

/**
 * Whether a tool call's task waits on the person, decided as its row on the Tasks screen decides
 * it (`waitsOnYou`): its card under Tool calls and the line under its call form then say
 * "Waiting for you" as its row does, in place of "Waiting for Taskdesk" (`input_required`).
 */
export function toolTaskWaitsOnYou(task: OutboundTaskView, inbox: readonly InboxItem[]): boolean {
  return waitsOnYou(requestedItem(task), waitingTasks(inbox));
}

/** The Tasks screen's filters, as the form holds them ('' is any). */
export interface TaskFilterInputs {
  text: string;
  direction: '' | 'received' | 'requested';
  /**
   * `active` (not ended), `ended`, {@link WAITING_FOR_YOU}, or one status as the badges say it
   * (see `shownStatus`).
   */
  status: string;
  serverId: string;
  kind: '' | TaskItem['kind'];
}

export const NO_TASK_FILTER: TaskFilterInputs = { text: '', direction: '', status: '', serverId: '', kind: '' };

/** An outcome line's words, for the search. */
function outcomeWords(line: OutcomeLine): string {
  if (typeof line === 'string') return line;
  if ('muted' in line) return line.muted;
  if ('text' in line) return `${line.text} ${line.note}`;
  if ('markdown' in line) return `${line.before} ${line.markdown} ${line.after}`;
  return `${line.action} ${line.fields.map((field) => `${field.title} ${field.value}`).join(' ')}`;
}

/**
 * How much of a tool call's arguments its Tasks row (its line and that line's tooltip) and its
 * search hold at most: as much as its card on Tools (see `CALL_ARGUMENTS_CHARS`).
 */
export const TASK_ARGUMENTS_CHARS = CALL_ARGUMENTS_CHARS;

/**
 * Whether a row passes the filters; the text's words must all appear in its title, server,
 * status (as the protocol and as the badge and the words under it say it: "Waiting for you",
 * "Cancelled by the server"), ids, outcome, or the other words its row shows: its kind and
 * direction, "changed by you", "by the Assistant", a running task's status message, a tool call's
 * arguments (as its row's line holds them: `topic: "rust"`). `waiting` is
 * what the Inbox waits on (`waitingTasks`), for the choice "Waiting for you" and that badge.
 */
export function matchesTask(
  item: TaskItem,
  filter: TaskFilterInputs,
  waiting: ReadonlySet<string> = new Set()
): boolean {
  if (filter.direction && item.direction !== filter.direction) return false;
  if (filter.serverId && item.serverId !== filter.serverId) return false;
  if (filter.kind && item.kind !== filter.kind) return false;
  if (
    filter.status === 'active'
      ? !item.running
      : filter.status === 'ended'
        ? item.running
        : filter.status === WAITING_FOR_YOU
          ? !waitsOnYou(item, waiting)
          : filter.status &&
            (shownStatus(item) !== filter.status ||
              // "Waiting for Taskdesk" is not a row whose badge says "Waiting for you": whose answer
              // it waits on is the choice's whole point ("Working" says nothing of whose).
              (filter.status === 'input_required' && waitsOnYou(item, waiting)))
  )
    return false;
  const words = searchWords(filter.text);
  if (words.length === 0) return true;
  const waits = waitsOnYou(item, waiting);
  const said = `${statusLabel(item.rejected ? 'rejected' : item.status)} ${item.label ?? ''} ${
    item.status === 'cancelled' ? cancelledWords(item.cancelledBy) : ''
  } ${item.label === undefined && waits ? WAITING_FOR_YOU_LABEL : ''}`;
  // As the row shows them (`TaskRow`); a received task's message while it waits is its badge's.
  const meta = [
    KIND_WORDS[item.kind],
    item.direction === 'received' ? 'Received' : 'Requested',
    item.edited ? CHANGED_BY_YOU : '',
    item.outbound?.origin ? BY_THE_ASSISTANT : '',
    item.running && !(waits && item.inbound) ? ((item.inbound?.task ?? item.outbound?.task)?.statusMessage ?? '') : '',
    // A tool call's arguments, as its row's line and tooltip hold them: what tells calls of one tool apart.
    item.kind === 'tool-call' ? (argumentsPreview(item.outbound?.arguments, TASK_ARGUMENTS_CHARS) ?? '') : ''
  ].join('\n');
  const haystack = searchFolded(
    `${item.title}\n${item.serverName}\n${item.status}\n${said}\n${meta}\n${item.taskId}\n${item.key}\n${outcomeWords(itemOutcome(item))}`
  );
  return words.every((word) => haystack.includes(word));
}
