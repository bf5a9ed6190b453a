import type { HistorySummary } from '../../app/contract/host-api.js';
import { forCallWords } from '../../app/contract/task-row-words.js';
import { serverTaskWords, taskIdTitle } from '../components/related-task-words.js';

/**
 * What an entry's kind says next of the task it ran as or was asked for, in words a person knows
 * (a task's id only in a tooltip): "for the call of lookup" for a question or model request asked
 * for a tool call of Taskdesk's that History has (its `forCall`, in the words History's search
 * finds it by), nothing else for a task (it is one), "for tool list-files" for one asked for a
 * request of Taskdesk's that was no task, "for one of Everything’s tasks" for one asked for a
 * task History does not know as a call of Taskdesk's (the Inbox's words for it), and "without a
 * task" otherwise.
 */
export function TaskWords({
  entry
}: {
  entry: Pick<HistorySummary, 'taskId' | 'relatedTaskId' | 'askedFor' | 'forCall' | 'serverName'>;
}) {
  if (entry.forCall?.how === 'for')
    return (
      <>
        {' '}
        <span title={entry.relatedTaskId === undefined ? undefined : taskIdTitle(entry.relatedTaskId)}>
          {forCallWords(entry.forCall)}
        </span>
      </>
    );
  if (entry.taskId !== undefined) return null;
  // A request of Taskdesk's that was no task: named by what it was, not by Taskdesk's own id for it.
  if (entry.askedFor !== undefined) return <>{` for ${entry.askedFor}`}</>;
  if (entry.relatedTaskId === undefined) return <>{' without a task'}</>;
  return (
    <>
      {' '}
      <span title={taskIdTitle(entry.relatedTaskId)}>{`for ${serverTaskWords(entry.serverName)}`}</span>
    </>
  );
}
