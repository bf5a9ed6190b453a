import type { InboxItem, OutboundTaskView } from '../../app/contract/host-api.js';
import { isTerminal } from '../store/task-status.js';
import { KIND_WORDS } from './kind-words.js';

/**
 * Whether the person asked to cancel a task that has not ended yet (`tasks/cancel` is on its way):
 * its questions are no longer theirs to answer, nor is it to be cancelled again.
 */
export function isCancelling(task: OutboundTaskView): boolean {
  return task.cancelRequestedAt !== undefined && !isTerminal(task.state);
}

/** The questions (Inbox items) a task's server asks while the task waits on them (`relatedTaskId`). */
export function taskQuestions(task: OutboundTaskView | undefined, inbox: readonly InboxItem[]): InboxItem[] {
  return task ? inbox.filter((item) => item.serverId === task.serverId && item.relatedTaskId === task.taskId) : [];
}

/**
 * What a server's Inbox item asks of the person, in the words of `KIND_WORDS` (as the Inbox's own
 * card names it): "question" for an elicitation, "model request" for a sampling request (to
 * approve, write or review), so that a task waiting on a model reply does not say it has a question.
 */
export function askedWords(item: Pick<InboxItem, 'kind'>): string {
  return (item.kind === 'elicitation' ? KIND_WORDS.elicitation : KIND_WORDS.sampling).toLowerCase();
}

/**
 * How many questions the running tasks of a conversation's tool calls wait on (`runningTaskCalls`
 * of the conversation, or its summary's `runningTasks`): the chat shows them in the calls' cards,
 * and while one waits the person has to answer before the task goes on. A task being cancelled
 * waits on none.
 */
export function waitingQuestions(
  runningTasks: readonly string[] | undefined,
  outbound: Readonly<Record<string, OutboundTaskView>>,
  inbox: readonly InboxItem[]
): number {
  if (!runningTasks || inbox.length === 0) return 0;
  let count = 0;
  for (const outboundId of runningTasks) {
    const task = outbound[outboundId];
    if (task && !isTerminal(task.state) && !isCancelling(task)) count += taskQuestions(task, inbox).length;
  }
  return count;
}
