import type { TaskRecord } from '../receiver/task-record.js';
import { withdrawnOf } from '../receiver/withdrawn-note.js';

/**
 * Taskdesk's withdrawal of a server's request (a plain one or one asked as a task of its own),
 * as History says it: a cancellation, with why and what its server was told. Its runner's notes
 * say whether it was withdrawn (`withdrawnOf`); undefined when it was not.
 *
 * Its server was answered as a dismissal (an elicitation's `cancel`, a model request's −1; a
 * task of its own ended `completed` or `failed` with that answer), which is no answer of the
 * person's: History records it as cancelled, not as what the protocol calls it. Cancelled by
 * you when the person's own action is why (they pressed Stop or Cancel on the task it was asked
 * for, as the task's entry beside it says), else by Taskdesk.
 */
export function withdrawalOf(
  kind: 'sampling' | 'elicitation',
  notes: ReadonlyArray<Record<string, unknown>> | undefined
): { by: 'you' | 'taskdesk'; reason: string } | undefined {
  const withdrawn = withdrawnOf(notes);
  if (withdrawn === undefined) return undefined;
  const told = kind === 'elicitation' ? 'dismissed' : 'declined';
  return {
    by: withdrawn.byYou ? 'you' : 'taskdesk',
    reason: `${withdrawn.reason} Taskdesk withdrew it, and told its server it was ${told}.`
  };
}

/**
 * Taskdesk's withdrawal of a received task that ended with the dismissal it answered its server
 * (see `withdrawalOf`); undefined for any other task, and while it runs.
 */
export function withdrawnTask(record: Pick<TaskRecord, 'kind' | 'notes' | 'task'>): ReturnType<typeof withdrawalOf> {
  const { status } = record.task;
  return status === 'completed' || status === 'failed' ? withdrawalOf(record.kind, record.notes) : undefined;
}
