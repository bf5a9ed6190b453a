import type { AuditEntry, OutboundTaskView } from '../../app/contract/host-api.js';
import { callOfWords, SENT_AS_A_TASK, serverTaskWords, taskIdTitle } from '../components/related-task-words.js';

/** What the Audit log's Task column says of an entry's task, and the ids it stands for (its tooltip). */
export interface AuditTaskWords {
  words: string;
  title: string;
}

type Entry = Pick<AuditEntry, 'type' | 'serverId' | 'taskId' | 'detail'>;

/** A detail field as text, or undefined when it is not a non-empty string. */
function text(detail: Record<string, unknown> | undefined, key: string): string | undefined {
  const value = detail?.[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Taskdesk's tool call run as the task `taskId` of `serverId`, while the Desk still follows it. */
function callOf(
  calls: Readonly<Record<string, OutboundTaskView>>,
  serverId: string | undefined,
  taskId: string,
  outboundId?: string
): OutboundTaskView | undefined {
  const byId = outboundId === undefined ? undefined : calls[outboundId];
  if (byId !== undefined) return byId;
  return Object.values(calls).find((call) => call.serverId === serverId && call.taskId === taskId);
}

/**
 * What the Audit log's Task column says of the task an entry is about, in the words the Inbox,
 * History and Tools say it by rather than its server's id for it (that id, the log's, in the
 * tooltip, {@link taskIdTitle}):
 *
 * - a tool call of Taskdesk's run as a task (`tool.…`): "your call of slow" (or "the Assistant’s
 *   call of …") while the Desk follows it, else "the call of slow" by the tool the entry names;
 * - a task the server asked about that Taskdesk does not know (`task.unknown-id`): that;
 * - any other task of the entry's own: a request its server sent as a task, "sent as a task";
 * - a question or model request asked for one of Taskdesk's tasks (`relatedTaskId` in its detail):
 *   "asked for your call of slow", or "asked for one of Books’s tasks" when the Desk does not
 *   follow it; "asked for your request" when that was a request of Taskdesk's, no task
 *   (`relatedCall`). After "sent as a task" when the request was a task of its own too.
 *
 * Undefined for an entry about no task. `serverName` is the entry's server by name.
 */
export function auditTaskWords(
  entry: Entry,
  serverName: string,
  calls: Readonly<Record<string, OutboundTaskView>>
): AuditTaskWords | undefined {
  const detail = entry.detail;
  const relatedId = text(detail, 'relatedTaskId');
  const related =
    relatedId === undefined
      ? undefined
      : {
          words:
            detail?.relatedCall === true
              ? 'asked for your request'
              : `asked for ${callWords(callOf(calls, entry.serverId, relatedId), serverName)}`,
          // Taskdesk's own id for a request that was no task: not called a task's.
          title: detail?.relatedCall === true ? `Asked for request ${relatedId}` : `Asked for task ${relatedId}`
        };
  if (entry.taskId === undefined) return related;
  const own = ownWords(entry, serverName, calls, entry.taskId);
  return related === undefined
    ? { words: own, title: taskIdTitle(entry.taskId) }
    : { words: `${own}, ${related.words}`, title: `${taskIdTitle(entry.taskId)}\n${related.title}` };
}

/** What the entry's own task is (see {@link auditTaskWords}). */
function ownWords(
  entry: Entry,
  serverName: string,
  calls: Readonly<Record<string, OutboundTaskView>>,
  taskId: string
): string {
  if (entry.type === 'task.unknown-id') return 'one Taskdesk does not know';
  if (!entry.type.startsWith('tool.')) return SENT_AS_A_TASK;
  const call = callOf(calls, entry.serverId, taskId, text(entry.detail, 'outboundId'));
  if (call !== undefined) return callOfWords(call);
  const tool = text(entry.detail, 'tool');
  return tool === undefined ? serverTaskWords(serverName) : `the call of ${tool}`;
}

/** A call of Taskdesk's by who made it, while the Desk follows it; else one of the server's tasks. */
function callWords(call: OutboundTaskView | undefined, serverName: string): string {
  return call === undefined ? serverTaskWords(serverName) : callOfWords(call);
}
