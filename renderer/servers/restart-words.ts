import type { InboxItem, PlainCallView, ServerView } from '../../app/contract/host-api.js';
import type { OutboundTaskView } from '../../app/contract/outbound-tasks.js';
import type { EditableServerInput, SettingEntry } from '../../app/contract/server-settings.js';
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
  /** Questions outside a task waiting in the Inbox: their requests end with the connection. */
  questions: number;
  /** Model requests outside a task waiting in the Inbox (to approve, answer or review): the same. */
  modelRequests: number;
}

/** The work of `server` a restart would stop, from the Desk's state. */
export function runningWork(
  server: Pick<ServerView, 'id' | 'transport'>,
  calls: Record<string, PlainCallView>,
  outbound: Record<string, OutboundTaskView>,
  inbox: readonly InboxItem[]
): RunningWork {
  const stdio = server.transport.type === 'stdio';
  // A task's question is kept with its task, and a multi round-trip request's needs no connection.
  const withdrawn = inbox.filter(
    (item) => item.serverId === server.id && item.taskId === undefined && !item.relatedCall
  );
  const questions = withdrawn.filter((item) => item.kind === 'elicitation').length;
  return {
    calls: Object.values(calls).filter((call) => call.serverId === server.id && call.state === 'running').length,
    tasks: stdio
      ? Object.values(outbound).filter((task) => task.serverId === server.id && !isTerminal(task.state)).length
      : 0,
    questions,
    modelRequests: withdrawn.length - questions
  };
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
 * The line under the Edit form's Save when saving restarts a server with work under way:
 * "Saving restarts Everything: 1 running call will stop." Undefined when nothing would stop.
 */
export function restartWords(name: string, work: RunningWork): string | undefined {
  const stopping = [
    ...(work.calls > 0 ? [counted(work.calls, 'running call', 'running calls')] : []),
    ...(work.tasks > 0 ? [counted(work.tasks, 'task', 'tasks')] : [])
  ];
  const stops = stopping.length > 0 ? `${stopping.join(' and ')} will stop` : undefined;
  const waiting = waitingWords(work);
  const withdrawn = waiting === undefined ? undefined : `${waiting} in the Inbox will be withdrawn`;
  if (!stops && !withdrawn) return undefined;
  return `Saving restarts ${name}: ${[stops, withdrawn].filter(Boolean).join(', and ')}.`;
}
