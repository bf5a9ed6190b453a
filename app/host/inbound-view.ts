import type { InboundTask } from '../contract/host-api.js';
import { rejectionOf } from '../contract/model-rejection.js';
import { lastRanRequest } from '../contract/request-changes.js';
import { answeredByYou } from '../receiver/answered-note.js';
import { withdrawnTask } from '../history/withdrawal.js';
import { cancelledByOf } from '../receiver/cancelled-by.js';
import { fetchNotedOf, resultFetchedAtOf } from '../receiver/result-fetch.js';
import type { TaskRecord } from '../receiver/task-record.js';

/**
 * What the UI is told of a record beside its fields, read from its notes and outcome, in a list's
 * summary as in the whole view: who cancelled it (the person, for a question withdrawn because
 * they cancelled its task), why Taskdesk withdrew it, which the person rejected (a model request
 * or its answer), whether the person changed its request before it ran, whether they answered
 * it, when its server fetched its result.
 */
export function inboundMarks(
  record: Readonly<TaskRecord>
): Pick<
  InboundTask,
  'cancelledBy' | 'withdrawn' | 'rejection' | 'edited' | 'answered' | 'resultFetchedAt' | 'awaitingFetch'
> {
  const withdrawal = withdrawnTask(record);
  // A question Taskdesk withdrew because the person cancelled its task is theirs to have ended, as History says.
  const cancelledBy = withdrawal?.by === 'you' ? 'you' : cancelledByOf(record);
  const resultFetchedAt = resultFetchedAtOf(record);
  // A withdrawal is Taskdesk's answer, not the person's Reject (History's `withdrawalOf` says it).
  const rejection = withdrawal === undefined ? rejectionOf(record.kind, record.notes, record.outcome) : undefined;
  return {
    ...(cancelledBy && { cancelledBy }),
    ...(withdrawal !== undefined && { withdrawn: withdrawal.reason }),
    ...(rejection !== undefined && { rejection: rejection.message }),
    ...(lastRanRequest(record.notes) !== undefined && { edited: true }),
    ...(answeredByYou(record) && { answered: true as const }),
    ...(resultFetchedAt !== undefined && { resultFetchedAt }),
    ...(resultFetchedAt === undefined && fetchNotedOf(record) && { awaitingFetch: true as const })
  };
}

/** A task record as the UI sees it. */
export function inboundView(record: TaskRecord): InboundTask {
  return {
    task: { ...record.task },
    serverId: record.owner.serverId,
    serverName: record.owner.serverName,
    kind: record.kind,
    request: record.request,
    ...(record.outcome && { outcome: record.outcome }),
    notes: record.notes,
    ...inboundMarks(record)
  };
}
