import type { InboundTask, InboxItem, PlainCallView, ServerView } from '../../app/contract/host-api.js';
import type { OutboundTaskView } from '../../app/contract/outbound-tasks.js';
import { listed, runningWork, workEndsClauses, type RunningWork } from './restart-words.js';

/**
 * What a Disconnect (or a Remove) ends of a server's work: counts of each kind. What a restart
 * stops, no more: a stdio server's tasks it gave Taskdesk end with its process (the core ends
 * them, their questions withdrawn and their model requests stopped), so none is left whose
 * answer it will not fetch; an HTTP server's stay, for when it connects again.
 */
export type DisconnectWork = RunningWork;

/**
 * The work of `server` its Disconnect would end, from the Desk's state; nothing for a server not
 * ready. A Remove ends the same: it disconnects the server first. `held`: as {@link runningWork}'s.
 */
export function disconnectWork(
  server: ServerView,
  calls: Record<string, PlainCallView>,
  outbound: Record<string, OutboundTaskView>,
  inbox: readonly InboxItem[],
  tasks: Record<string, InboundTask>,
  held: Readonly<Record<string, unknown>> = {}
): DisconnectWork {
  if (server.state.status !== 'ready') return { calls: 0, tasks: 0, questions: 0, modelRequests: 0, modelRuns: 0 };
  // What a restart stops too: the same calls, tasks, questions and model requests (not those answered, held).
  return runningWork(server, calls, outbound, inbox, tasks, held);
}

/**
 * What the Disconnect confirmation says will happen, in plain sentences: "1 question waiting in
 * the Inbox will be withdrawn and 1 running task will be lost." and, when tool-call tasks go with
 * a stdio server's process, why. Undefined when nothing is under way: Disconnect then asks nothing.
 */
export function disconnectWords(name: string, work: DisconnectWork): string[] | undefined {
  const ends = workEndsSentence(work);
  if (ends === undefined) return undefined;
  const sentences = [ends];
  if (work.tasks > 0)
    sentences.push(
      `Taskdesk stops ${name}’s process, and the one it starts when you connect again does not have its tasks.`
    );
  return sentences;
}

/**
 * What the confirmation of a Save that restarts the server says will happen, as Disconnect's
 * says it: "1 running call will stop." and, when tool-call tasks go with a stdio server's
 * process, why. Undefined when nothing is under way: Save then asks nothing.
 */
export function restartSaveWords(name: string, work: RunningWork): string[] | undefined {
  const ends = workEndsSentence(work);
  if (ends === undefined) return undefined;
  const sentences = [ends];
  if (work.tasks > 0)
    sentences.push(
      `Taskdesk stops ${name}’s process, and the one it starts with your changes does not have its tasks.`
    );
  return sentences;
}

/**
 * What a close of the server ends of the work under way, in one sentence: "1 question waiting in
 * the Inbox will be withdrawn and 1 running task will be lost." Disconnect's confirmation says it
 * first; Remove's says it before what Remove does (it disconnects the server first), without a
 * word of the process started at the next Connect: there is none. Undefined when nothing is under way.
 */
export function workEndsSentence(work: DisconnectWork): string | undefined {
  const parts = workEndsClauses(work);
  if (parts.length === 0) return undefined;
  const first = listed(parts);
  return `${first.charAt(0).toUpperCase()}${first.slice(1)}.`;
}
