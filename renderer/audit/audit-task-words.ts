import type { AuditEntry, OutboundTaskView } from '../../app/contract/host-api.js';
import { saidBySentence } from '../../app/contract/audit-words.js';
import { callOfWords, SENT_AS_A_TASK, serverTaskWords, taskIdTitle } from '../components/related-task-words.js';

/** What the Audit log's Task column says of an entry's task, and the ids it stands for (its tooltip). */
export interface AuditTaskWords {
  words: string;
  title: string;
  /**
   * The History entry the words open, where one can exist: `received:<taskId>` for a task its
   * server sent Taskdesk, `requested:<outboundId>` for a tool call of Taskdesk's run as a task
   * (app/history/task-history.ts). None for a plain call (its entry's id is made as it ends,
   * unknown to the log) or a task Taskdesk does not know.
   */
  historyId?: string;
}

type Entry = Pick<AuditEntry, 'type' | 'serverId' | 'taskId' | 'detail'>;

/**
 * What the entry's own task asks, quoted in the Task column (`task.…` entries keep it: the
 * question, a model request's last text of the person's side), where the entry's sentence does
 * not quote it already ("You answered a question: “…”"). Undefined for an entry about no task of
 * its own, or one that keeps no question (written before entries kept it).
 */
export function auditTaskQuestion(entry: Entry): string | undefined {
  if (entry.taskId === undefined || saidBySentence(entry.type, 'question')) return undefined;
  return text(entry.detail, 'question');
}

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
 * The question the entry's own task asks comes first, quoted ({@link auditTaskQuestion}): what tells
 * one task from another, which a search finds. With the History entry to open, where one can exist.
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
  const askedFor =
    relatedId === undefined || detail?.relatedCall === true ? undefined : callOf(calls, entry.serverId, relatedId);
  const related: AuditTaskWords | undefined =
    relatedId === undefined
      ? undefined
      : {
          words:
            detail?.relatedCall === true ? 'asked for your request' : `asked for ${callWords(askedFor, serverName)}`,
          // Taskdesk's own id for a request that was no task: not called a task's.
          title: detail?.relatedCall === true ? `Asked for request ${relatedId}` : `Asked for task ${relatedId}`,
          // The call it was asked for, while the Desk follows it (a request that was no task has no entry to name).
          ...(askedFor !== undefined && { historyId: requestedId(askedFor.outboundId) })
        };
  if (entry.taskId === undefined) return related;
  const question = auditTaskQuestion(entry);
  const own = `${question === undefined ? '' : `“${question}”, `}${ownWords(entry, serverName, calls, entry.taskId)}`;
  const historyId = ownHistoryId(entry, calls, entry.taskId);
  return {
    words: related === undefined ? own : `${own}, ${related.words}`,
    title: related === undefined ? taskIdTitle(entry.taskId) : `${taskIdTitle(entry.taskId)}\n${related.title}`,
    ...(historyId !== undefined && { historyId })
  };
}

/** The History entry of a tool call of Taskdesk's followed as a task. */
function requestedId(outboundId: string): string {
  return `requested:${outboundId}`;
}

/**
 * The History entry of the entry's own task, where one can exist (see {@link AuditTaskWords}): a
 * task its server sent (`task.…`, `inbox.…`, `sampling.…` entries) is History's from its start; a
 * tool task of Taskdesk's by the outbound id its entry keeps, or by the call the Desk follows.
 */
function ownHistoryId(
  entry: Entry,
  calls: Readonly<Record<string, OutboundTaskView>>,
  taskId: string
): string | undefined {
  if (entry.type.startsWith('tool.')) {
    const outboundId = text(entry.detail, 'outboundId') ?? callOf(calls, entry.serverId, taskId)?.outboundId;
    return outboundId === undefined ? undefined : requestedId(outboundId);
  }
  // A task id the server made up (Taskdesk does not know it), and one whose storing failed (no History entry).
  if (entry.type === 'task.unknown-id' || !RECEIVED_GROUPS.some((group) => entry.type.startsWith(group)))
    return undefined;
  return `received:${taskId}`;
}

/** The kinds of entry whose task is one its server sent Taskdesk (History's `received:` entries). */
const RECEIVED_GROUPS = ['task.', 'inbox.', 'sampling.'];

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
