import type { InboxItem, ServerView } from '../../app/contract/host-api.js';
import { answerDelivery, keptNote } from '../inbox/answer-delivery.js';

/**
 * Why the answer to a received task's question or model request waiting in the Inbox will never
 * reach its server, as the Inbox's card says it (`keptNote`): a stdio server started again since
 * it asked, a new process without the old one's tasks (`started-again`), or one not connected, the
 * process that asked having stopped (`process-stopped`). Undefined when its server may fetch it.
 */
export type NotFetched = 'started-again' | 'process-stopped';

/** {@link NotFetched} of the Inbox's `question`, decided as its card decides it (`answerDelivery`). */
export function answerNotFetched(question: InboxItem, server: ServerView | undefined): NotFetched | undefined {
  const delivery = answerDelivery(question, server);
  if (delivery.kind === 'now') return undefined;
  return delivery.startedAnew ? 'started-again' : delivery.processStopped ? 'process-stopped' : undefined;
}

/**
 * What a task's row (on Tasks and in History) says under its "Waiting for you" when its server
 * will not fetch the answer: the Inbox card's warning in a short line.
 */
export function notFetchedLine(serverName: string, why: NotFetched): string {
  return `${serverName} will not fetch your answer: ${
    why === 'started-again' ? 'it was started again since it asked' : 'the process that asked has stopped'
  }.`;
}

/**
 * The Inbox card's own sentence for `question` when its server will not fetch the answer (see
 * {@link answerNotFetched}), for a task's details; undefined otherwise.
 */
export function notFetchedNote(question: InboxItem, server: ServerView | undefined): string | undefined {
  return answerNotFetched(question, server) === undefined
    ? undefined
    : keptNote(question, answerDelivery(question, server));
}

/** What of a task ties it to the Inbox's item of its question or model request. */
export interface AskedTask {
  direction: string;
  serverId: string;
  taskId?: string | undefined;
}

/** What is said of a task whose server will not fetch the answer to its question: see {@link unfetchedOf}. */
export interface Unfetched {
  why: NotFetched;
  /** Its Inbox item. */
  question: InboxItem;
  /** The Inbox card's sentence (see {@link notFetchedNote}). */
  note: string;
}

/**
 * Whether the answer to a received task's question or model request waiting in `inbox` will never
 * reach its server (see {@link answerNotFetched}), and what the Inbox's card says of it.
 */
export function unfetchedOf(
  task: AskedTask,
  inbox: readonly InboxItem[],
  servers: readonly ServerView[]
): Unfetched | undefined {
  if (task.direction !== 'received' || task.taskId === undefined) return undefined;
  const question = inbox.find((item) => item.serverId === task.serverId && item.taskId === task.taskId);
  if (!question) return undefined;
  const server = servers.find((candidate) => candidate.id === task.serverId);
  const why = answerNotFetched(question, server);
  const note = why && keptNote(question, answerDelivery(question, server));
  return why && note !== undefined ? { why, question, note } : undefined;
}
