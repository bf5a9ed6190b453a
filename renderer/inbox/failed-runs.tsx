import { useEffect, useRef, useState } from 'react';
import type { InboundTask } from '../../app/contract/host-api.js';
import { truncate } from '../components/format.js';
import { useDeskState } from '../shell/desk-context.js';
import { isTerminal } from '../store/task-status.js';

/** A model run the person approved that then failed. */
interface FailedRun {
  taskId: string;
  serverName: string;
  message: string;
}

/** Whether the person approved the request (the runner's notes: it waited for approval, then ran a model). */
function approvedThenRan(task: InboundTask): boolean {
  return (
    task.notes.some((note) => note.phase === 'awaiting-approval') && task.notes.some((note) => note.phase === 'model')
  );
}

/**
 * Where the person approved a model run, what became of it when it failed: a notice in the
 * Inbox naming the server and the error, with a link to the task, until dismissed. Only runs
 * this page saw running are reported (after a reload, earlier failures are on Tasks and in History).
 */
export function FailedRunNotices() {
  const tasks = useDeskState((state) => state.tasks);
  const running = useRef(new Set<string>());
  const [failed, setFailed] = useState<FailedRun[]>([]);

  useEffect(() => {
    const news: FailedRun[] = [];
    for (const task of Object.values(tasks)) {
      if (task.kind !== 'sampling') continue;
      const id = task.task.taskId;
      if (!isTerminal(task.task.status)) {
        running.current.add(id);
        continue;
      }
      if (!running.current.delete(id) || task.task.status !== 'failed' || !approvedThenRan(task)) continue;
      const message =
        task.outcome?.type === 'error' ? task.outcome.error.message : (task.task.statusMessage ?? 'no reason given');
      news.push({ taskId: id, serverName: task.serverName, message });
    }
    if (news.length > 0) setFailed((old) => [...old, ...news]);
  }, [tasks]);

  if (failed.length === 0) return null;
  return (
    <div className="banners" role="alert">
      {failed.map((run) => (
        <div className="banner banner-warning notice-failed-run" key={run.taskId} data-task-id={run.taskId}>
          <p>
            The model run you approved for {run.serverName} failed: {truncate(run.message, 300)} —{' '}
            <a href={`#tasks/${encodeURIComponent(`received:${run.taskId}`)}`}>see the task</a>.
          </p>
          <button type="button" onClick={() => setFailed((old) => old.filter((one) => one.taskId !== run.taskId))}>
            Dismiss
          </button>
        </div>
      ))}
    </div>
  );
}
