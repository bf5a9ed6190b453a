import type { InboundTask } from '../contract/host-api.js';
import { withdrawnTask } from '../history/withdrawal.js';
import { cancelledByOf } from '../receiver/cancelled-by.js';
import type { TaskRecord } from '../receiver/task-record.js';

/** A task record as the UI sees it. */
export function inboundView(record: TaskRecord): InboundTask {
  const cancelledBy = cancelledByOf(record);
  const withdrawn = withdrawnTask(record)?.reason;
  return {
    task: { ...record.task },
    serverId: record.owner.serverId,
    serverName: record.owner.serverName,
    kind: record.kind,
    request: record.request,
    ...(record.outcome && { outcome: record.outcome }),
    notes: record.notes,
    ...(cancelledBy && { cancelledBy }),
    ...(withdrawn !== undefined && { withdrawn })
  };
}
