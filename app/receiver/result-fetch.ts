import type { TaskRecord } from './task-record.js';

/**
 * When the owner first fetched a finished task's result (`tasks/result` answered with it): the
 * note `TaskReceiver.result` keeps. Undefined while it has not, as for a server that lost its
 * tasks (a stdio server started again) and will never ask.
 */
export function resultFetchedAtOf(record: Pick<TaskRecord, 'notes'>): string | undefined {
  for (const note of record.notes) if (typeof note.resultFetchedAt === 'string') return note.resultFetchedAt;
  return undefined;
}

/**
 * Whether a finished task's result is kept for its owner to fetch and Taskdesk notes when it
 * does: the note its end keeps. A task that ended before fetches were noted has none, and nothing
 * is known of whether its result was fetched.
 */
export function fetchNotedOf(record: Pick<TaskRecord, 'notes'>): boolean {
  return record.notes.some((note) => note.resultKept === true);
}
