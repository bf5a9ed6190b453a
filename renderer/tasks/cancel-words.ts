import type { InboundTask, OutboundTaskView } from '../../app/contract/host-api.js';
import { statusLabel } from '../components/status-words.js';
import { ended } from '../components/request-title.js';
import { answeredQuestion, itemNoun, namedItem } from '../inbox/answer-sent-words.js';
import { isTerminal } from '../store/task-status.js';

/** A received task, as its Cancel's words name it: what it asks, and whose it is. */
type Received = Pick<InboundTask, 'kind' | 'request' | 'serverName'>;

/**
 * A row's Cancel button: for a task a server gave Taskdesk, what it ends ("Cancel question…",
 * "Cancel model request…"), its dots saying it asks first (see {@link cancelReceivedAsk}); a
 * tool call's task the person started is cancelled at once, as its card under Tools does it.
 */
export function cancelButtonWords(kind: 'sampling' | 'elicitation' | 'tool-call'): string {
  if (kind === 'tool-call') return 'Cancel';
  return `Cancel ${itemNoun({ kind })}…`;
}

/** What the confirmation of a received task's Cancel says: a title, its paragraphs and its two buttons. */
export interface CancelAsk {
  title: string;
  body: readonly string[];
  confirmLabel: string;
  cancelLabel: string;
}

/**
 * The question a received task's Cancel asks before it ends the task: what the server is told
 * (that its task was cancelled, with no answer), that it cannot be undone, and, while its
 * question or model request waits in the Inbox (`waitsInInbox`), that its answers there are the
 * other way (a Decline there waits out an undo window). Its safe answer keeps the task: "Cancel"
 * beside "Cancel question" would read as the action itself.
 */
export function cancelReceivedAsk(task: Received, waitsInInbox: boolean): CancelAsk {
  const noun = itemNoun(task);
  const quoted = answeredQuestion(task);
  const asked =
    noun === 'question'
      ? `${task.serverName} asked ${quoted ?? 'a question'} as a task.`
      : `${task.serverName} asked for a model reply${quoted ? ` to ${quoted}` : ''} as a task.`;
  const what = noun === 'question' ? 'no answer' : 'no reply from the model';
  const refuse = noun === 'question' ? 'decline' : 'reject';
  return {
    title: `Cancel ${task.serverName}’s ${noun}?`,
    body: [
      `${asked} Cancelling ends the task: ${task.serverName} is told it was cancelled, and gets ${what}. This cannot be undone.`,
      ...(waitsInInbox
        ? [`To answer it, or to ${refuse} it with a few seconds to undo, open it in the Inbox instead.`]
        : [])
    ],
    confirmLabel: `Cancel ${noun}`,
    cancelLabel: `Keep the ${noun}`
  };
}

/** What the live region says once a received task was cancelled: "Cancelled Books’s question “Which shelf?”." */
export function receivedCancelledWords(task: Received): string {
  return ended(`Cancelled ${namedItem(task)}`);
}

/**
 * What the live region says once Cancel of a tool task is answered, naming its server as a plain
 * call's cancel does ("The call of ask on Server beta was cancelled."): "The slow task on Server a
 * was cancelled."; one that ended otherwise first, how, as its end is said elsewhere; one whose
 * server has not ended it yet, that it was asked to.
 */
export function toolCancelledWords(toolName: string, serverName: string, state: OutboundTaskView['state']): string {
  if (state === 'cancelled') return `The ${toolName} task on ${serverName} was cancelled.`;
  if (isTerminal(state)) return `The ${toolName} task on ${serverName} ended: ${statusLabel(state).toLowerCase()}.`;
  return `${serverName} was asked to cancel the ${toolName} task.`;
}
