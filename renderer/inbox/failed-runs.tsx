import { sentence, truncate } from '../components/format.js';
import { useId } from 'react';
import { useDesk, useDeskState } from '../shell/desk-context.js';
import { NoticeClose, NoticeList } from '../shell/notice-stack.js';
import type { DeskState } from '../store/desk-state.js';

/**
 * Where the person approved a model run, what became of it when it failed: a notice in the
 * Inbox naming the server and the error (with a link to the task, for a task), until closed.
 * The host says so (`sampling.approvedRunFailed`), for tasks and for ordinary requests alike.
 * Several are all shown; a Close hands the focus on as the other notices' do (see {@link NoticeList}).
 */
export function FailedRunNotices() {
  const { store } = useDesk();
  const failed = useDeskState((state) => state.failedRuns);
  if (failed.length === 0) return null;
  return (
    <div className="banners" role="alert">
      <NoticeList
        notices={failed.map((run) => ({
          key: run.id,
          notice: <FailedRunNotice run={run} close={() => store.dispatch({ type: 'notice-dismissed', id: run.id })} />
        }))}
      />
    </div>
  );
}

/** One failed run's notice: its words, and its Close (described by them, see {@link NoticeClose}). */
function FailedRunNotice({ run, close }: { run: DeskState['failedRuns'][number]; close: () => void }) {
  const textId = useId();
  return (
    <div
      className="banner banner-warning notice-failed-run"
      {...(run.taskId !== undefined && { 'data-task-id': run.taskId })}
    >
      <p id={textId}>
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
      <NoticeClose close={close} describedBy={textId} />
    </div>
  );
}
