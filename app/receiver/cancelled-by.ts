import type { TaskRecord } from './task-record.js';

/**
 * Who cancelled a cancelled task: the note `TaskReceiver.cancel` keeps with it (`you` for the
 * person's Cancel, `server` for the server's `tasks/cancel`). Undefined for any other status,
 * and for a task cancelled before the note was kept.
 */
export function cancelledByOf(record: Pick<TaskRecord, 'task' | 'notes'>): 'you' | 'server' | undefined {
  if (record.task.status !== 'cancelled') return undefined;
  for (const note of record.notes)
    if (note.cancelledBy === 'you' || note.cancelledBy === 'server') return note.cancelledBy;
  return undefined;
}
