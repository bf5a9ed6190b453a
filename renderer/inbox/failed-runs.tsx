import { sentence, truncate } from '../components/format.js';
import { useDesk, useDeskState } from '../shell/desk-context.js';
import { focusScreenHeading } from '../components/focus-screen.js';

/**
 * Where the person approved a model run, what became of it when it failed: a notice in the
 * Inbox naming the server and the error (with a link to the task, for a task), until closed.
 * The host says so (`sampling.approvedRunFailed`), for tasks and for ordinary requests alike.
 */
export function FailedRunNotices() {
  const { store } = useDesk();
  const failed = useDeskState((state) => state.failedRuns);
  if (failed.length === 0) return null;
  return (
    <div className="banners" role="alert">
      {failed.map((run) => (
        <div
          className="banner banner-warning notice-failed-run"
          key={run.id}
          {...(run.taskId !== undefined && { 'data-task-id': run.taskId })}
        >
          <p>
            The model run you approved for {run.serverName} failed: {sentence(truncate(run.message, 300))}
            {run.taskId !== undefined ? (
              <>
                {' '}
                <a href={`#tasks/${encodeURIComponent(`received:${run.taskId}`)}`}>See the task</a>.
              </>
            ) : (
              ' The server was told.'
            )}
          </p>
          <button
            type="button"
            onClick={() => {
              store.dispatch({ type: 'notice-dismissed', id: run.id });
              // The button goes with its notice: focus moves to the screen's heading, as the other notices' do.
              focusScreenHeading();
            }}
          >
            Close<span className="sr-only"> notice</span>
          </button>
        </div>
      ))}
    </div>
  );
}
