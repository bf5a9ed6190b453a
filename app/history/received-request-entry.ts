import { randomUUID } from 'node:crypto';
import type { HistoryEntry, HistoryStatus, HistoryStep } from '../contract/history.js';
import type { EndedOrdinaryRequest } from '../receiver/task-receiver.js';
import { boundedValue, MAX_TIMELINE_STEPS, titleOfReceived } from './history-values.js';

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
 * by you (the tool call a question was asked for).
 */
export function receivedRequestEntry(ended: EndedOrdinaryRequest): HistoryEntry {
  const { outcome, cancelled } = ended;
  const status: HistoryStatus = cancelled ? 'cancelled' : outcome.type === 'result' ? 'completed' : 'failed';
  const message = cancelled
    ? cancelledMessage(cancelled)
    : outcome.type === 'error'
      ? outcome.error.message
      : undefined;
  return {
    id: `request:${randomUUID()}`,
    direction: 'received',
    kind: ended.kind,
    serverId: ended.owner.serverId,
    serverName: ended.owner.serverName,
    title: titleOfReceived(ended.kind, ended.request),
    status,
    ...(cancelled?.by !== undefined && { cancelledBy: cancelled.by }),
    ...(message !== undefined && { statusMessage: message }),
    createdAt: ended.askedAt,
    updatedAt: ended.endedAt,
    endedAt: ended.endedAt,
    timeline: timelineOf(ended, status, message),
    request: boundedValue(ended.request),
    // A cancelled request's answer never reached its server, and its abort error says nothing.
    ...(!cancelled && outcome.type === 'result' && { result: boundedValue(outcome.result) }),
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

/** Asked, each step it waited on (the Inbox, an approval), then its end; the first and latest steps kept. */
function timelineOf(ended: EndedOrdinaryRequest, status: HistoryStatus, message: string | undefined): HistoryStep[] {
  const timeline: HistoryStep[] = [{ at: ended.askedAt, status: 'working' }];
  for (const step of ended.steps) {
    if (timeline.at(-1)?.message !== step.message)
      timeline.push({ at: step.at, status: 'working', message: step.message });
  }
  timeline.push({ at: ended.endedAt, status, ...(message !== undefined && { message }) });
  if (timeline.length > MAX_TIMELINE_STEPS) timeline.splice(1, timeline.length - MAX_TIMELINE_STEPS);
  return timeline;
}
