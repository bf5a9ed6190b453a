import type { InboundTask } from '../contract/host-api.js';
import { lastRanRequest } from '../contract/request-changes.js';
import { withdrawnTask } from '../history/withdrawal.js';
import { cancelledByOf } from '../receiver/cancelled-by.js';
import type { TaskRecord } from '../receiver/task-record.js';

/**
 * What the UI is told of a record beside its fields, read from its notes and outcome, in a list's
 * summary as in the whole view: who cancelled it, why Taskdesk withdrew it, whether the person
 * changed its request before it ran.
 */
export function inboundMarks(record: Readonly<TaskRecord>): Pick<InboundTask, 'cancelledBy' | 'withdrawn' | 'edited'> {
  const cancelledBy = cancelledByOf(record);
  const withdrawn = withdrawnTask(record)?.reason;
  return {
    ...(cancelledBy && { cancelledBy }),
    ...(withdrawn !== undefined && { withdrawn }),
    ...(lastRanRequest(record.notes) !== undefined && { edited: true })
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
