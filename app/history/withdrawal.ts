import type { TaskRecord } from '../receiver/task-record.js';
import { withdrawnReasonOf } from '../receiver/withdrawn-note.js';

/**
 * Taskdesk's withdrawal of a server's request (a plain one or one asked as a task of its own),
 * as History says it: a cancellation by Taskdesk, with why and what its server was told. Its
 * runner's notes say whether it was withdrawn (`withdrawnReasonOf`); undefined when it was not.
 *
 * Its server was answered as a dismissal (an elicitation's `cancel`, a model request's −1; a
 * task of its own ended `completed` or `failed` with that answer), which is no answer of the
 * person's: History records it as cancelled by Taskdesk, not as what the protocol calls it.
 */
export function withdrawalOf(
  kind: 'sampling' | 'elicitation',
  notes: ReadonlyArray<Record<string, unknown>> | undefined
): { by: 'taskdesk'; reason: string } | undefined {
  const reason = withdrawnReasonOf(notes);
  if (reason === undefined) return undefined;
  const told = kind === 'elicitation' ? 'dismissed' : 'declined';
  return { by: 'taskdesk', reason: `${reason} Taskdesk withdrew it, and told its server it was ${told}.` };
}

/**
 * Taskdesk's withdrawal of a received task that ended with the dismissal it answered its server
 * (see `withdrawalOf`); undefined for any other task, and while it runs.
 */
export function withdrawnTask(record: Pick<TaskRecord, 'kind' | 'notes' | 'task'>): ReturnType<typeof withdrawalOf> {
  const { status } = record.task;
  return status === 'completed' || status === 'failed' ? withdrawalOf(record.kind, record.notes) : undefined;
}
