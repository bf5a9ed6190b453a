import type { InboxItem, OutboundTaskView } from '../../app/contract/host-api.js';
import { derivedOf } from '../store/derived.js';

/** The tool-call task of Taskdesk's the item's server asked it for (its `relatedTaskId`), if the Desk knows it. */
export function relatedTaskOf(
  item: Pick<InboxItem, 'serverId' | 'relatedTaskId' | 'relatedCall'>,
  outbound: Record<string, OutboundTaskView>
): OutboundTaskView | undefined {
  // A multi round-trip request's id is no task's (`relatedCall`).
  if (item.relatedTaskId === undefined || item.relatedCall) return undefined;
  return tasksByServerTask(outbound).get(serverTaskKey(item.serverId, item.relatedTaskId));
}

/**
 * The Desk's requested tasks by their server and the server's task id, once for each state of
 * `outbound`: every Inbox card looks its task up on every store update (each progress
 * notification), and scanned every task for it.
 */
export const tasksByServerTask = derivedOf((outbound: Record<string, OutboundTaskView>) => {
  const tasks = new Map<string, OutboundTaskView>();
  for (const task of Object.values(outbound)) {
    // The first of one key, as a scan in order found it.
    const key = serverTaskKey(task.serverId, task.taskId);
    if (!tasks.has(key)) tasks.set(key, task);
  }
  return tasks;
});

/** A server's task, as {@link tasksByServerTask} keys it. */
function serverTaskKey(serverId: string, taskId: string): string {
  return `${serverId}\u0000${taskId}`;
}
