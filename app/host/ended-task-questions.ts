import type { OutboundTaskView } from '../contract/outbound-tasks.js';
import { assertNever } from '../core/assert-never.js';
import type { Inbox } from '../inbox/inbox.js';

/**
 * Why the questions a server asked for one of Taskdesk's own tasks are withdrawn, in words for a
 * person: the task has ended. Undefined while the task runs (its questions still matter).
 */
export function endedTaskReason(
  task: Pick<OutboundTaskView, 'state' | 'toolName' | 'cancelledBy'>
): string | undefined {
  const subject = `The task this was asked for (tool ${task.toolName})`;
  switch (task.state) {
    case 'working':
    case 'input_required':
      return undefined;
    case 'completed':
      return `${subject} completed without it.`;
    case 'failed':
      return `${subject} failed.`;
    case 'cancelled':
      return task.cancelledBy === 'you'
        ? `${subject} was cancelled by you.`
        : task.cancelledBy === 'server'
          ? `${subject} was cancelled by its server.`
          : `${subject} was cancelled.`;
    case 'expired':
      return `${subject} expired before its result was fetched.`;
    case 'lost':
      return `${subject} is no longer known to its server.`;
    default:
      return assertNever(task.state, 'Unknown outbound task state');
  }
}

/**
 * Withdraws the Inbox questions a server asked for a task of Taskdesk's that the person forgot
 * (Forget, while it may still run): nobody follows the task any more, so nobody will take up
 * an answer given for it.
 */
export function withdrawQuestionsOfForgottenTask(
  inbox: Inbox,
  task: Pick<OutboundTaskView, 'serverId' | 'taskId' | 'toolName'>
): number {
  if (inbox.size === 0) return 0;
  return inbox.withdraw(
    (item) => item.serverId === task.serverId && item.relatedTaskId === task.taskId,
    `The task this was asked for (tool ${task.toolName}) was forgotten in Taskdesk.`
  );
}

/**
 * Withdraws the Inbox questions a server asked for one of Taskdesk's own tasks (its related-task
 * `_meta` names the task) once that task has ended: nothing waits on them any more, and an answer
 * given later would go to a task that is over. Each request is answered as the person dismissing
 * it would (see {@link Inbox.withdraw}), so that the server is not left waiting. Nothing happens
 * while the task runs.
 */
export function withdrawQuestionsOfEndedTask(
  inbox: Inbox,
  task: Pick<OutboundTaskView, 'serverId' | 'taskId' | 'state' | 'toolName' | 'cancelledBy'>
): number {
  // Told of every change of every task: an empty Inbox costs nothing.
  if (inbox.size === 0) return 0;
  const reason = endedTaskReason(task);
  if (reason === undefined) return 0;
  return inbox.withdraw((item) => item.serverId === task.serverId && item.relatedTaskId === task.taskId, reason);
}
