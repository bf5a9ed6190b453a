import type { ErrorData, OutboundTaskView } from '../../app/contract/host-api.js';
import { errorWords } from '../../app/contract/error-words.js';
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
 * Why a requested task failed, when its server said so with the end and kept no result: how it
 * ended, with the error that failed it after it (see {@link errorLine}), when that says more than
 * "has no result stored". A failed task with a result (a tool error) shows that result, and its
 * message as a status message.
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

/**
 * What a requested task's error is, by how the task ended, on its card, its row and its detail
 * alike. A task that `failed` failed with it: the error is its outcome (a 2026-07-28 task carries
 * the error that failed it; a 2025-11-25 server's `tasks/result` answers a failed task with it),
 * and the tool failed, not Taskdesk or the connection. A task that completed (or ended otherwise)
 * with an error in place of its result: its result could not be got.
 */
export function errorLead(state: string): string {
  return state === 'failed' ? 'The tool failed' : 'Its result could not be fetched';
}

/**
 * A requested task's error in a line, led by what it is (see {@link errorLead}): "The tool failed:
 * Error −32050: disk is full". A row's outcome, or its note after a failed task's reason.
 */
export function errorLine(state: string, error: Pick<ErrorData, 'code' | 'message'>): string {
  return `${errorLead(state)}: ${errorWords(error)}`;
}
