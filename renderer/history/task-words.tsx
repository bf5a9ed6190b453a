import type { HistorySummary } from '../../app/contract/host-api.js';
import { ShortId } from '../components/short-id.js';

/**
 * What an entry's kind says next of the task it ran as: nothing for a task (it is one), "for
 * task 75812cde…" for a question or model request that was no task of its own but was asked for
 * one (its related task: the one the Inbox said waits on it), "for tool list-files" for one asked
 * for a request of Taskdesk's that was no task, and "without a task" otherwise.
 */
export function TaskWords({ entry }: { entry: Pick<HistorySummary, 'taskId' | 'relatedTaskId' | 'askedFor'> }) {
  if (entry.taskId !== undefined) return null;
  // A request of Taskdesk's that was no task: named by what it was, not by Taskdesk's own id for it.
  if (entry.askedFor !== undefined) return <>{` for ${entry.askedFor}`}</>;
  if (entry.relatedTaskId === undefined) return <>{' without a task'}</>;
  return (
    <>
      {' for task '}
      <ShortId id={entry.relatedTaskId} />
    </>
  );
}
