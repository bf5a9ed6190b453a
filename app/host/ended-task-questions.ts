import type { OutboundTaskView } from '../contract/outbound-tasks.js';
import { assertNever } from '../core/assert-never.js';
import type { Inbox } from '../inbox/inbox.js';
import type { OutboundTasks } from '../requestor/outbound-tasks.js';

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

/** Why the questions a server asked for a task the person forgot are withdrawn, in words for a person. */
export function forgottenTaskReason(task: Pick<OutboundTaskView, 'toolName'>): string {
  return `The task this was asked for (tool ${task.toolName}) was forgotten in Taskdesk.`;
}

/**
 * Why a question a server asks now for one of Taskdesk's tasks (`relatedTaskId`, from its
 * related-task `_meta`) is to be answered as it arrives, without reaching the Inbox: the task has
 * ended ({@link endedTaskReason}), or the person forgot it while its server could still ask
 * ({@link forgottenTaskReason}). Undefined while the task runs, and for a task id Taskdesk never
 * had: MCP 2025-11-25 asks a server to send the related-task `_meta` with a task's requests but
 * says nothing of a requestor that does not know the task, and such an id may still be Taskdesk's
 * (a multi round-trip request's exchange, or a task whose creation answer has not been taken in
 * yet) or a server's mistake; the person can answer or dismiss it, as before.
 */
export function lateQuestionReason(
  requestor: Pick<OutboundTasks, 'describe' | 'get' | 'forgotten'>,
  serverId: string,
  relatedTaskId: string
): string | undefined {
  const outboundId = requestor.describe(serverId, relatedTaskId)?.outboundId;
  const task = outboundId === undefined ? undefined : requestor.get(outboundId);
  if (task) return endedTaskReason(task);
  const forgotten = requestor.forgotten(serverId, relatedTaskId);
  return forgotten ? forgottenTaskReason(forgotten) : undefined;
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
    forgottenTaskReason(task),
    // Forget is the person's own action.
    true
  );
}

/**
 * Withdraws the Inbox questions a server asked for one of Taskdesk's own tasks (its related-task
 * `_meta` names the task) once that task has ended: nothing waits on them any more, and an answer
 * given later would go to a task that is over. Each request is answered as the person dismissing
 * it would (see {@link Inbox.withdraw}), so that the server is not left waiting. Nothing happens
 * while the task runs. A question that comes after the end never reaches the Inbox (see
 * {@link lateQuestionReason}).
 */
export function withdrawQuestionsOfEndedTask(
  inbox: Inbox,
  task: Pick<OutboundTaskView, 'serverId' | 'taskId' | 'state' | 'toolName' | 'cancelledBy'>
): number {
  // Told of every change of every task: an empty Inbox costs nothing.
  if (inbox.size === 0) return 0;
  const reason = endedTaskReason(task);
  if (reason === undefined) return 0;
  return inbox.withdraw(
    (item) => item.serverId === task.serverId && item.relatedTaskId === task.taskId,
    reason,
    task.state === 'cancelled' && task.cancelledBy === 'you'
  );
}
