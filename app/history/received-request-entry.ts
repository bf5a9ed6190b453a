import { failureOf } from '../sampling/server-failure.js';
import { randomUUID } from 'node:crypto';
import type { HistoryEntry, HistoryStatus, HistoryStep } from '../contract/history.js';
import { WAITING_IN_INBOX } from '../inbox/inbox-runners.js';
import type { EndedOrdinaryRequest } from '../receiver/task-receiver.js';
import { answeredByYou } from '../receiver/answered-note.js';
import { boundedValue, MAX_TIMELINE_STEPS, ranRequestOf, titleOfReceived } from './history-values.js';
import { policyRefusalOf, withdrawalOf } from './withdrawal.js';
import { rejectionOf } from '../contract/model-rejection.js';
import { modelAnswerOf } from './edited-answer.js';
import { WAITING_FOR_YOU_LABEL } from '../contract/task-row-words.js';

/** What the first step of a server's request says: it arrived (nothing worked on it yet). */
export const ASKED_LABEL = 'Asked';

/**
 * What a step of a server's request (a task or not) says in place of its status while it waited
 * in the Inbox for the person (its message the Inbox's, `WAITING_IN_INBOX`): "Waiting for you", as
 * its row's badge said then. Neither the protocol's `working` (nothing worked) nor its
 * `input_required` ("Waiting for Taskdesk", a server waiting on Taskdesk) says whose turn it was.
 * Undefined for any other step.
 */
export function inboxStepLabel(message: string | undefined): string | undefined {
  return message?.startsWith(WAITING_IN_INBOX) === true ? WAITING_FOR_YOU_LABEL : undefined;
}

/** The most of a server's cancellation reason a status message quotes. */
const REASON_CHARS = 300;

/**
 * The History entry of a server's ordinary (not task-augmented) request once it ended: kept as a
 * received task's is (its request, its result or error, bounded alike), with a new id each time
 * (`request:<uuid>`: the request's JSON-RPC id is the server's, and used again).
 *
 * Its status is the one a task would have ended with: `completed` with its result (an
 * elicitation's accept, decline or cancel all are; the result says which), `failed` with its
 * error (−1 for a model request turned down, which the summary calls rejected), or `cancelled`
 * when it was cancelled before the answer went out: by the server (or its connection closed), or
 * by you (the tool call a question was asked for), or by Taskdesk: it closed first, or it withdrew
 * the request because the task it was asked for ended (its runner's notes say so and why; its
 * server was answered as a dismissal, which is no answer of the person's). A model request refused
 * because the person set its server's policy to refuse while it waited is `failed` with its −1,
 * the setting said as why (`policyRefusalOf`). A model request the
 * person changed before approving it keeps what ran (`ranRequest`, from its runner's notes)
 * beside what the server sent. `askedFor`: the request of Taskdesk's (no task) it was asked for, in words;
 * `duringCall`: the plain tool call of Taskdesk's that ran on its server, alone, when it was asked.
 */
