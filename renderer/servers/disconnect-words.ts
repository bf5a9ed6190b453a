import type { InboundTask, InboxItem, PlainCallView, ServerView } from '../../app/contract/host-api.js';
import type { OutboundTaskView } from '../../app/contract/outbound-tasks.js';
import { connectedSince } from '../inbox/answer-delivery.js';
import { isTerminal } from '../store/task-status.js';
import { counted, listed, runningWork, waitingWords, type RunningWork } from './restart-words.js';

/** What a Disconnect (or a Remove) ends of a server's work: counts of each kind. */
export interface DisconnectWork extends RunningWork {
  /**
   * Tasks a stdio server gave Taskdesk over this connection, not ended: they stay, but the
   * process that would fetch their answers is stopped, and the one started next does not have them.
   */
  received: number;
}

/**
 * The work of `server` its Disconnect would end, from the Desk's state; nothing for a server not
 * ready. A Remove ends the same: it disconnects the server first.
 */
export function disconnectWork(
  server: ServerView,
  calls: Record<string, PlainCallView>,
  outbound: Record<string, OutboundTaskView>,
  inbox: readonly InboxItem[],
  tasks: Record<string, InboundTask>
): DisconnectWork {
  if (server.state.status !== 'ready') return { calls: 0, tasks: 0, questions: 0, modelRequests: 0, received: 0 };
  return {
    // What a restart stops too: the same calls, tasks, and questions and model requests in the Inbox.
    ...runningWork(server, calls, outbound, inbox),
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

/**
 * What the Disconnect confirmation says will happen, in plain sentences: "1 question waiting in
 * the Inbox will be withdrawn and 1 running task will be lost." and, when tasks go with a stdio
 * server's process, why. Undefined when nothing is under way: Disconnect then asks nothing.
 */
export function disconnectWords(name: string, work: DisconnectWork): string[] | undefined {
  const ends = workEndsSentence(name, work);
  if (ends === undefined) return undefined;
  const sentences = [ends];
  if (work.tasks > 0 || work.received > 0)
    sentences.push(
      `Taskdesk stops ${name}’s process, and the one it starts when you connect again does not have its tasks.`
    );
  return sentences;
}

/**
 * What a close of the server ends of the work under way, in one sentence: "1 question waiting in
 * the Inbox will be withdrawn and 1 running task will be lost." Disconnect's confirmation says it
 * first; Remove's says it before what Remove does (it disconnects the server first), without a
 * word of the process started at the next Connect: there is none. Undefined when nothing is under way.
 */
export function workEndsSentence(name: string, work: DisconnectWork): string | undefined {
  const waiting = waitingWords(work);
  const parts = [
    ...(waiting !== undefined ? [`${waiting} waiting in the Inbox will be withdrawn`] : []),
    ...(work.calls > 0 ? [`${counted(work.calls, 'running call', 'running calls')} will stop`] : []),
    ...(work.tasks > 0 ? [`${counted(work.tasks, 'running task', 'running tasks')} will be lost`] : []),
    ...(work.received > 0
      ? [`${name} will not fetch the answer to ${counted(work.received, 'task', 'tasks')} it gave Taskdesk`]
      : [])
  ];
  if (parts.length === 0) return undefined;
  const first = listed(parts);
  return `${first.charAt(0).toUpperCase()}${first.slice(1)}.`;
}
