import type { InboxAnswerInput, InboxItem, ServerView } from '../../app/contract/host-api.js';
import { formatDateTime } from '../components/format.js';
import { refusedText } from './answer-sent-words.js';

/**
 * Where an answer goes once given. A plain question is answered on the connection that asked
 * (when it closes, its item is withdrawn). A task's question is answered by ending the task,
 * which the server then fetches: at once when it is connected over the connection that asked,
 * otherwise only if it connects and asks for that task again. A stdio server connected since the
 * question was asked is a new process Taskdesk started (after a restart of Taskdesk or of the
 * server), which has none of the old one's tasks: it never does (`startedAnew`). Nor does one not
 * connected: the process that asked has stopped (a Disconnect, its exit, Taskdesk's closing), and
 * the one Taskdesk starts when it connects is new (`processStopped`). An HTTP server may: it can
 * come back to the session, and the task, it had.
 */
export type AnswerDelivery =
  | { kind: 'now' }
  | {
      kind: 'kept';
      why: 'not-connected' | 'earlier-connection';
      until?: string;
      startedAnew?: true;
      processStopped?: true;
    };

export function answerDelivery(item: InboxItem, server: ServerView | undefined): AnswerDelivery {
  if (item.taskId === undefined) return { kind: 'now' };
  const until = item.expiresAt !== undefined ? { until: item.expiresAt } : {};
  if (server?.state.status !== 'ready')
    return {
      kind: 'kept',
      why: 'not-connected',
      ...until,
      // A stdio server not ready runs no process that asked anything: a connecting one is a new process.
      ...(server?.transport.type === 'stdio' && { processStopped: true as const })
    };
  if (!connectedSince(server, item.createdAt)) return { kind: 'now' };
  return {
    kind: 'kept',
    why: 'earlier-connection',
    ...until,
    ...(newProcessSince(server, item.createdAt) && { startedAnew: true as const })
  };
}

/**
 * Whether `server` is ready over a connection that came after `askedAt` (ISO 8601): what it asked
 * then, it asked over an earlier connection. Asked in the millisecond the connection became
 * ready: of that connection.
 */
export function connectedSince(server: Pick<ServerView, 'state'> | undefined, askedAt: string): boolean {
  const state = server?.state;
  if (state?.status !== 'ready' || state.readySince === undefined) return false;
  const since = Date.parse(state.readySince);
  const asked = Date.parse(askedAt);
  return !Number.isNaN(since) && !Number.isNaN(asked) && asked < since;
}

/**
 * Whether a task `server` asked for at `askedAt` was the task of a process that is gone: a stdio
 * server (a process Taskdesk starts) connected since is a new process, without the old one's
 * tasks, and never asks for them. An HTTP server may come back to its session, and its tasks.
 */
export function newProcessSince(server: ServerView | undefined, askedAt: string): boolean {
  return server?.transport.type === 'stdio' && connectedSince(server, askedAt);
}

/** An item whose server will not fetch its answer: set apart in the Inbox, after the others. */
export function askedOfEarlierProcess(item: InboxItem, server: ServerView | undefined): boolean {
  const delivery = answerDelivery(item, server);
  return delivery.kind === 'kept' && delivery.startedAnew === true;
}

/** The ids of the items whose servers will not fetch their answers ({@link askedOfEarlierProcess}), in order. */
export function earlierProcessIds(items: readonly InboxItem[], servers: readonly ServerView[]): string[] {
  const byId = new Map(servers.map((server) => [server.id, server]));
  return items.filter((item) => askedOfEarlierProcess(item, byId.get(item.serverId))).map((item) => item.id);
}

/** The items as the Inbox shows them: oldest first, those of `apart` after the others (oldest first too). */
export function apartLast(items: readonly InboxItem[], apart: ReadonlySet<string>): InboxItem[] {
  if (apart.size === 0) return [...items];
  return [...items.filter((item) => !apart.has(item.id)), ...items.filter((item) => apart.has(item.id))];
}

/** What the card says before the person answers, when the answer will not reach the server at once. */
export function keptNote(item: InboxItem, delivery: AnswerDelivery): string | undefined {
  if (delivery.kind === 'now') return undefined;
  const name = item.serverName;
  // The card's own line counts down to the task's end: "until it expires" points there.
  const kept = `Your answer is kept with the task${delivery.until !== undefined ? ' until it expires' : ''}`;
  if (delivery.startedAnew)
    return `${name} asked this before Taskdesk started it again: it runs now as a new process, and this task was the old one’s, so ${name} will not fetch your answer.`;
  if (delivery.processStopped)
    return `${name} is not connected, and the process that asked this has stopped. The one Taskdesk starts when it connects does not have this task, so ${name} will not fetch your answer.`;
  return delivery.why === 'not-connected'
    ? `${name} is not connected. ${kept}, for when it connects and asks for it.`
    : `${name} asked this before its current connection (it or Taskdesk restarted since). ${kept}; ${name} gets it only if it asks for this task again.`;
}

/** What is said once the answer is taken: sent, or kept for the server to fetch. */
export function answeredText(item: InboxItem, delivery: AnswerDelivery, sent: string): string {
  if (delivery.kind === 'now') return sent;
  if (delivery.startedAnew || delivery.processStopped)
    return `Answer kept with the task${untilText(delivery.until)}; ${notFetchedWords(item, delivery)}`;
  return `Answer kept for ${item.serverName}${untilText(delivery.until)}: it gets it when it asks for this task.`;
}

/**
 * What is said once an answer of `action` is taken. `done` is the card's words for it ("Answer
 * sent to…", "Request from … rejected."), said as they are when the answer goes at once. A
 * decline, dismissal or rejection says what the person did whether the answer goes now or is kept,
 * and then that it is kept: "Answer kept…" alone read as if something had been sent.
 */
export function answerSaid(
  item: InboxItem,
  action: InboxAnswerInput['action'],
  delivery: AnswerDelivery,
  done: string
): string {
  const refused =
    action === 'decline' || action === 'cancel' ? refusedText(item, action) : action === 'reject' ? done : undefined;
  if (refused === undefined) return answeredText(item, delivery, done);
  if (delivery.kind === 'now') return refused;
  return `${refused} ${delivery.startedAnew || delivery.processStopped ? notFetchedWords(item, delivery) : answeredText(item, delivery, refused)}`;
}

/**
 * Why an answer never reaches its server: started again since it asked, or not connected with
 * the process that asked stopped.
 */
function notFetchedWords(item: InboxItem, delivery: Extract<AnswerDelivery, { kind: 'kept' }>): string {
  return delivery.startedAnew
    ? `${item.serverName} was started again since it asked, and will not fetch it.`
    : `${item.serverName} is not connected, and the process that asked has stopped: ${item.serverName} will not fetch it.`;
}

function untilText(until: string | undefined): string {
  if (until === undefined) return '';
  const date = new Date(until);
  return Number.isNaN(date.getTime()) ? '' : ` until ${formatDateTime(date)}`;
}
