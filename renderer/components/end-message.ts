import type { ErrorData, OutboundTaskView } from '../../app/contract/host-api.js';
import { keptNoLonger } from './kept-words.js';
import { isTerminal } from '../store/task-status.js';

/**
 * A requested task's status message as its card, row and detail show it: a running task's as it
 * stands; a finished task's only when it came with the end (a failure's reason, a server's word
 * on why it cancelled), not the one it had while it ran, which servers often leave on the finished
 * task ("Generating report…"): the core records which (`messageFromRun`). A task lost or expired
 * says why (its reason): its last status message, from before, is old news too. A task the person
 * cancelled: the server's message ("Client cancelled task execution.") only restates "Cancelled
 * by you".
 */
export function endMessage(task: OutboundTaskView): string | undefined {
  if (!isTerminal(task.state)) return task.task.statusMessage;
  if (task.messageFromRun || keptNoLonger(task.state)) return undefined;
  if (task.state === 'cancelled' && task.cancelledBy === 'you') return undefined;
  return task.task.statusMessage;
}

/**
 * Why a requested task failed, when its server said so with the end and kept no result: its
 * outcome, in place of the error its `tasks/result` answered. A failed task with a result (a tool
 * error) shows that result, and its message as a status message.
 */
export function failedReason(task: OutboundTaskView): string | undefined {
  if (task.state !== 'failed' || task.outcome?.type === 'result') return undefined;
  return endMessage(task);
}

/**
 * Whether an error is the SDK's generic answer to `tasks/result` for a task with no result stored
 * ("Task 4480… has no result stored", −32603). Beside a failed task's reason it says nothing new
 * (no result is what a failure leaves) and names the task by an id the person already sees, so it
 * is not shown there; any other error may say more than the reason, and is shown as a detail.
 */
export function isNoResultStored(error: Pick<ErrorData, 'message'> | undefined): boolean {
  return error !== undefined && /^Task \S.* has no result stored\.?$/.test(error.message);
}

/** What the error under a failed task's reason is: the server's answer when asked for its result. */
export const FAILED_ERROR_WORDS = 'Its result could not be fetched: the server answered with an error.';

/** An error `tasks/result` answered, in a line after a failed task's reason (a row's note). */
export function errorNote(error: Pick<ErrorData, 'code' | 'message'>): string {
  return `Its result could not be fetched: Error ${error.code}: ${error.message}`;
}
