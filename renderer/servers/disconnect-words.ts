import type { InboundTask, InboxItem, PlainCallView, ServerView } from '../../app/contract/host-api.js';
import type { OutboundTaskView } from '../../app/contract/outbound-tasks.js';
import { connectedSince } from '../inbox/answer-delivery.js';
import { isTerminal } from '../store/task-status.js';
import { runningWork, type RunningWork } from './restart-words.js';

/** What a Disconnect ends of a server's work: counts of each kind. */
export interface DisconnectWork extends Omit<RunningWork, 'questions'> {
  /** Questions outside a task waiting in the Inbox: their requests end with the connection. */
  questions: number;
  /** Model requests outside a task waiting in the Inbox (to approve, answer or review): the same. */
  modelRequests: number;
  /**
   * Tasks a stdio server gave Taskdesk over this connection, not ended: they stay, but the
   * process that would fetch their answers is stopped, and the one started next does not have them.
   */
  received: number;
}

/** The work of `server` its Disconnect would end, from the Desk's state; nothing for a server not ready. */
export function disconnectWork(
  server: ServerView,
  calls: Record<string, PlainCallView>,
  outbound: Record<string, OutboundTaskView>,
  inbox: readonly InboxItem[],
  tasks: Record<string, InboundTask>
): DisconnectWork {
  if (server.state.status !== 'ready') return { calls: 0, tasks: 0, questions: 0, modelRequests: 0, received: 0 };
  const { calls: running, tasks: lost } = runningWork(server, calls, outbound, inbox);
  // The same questions a restart withdraws (see `runningWork`), told apart by kind.
  const withdrawn = inbox.filter(
    (item) => item.serverId === server.id && item.taskId === undefined && !item.relatedCall
  );
  const questions = withdrawn.filter((item) => item.kind === 'elicitation').length;
  return {
    calls: running,
    tasks: lost,
    questions,
    modelRequests: withdrawn.length - questions,
    received:
      server.transport.type === 'stdio'
        ? Object.values(tasks).filter(
            (task) =>
              task.serverId === server.id &&
              !isTerminal(task.task.status) &&
              // One asked of an earlier process is not fetched already: the Disconnect changes nothing for it.
              !connectedSince(server, task.task.createdAt)
          ).length
        : 0
  };
}

const counted = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** "a, b and c". */
function listed(parts: string[]): string {
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/**
 * What the Disconnect confirmation says will happen, in plain sentences: "1 question waiting in
 * the Inbox will be withdrawn and 1 running task will be lost." and, when tasks go with a stdio
 * server's process, why. Undefined when nothing is under way: Disconnect then asks nothing.
 */
export function disconnectWords(name: string, work: DisconnectWork): string[] | undefined {
  const waiting = [
    ...(work.questions > 0 ? [counted(work.questions, 'question', 'questions')] : []),
    ...(work.modelRequests > 0 ? [counted(work.modelRequests, 'model request', 'model requests')] : [])
  ];
  const parts = [
    ...(waiting.length > 0 ? [`${listed(waiting)} waiting in the Inbox will be withdrawn`] : []),
    ...(work.calls > 0 ? [`${counted(work.calls, 'running call', 'running calls')} will stop`] : []),
    ...(work.tasks > 0 ? [`${counted(work.tasks, 'running task', 'running tasks')} will be lost`] : []),
    ...(work.received > 0
      ? [`${name} will not fetch the answer to ${counted(work.received, 'task', 'tasks')} it gave Taskdesk`]
      : [])
  ];
  if (parts.length === 0) return undefined;
  const first = listed(parts);
  const sentences = [`${first.charAt(0).toUpperCase()}${first.slice(1)}.`];
  if (work.tasks > 0 || work.received > 0)
    sentences.push(
      `Taskdesk stops ${name}’s process, and the one it starts when you connect again does not have its tasks.`
    );
  return sentences;
}