export function receivedRequestEntry(
  ended: EndedOrdinaryRequest,
  askedFor?: string,
  duringCall?: HistoryEntry['duringCall']
): HistoryEntry {
  const { outcome } = ended;
  const cancelled = ended.cancelled ?? withdrawalOf(ended.kind, ended.notes);
  const status: HistoryStatus = cancelled ? 'cancelled' : outcome.type === 'result' ? 'completed' : 'failed';
  const refused = cancelled ? undefined : policyRefusalOf(ended.notes, ended.owner.serverName);
  // The person's Reject: of the model's answer in review (kept, as what was rejected), or of the request.
  const rejection = cancelled || refused !== undefined ? undefined : rejectionOf(ended.kind, ended.notes, outcome);
  const message = cancelled
    ? cancelledMessage(cancelled)
    : outcome.type === 'error'
      ? // Refused by the policy the person set while it waited: said as that, beside the −1.
        (refused ??
        rejection?.message ??
        // A failed model run's whole reason, where its server was told only the kind of failure.
        failureOf(ended.notes) ??
        outcome.error.message)
      : undefined;
  const ranRequest = ranRequestOf(ended.notes);
  // The model's answer as it came, when the person changed it in review before it went.
  const modelAnswer = cancelled ? undefined : modelAnswerOf(ended.kind, ended.notes, outcome);
  return {
    id: `request:${randomUUID()}`,
    direction: 'received',
    kind: ended.kind,
    serverId: ended.owner.serverId,
    serverName: ended.owner.serverName,
    ...(ended.relatedTaskId !== undefined && { relatedTaskId: ended.relatedTaskId }),
    ...(askedFor !== undefined && { askedFor }),
    ...(duringCall !== undefined && { duringCall: { ...duringCall } }),
    title: titleOfReceived(ended.kind, ended.request),
    status,
    ...(cancelled?.by !== undefined && { cancelledBy: cancelled.by }),
    ...(message !== undefined && { statusMessage: message }),
    createdAt: ended.askedAt,
    updatedAt: ended.endedAt,
    endedAt: ended.endedAt,
    timeline: timelineOf(ended, status, message),
    request: boundedValue(ended.request),
    ...(ranRequest !== undefined && { ranRequest }),
    ...(answeredByYou({ kind: ended.kind, task: { status }, notes: ended.notes }) && { answer: 'accept' as const }),
    // A cancelled request's answer never reached its server, and its abort error says nothing.
    ...(!cancelled && outcome.type === 'result' && { result: boundedValue(outcome.result) }),
    ...(modelAnswer !== undefined && { modelAnswer: boundedValue(modelAnswer) }),
    ...(rejection?.rejectedAnswer !== undefined && { rejectedAnswer: boundedValue(rejection.rejectedAnswer) }),
    ...(!cancelled && outcome.type === 'error' && { error: outcome.error })
  };
}

/** Why it was cancelled, in a status message: the server's reason quoted, at most its start. */
function cancelledMessage(cancelled: NonNullable<EndedOrdinaryRequest['cancelled']>): string {
  const reason = cancelled.reason?.slice(0, REASON_CHARS);
  if (cancelled.by === 'server')
    return reason !== undefined
      ? `The server cancelled the request: ${reason}`
      : 'The server cancelled the request, or its connection closed, before it was answered';
  return reason ?? 'Cancelled before it was answered';
}

/**
 * Asked, each step it waited on (the Inbox, an approval), then its end; the first and latest
 * steps kept. No task told a server these statuses, so they say what happened as the person saw
 * it: the request arrived ("Asked", nothing worked yet), waited for their answer
 * (`input_required`, said "Waiting for you": see {@link inboxStepLabel}), ran, and ended (for a
 * question: how they answered).
 */
function timelineOf(ended: EndedOrdinaryRequest, status: HistoryStatus, message: string | undefined): HistoryStep[] {
  const timeline: HistoryStep[] = [{ at: ended.askedAt, status: 'working', label: ASKED_LABEL }];
  for (const step of ended.steps) {
    if (timeline.at(-1)?.message !== step.message) {
      const label = inboxStepLabel(step.message);
      timeline.push({
        at: step.at,
        status: label !== undefined ? 'input_required' : 'working',
        ...(label !== undefined && { label }),
        message: step.message
      });
    }
  }
  const said = message ?? answeredMessage(ended, status);
  timeline.push({ at: ended.endedAt, status, ...(said !== undefined && { message: said }) });
  if (timeline.length > MAX_TIMELINE_STEPS) timeline.splice(1, timeline.length - MAX_TIMELINE_STEPS);
  return timeline;
}

/** How the person answered a question that completed, in words: the result's action says it. */
function answeredMessage(ended: EndedOrdinaryRequest, status: HistoryStatus): string | undefined {
  if (status !== 'completed' || ended.kind !== 'elicitation' || ended.outcome.type !== 'result') return undefined;
  switch (ended.outcome.result.action) {
    case 'accept':
      return 'You answered';
    case 'decline':
      return 'You declined';
    case 'cancel':
      return 'Dismissed without an answer';
    default:
      return undefined;
  }
}
