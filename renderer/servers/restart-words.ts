import type { InboundTask, InboxItem, PlainCallView, ServerView } from '../../app/contract/host-api.js';
import type { OutboundTaskView } from '../../app/contract/outbound-tasks.js';
import type { EditableServerInput, SettingEntry } from '../../app/contract/server-settings.js';
import { connectedSince } from '../inbox/answer-delivery.js';
import { isTerminal } from '../store/task-status.js';

type Entries = Array<Omit<SettingEntry, 'secret'> & { secret?: boolean }>;

/**
 * Whether saving `next` over `saved` changes how Taskdesk reaches the server (its command,
 * arguments, folder, env vars, URL, headers or protocol), so that the host connects it again.
 * A new name, Connect at start, the order of the entries or a value ticked as secret do not.
 * A secret's value typed anew counts as a change: the form cannot see the one stored.
 */
export function restartsServer(saved: EditableServerInput, next: EditableServerInput): boolean {
  return reachedBy(saved) !== reachedBy(next);
}

function reachedBy(settings: EditableServerInput): string {
  const byName = (entries: Entries | undefined) =>
    (entries ?? [])
      .map((entry) => [entry.name.trim(), entry.value ?? null] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const transport = settings.transport;
  const target =
    transport.type === 'stdio'
      ? ['stdio', transport.command, transport.args ?? [], transport.cwd ?? '', byName(transport.env)]
      : ['http', transport.url, byName(transport.headers)];
  return JSON.stringify([settings.protocol ?? 'auto', target]);
}

/** What stops when a server restarts: counts of each kind. */
export interface RunningWork {
  /** Plain tool calls running now: their requests end with the connection. */
  calls: number;
  /** Tool-call tasks not ended, on a stdio server: its process, which does the work, is stopped. */
  tasks: number;
  /**
   * Questions waiting in the Inbox that go with the connection: those outside a task (their
   * requests end with it), and those of tasks a stdio server's process gave Taskdesk (the core
   * ends those tasks with the process: nobody could fetch their answers).
   */
  questions: number;
  /** Model requests waiting in the Inbox (to approve, answer or review), of the same two kinds. */
  modelRequests: number;
  /** Model requests a stdio server's process gave Taskdesk as tasks, running now (a model answers): they stop. */
  modelRuns: number;
}

/**
 * The work of `server` a restart would stop, from the Desk's state. `tasks`: the tasks servers
 * gave Taskdesk, whose model requests running now stop with a stdio server's process. `held`:
 * the Inbox's answers in their undo window, by item id (`DeskStore.held`): the person answered
 * those, and a close sends them first, so they are not counted as waiting.
 */
export function runningWork(
  server: Pick<ServerView, 'id' | 'transport' | 'state'>,
  calls: Record<string, PlainCallView>,
  outbound: Record<string, OutboundTaskView>,
  inbox: readonly InboxItem[],
  tasks: Record<string, InboundTask> = {},
  held: Readonly<Record<string, unknown>> = {}
): RunningWork {
  const stdio = server.transport.type === 'stdio';
  // A task's question is kept with its task, but for one a stdio server's current process asked,
  // which ends with it; a multi round-trip request's needs no connection.
  const withdrawn = inbox.filter(
    (item) =>
      item.serverId === server.id &&
      !item.relatedCall &&
      !(item.id in held) &&
      (item.taskId === undefined || askedOfThisProcess(server, item.createdAt))
  );
  const questions = withdrawn.filter((item) => item.kind === 'elicitation').length;
  const waiting = new Set(inbox.map((item) => item.taskId));
  return {
    calls: Object.values(calls).filter((call) => call.serverId === server.id && call.state === 'running').length,
    tasks: stdio
      ? Object.values(outbound).filter((task) => task.serverId === server.id && !isTerminal(task.state)).length
      : 0,
    questions,
    modelRequests: withdrawn.length - questions,
    modelRuns: Object.values(tasks).filter(
      (task) =>
        task.serverId === server.id &&
        task.kind === 'sampling' &&
        !isTerminal(task.task.status) &&
        !waiting.has(task.task.taskId) &&
        askedOfThisProcess(server, task.task.createdAt)
    ).length
  };
}

/**
 * Whether the process of a stdio server that is ready asked this (at `askedAt`), not one before
 * it: the core ends the tasks it gave Taskdesk when it stops. An HTTP server's tasks stay.
 */
function askedOfThisProcess(server: Pick<ServerView, 'transport' | 'state'>, askedAt: string): boolean {
  return server.transport.type === 'stdio' && server.state.status === 'ready' && !connectedSince(server, askedAt);
}

export const counted = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** "a, b and c". */
export function listed(parts: string[]): string {
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/** What of the Inbox a close withdraws: "2 questions and 1 model request"; undefined for nothing. */
export function waitingWords(work: Pick<RunningWork, 'questions' | 'modelRequests'>): string | undefined {
  const waiting = [
    ...(work.questions > 0 ? [counted(work.questions, 'question', 'questions')] : []),
    ...(work.modelRequests > 0 ? [counted(work.modelRequests, 'model request', 'model requests')] : [])
  ];
  return waiting.length === 0 ? undefined : listed(waiting);
}

/**
 * What stops of the running work, as the Disconnect and Remove confirmations and the Save note
 * say it, each with its verb: "1 running call will stop", "1 running task will be lost".
 */
export function stoppingWords(work: Pick<RunningWork, 'calls' | 'modelRuns' | 'tasks'>): string[] {
  return [
    ...(work.calls > 0 ? [`${counted(work.calls, 'running call', 'running calls')} will stop`] : []),
    ...(work.modelRuns > 0
      ? [`${counted(work.modelRuns, 'running model request', 'running model requests')} will stop`]
      : []),
    ...(work.tasks > 0 ? [`${counted(work.tasks, 'running task', 'running tasks')} will be lost`] : [])
  ];
}

/**
 * What a close of the server ends of the work under way, clause by clause, in the order every
 * screen says them: "1 question waiting in the Inbox will be withdrawn", "1 running call will
 * stop". The Disconnect, Remove and Save confirmations and the note above Save share them, so
 * that the note and the dialog behind it say the same in the same words.
 */
export function workEndsClauses(
  work: Pick<RunningWork, 'questions' | 'modelRequests' | 'calls' | 'modelRuns' | 'tasks'>
): string[] {
  const waiting = waitingWords(work);
  return [
    ...(waiting !== undefined ? [`${waiting} waiting in the Inbox will be withdrawn`] : []),
    ...stoppingWords(work)
  ];
}

/**
 * The line above the Edit form's Save when saving restarts a server with work under way:
 * "Saving restarts Everything: 1 running call will stop." Undefined when nothing would stop.
 */
export function restartWords(name: string, work: RunningWork): string | undefined {
  const clauses = workEndsClauses(work);
  return clauses.length === 0 ? undefined : `Saving restarts ${name}: ${listed(clauses)}.`;
}
