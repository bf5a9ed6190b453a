import type { InboxAnswerInput, InboxItem, ServerView } from '../../app/contract/host-api.js';
import { formatDateTime } from '../components/format.js';

/**
 * Where an answer goes once given. A plain question is answered on the connection that asked
 * (when it closes, its item is withdrawn). A task's question is answered by ending the task,
 * which the server then fetches: at once when it is connected over the connection that asked,
 * otherwise only if it connects and asks for that task again. A stdio server that was started
 * afresh (after a restart of Taskdesk or of the server) usually never does.
 */
export type AnswerDelivery =
  { kind: 'now' } | { kind: 'kept'; why: 'not-connected' | 'earlier-connection'; until?: string };

export function answerDelivery(item: InboxItem, server: ServerView | undefined): AnswerDelivery {
  if (item.taskId === undefined) return { kind: 'now' };
  const until = item.expiresAt !== undefined ? { until: item.expiresAt } : {};
  const state = server?.state;
  if (state?.status !== 'ready') return { kind: 'kept', why: 'not-connected', ...until };
  const since = state.readySince !== undefined ? Date.parse(state.readySince) : NaN;
  const asked = Date.parse(item.createdAt);
  if (!Number.isNaN(since) && !Number.isNaN(asked) && asked < since)
    return { kind: 'kept', why: 'earlier-connection', ...until };
  return { kind: 'now' };
}

/** What the card says before the person answers, when the answer will not reach the server at once. */
export function keptNote(item: InboxItem, delivery: AnswerDelivery): string | undefined {
  if (delivery.kind === 'now') return undefined;
  const name = item.serverName;
  // The card's own line counts down to the task's end: "until it expires" points there.
  const kept = `Your answer is kept with the task${delivery.until !== undefined ? ' until it expires' : ''}`;
  return delivery.why === 'not-connected'
    ? `${name} is not connected. ${kept}, for when it connects and asks for it.`
    : `${name} asked this before its current connection (it or Taskdesk restarted since). ${kept}; ${name} gets it only if it asks for this task again.`;
}

/** What is said once the answer is taken: sent, or kept for the server to fetch. */
export function answeredText(item: InboxItem, delivery: AnswerDelivery, sent: string): string {
  if (delivery.kind === 'now') return sent;
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
    action === 'decline' || action === 'cancel' ? declinedText(item, action) : action === 'reject' ? done : undefined;
  if (refused === undefined) return answeredText(item, delivery, done);
  return delivery.kind === 'now' ? refused : `${refused} ${answeredText(item, delivery, refused)}`;
}

/** A declined or dismissed question, or model request, in words that name it and its server. */
function declinedText(item: InboxItem, action: 'decline' | 'cancel'): string {
  const what = action === 'decline' ? 'Declined' : 'Dismissed';
  return `${what}: ${item.serverName}’s ${item.kind.startsWith('sampling') ? 'model request' : 'question'}.`;
}

function untilText(until: string | undefined): string {
  if (until === undefined) return '';
  const date = new Date(until);
  return Number.isNaN(date.getTime()) ? '' : ` until ${formatDateTime(date)}`;
}
