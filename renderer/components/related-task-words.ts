import type { InboxItem, OutboundTaskView } from '../../app/contract/host-api.js';

/**
 * A tool call Taskdesk made as a task, by who made it: "your call of lookup", or "the Assistant’s
 * call of lookup" for one the Assistant made in a conversation.
 */
export function callOfWords(task: Pick<OutboundTaskView, 'toolName' | 'origin'>): string {
  return `${task.origin?.kind === 'assistant' ? 'the Assistant’s' : 'your'} call of ${task.toolName}`;
}

/**
 * A task of a server's that a question or model request was asked for, when the Desk does not
 * know it as a call of Taskdesk's (forgotten, or the server's own): "one of Everything’s tasks".
 * Its id names nothing a person knows: it goes in a tooltip ({@link taskIdTitle}).
 */
export function serverTaskWords(serverName: string): string {
  return `one of ${serverName}’s tasks`;
}

/**
 * What a request its server sent Taskdesk as a task of its own is, in the words the Inbox says it
 * by (its id in a tooltip, {@link taskIdTitle}): on its detail on Tasks and in the Audit log.
 */
export const SENT_AS_A_TASK = 'sent as a task';

/**
 * What a tool call of Taskdesk's is once its server runs it as a task, in words rather than the
 * server's id for the task (in a tooltip, {@link taskIdTitle}): on its card on Tools and its
 * detail on Tasks.
 */
export const RUN_AS_A_TASK = 'run as a task';

/** The tooltip of words that stand for a task: its whole id, for whoever needs it ("Task 6d23c87b-…"). */
export function taskIdTitle(taskId: string): string {
  return `Task ${taskId}`;
}

/** One part of an Inbox card's line, said after " · ", and the id of the task it stands for, for its tooltip. */
export interface WaitPart {
  words: string;
  taskId?: string;
}

/**
 * What an Inbox card's line says, after when it was asked, of what waits on the answer and what
 * it is for, in words a person knows rather than task ids (each id in its part's tooltip):
 *
 * - a request its server sent as a task (`taskId`): "sent as a task" (which Taskdesk keeps, as the
 *   line goes on to say), then the call of Taskdesk's it is for, if any;
 * - a question of a multi round-trip request of Taskdesk's (`relatedCall`): "your request waits on
 *   it", then what that request is (`origin`);
 * - one asked for a task (`relatedTaskId`): Taskdesk's call, when the Desk knows it (`call`, its
 *   {@link callOfWords}, from the requestor's outbound tasks), "your call of lookup waits on it";
 *   else "one of Everything’s tasks waits on it" (and what asks, when the host said it);
 * - any other: "the server waits for your answer".
 */
export function waitParts(
  item: Pick<InboxItem, 'serverName' | 'taskId' | 'relatedTaskId' | 'relatedCall' | 'origin'>,
  call: string | undefined
): WaitPart[] {
  const origin: WaitPart[] = item.origin === undefined ? [] : [{ words: `for ${item.origin}` }];
  if (item.taskId !== undefined) {
    const forCall: WaitPart[] =
      call !== undefined && item.relatedTaskId !== undefined
        ? [{ words: `for ${call}`, taskId: item.relatedTaskId }]
        : origin;
    return [{ words: SENT_AS_A_TASK, taskId: item.taskId }, ...forCall];
  }
  if (item.relatedCall) return [{ words: 'your request waits on it' }, ...origin];
  if (item.relatedTaskId !== undefined) {
    const waiting = call ?? serverTaskWords(item.serverName);
    return [{ words: `${waiting} waits on it`, taskId: item.relatedTaskId }, ...(call === undefined ? origin : [])];
  }
  return [{ words: 'the server waits for your answer' }, ...origin];
}
