import type { OutboundTaskView } from '../../app/contract/host-api.js';
import { shortId } from '../components/format.js';
import { FAILED_ERROR_WORDS, failedReason, isNoResultStored } from '../components/end-message.js';
import { ErrorView, ResultFold, ToolResultView } from './tool-result-view.js';

/**
 * How a tool call that ran as a task ended, as its card and its call form both show it: a failed
 * task's reason (with the error its `tasks/result` answered, when that says more), or its result,
 * or the error the server answered with. Nothing for a cancelled task: its stored error (a
 * 2026-07-28 server's −32800, or "no result stored" asked after the cancel) says nothing true
 * beyond "cancelled", which is said in words where it shows. With `fold` (on a card of the Tool
 * calls list), a long result is folded to its first lines (see `ResultFold`); under the form the
 * person just pressed Call tool in, it is what they came for, and shows whole.
 */
export function TaskOutcome({ task, fold = false }: { task: OutboundTaskView; fold?: boolean }) {
  const cancelled = task.state === 'cancelled';
  // A failed task whose server said why and kept no result: the reason is its outcome, and the
  // error its tasks/result answered a muted detail under it (none for the SDK's generic "has no
  // result stored", which only says again that there is no result: see `isNoResultStored`).
  const failed = failedReason(task);
  const outcome = (cancelled || failed !== undefined) && task.outcome?.type === 'error' ? undefined : task.outcome;
  const failedError =
    failed !== undefined && task.outcome?.type === 'error' && !isNoResultStored(task.outcome.error)
      ? task.outcome.error
      : undefined;
  return (
    <>
      {failed !== undefined ? (
        <div className="outcome-block">
          {/* The reason is the server's status message, and read as one. */}
          <p className="failed-reason">
            <strong>Failed: </strong>
            <span className="status-message">{failed}</span>
          </p>
          {failedError ? (
            <div className="failed-error">
              <p className="muted small-text">{FAILED_ERROR_WORDS}</p>
              <ErrorView error={failedError} />
            </div>
          ) : null}
        </div>
      ) : null}
      {outcome ? (
        <div className="outcome-block">
          <p className="muted small-text">
            {outcome.type === 'result' ? 'Result:' : 'The server answered with an error:'}
          </p>
          {outcome.type === 'error' ? (
            <ErrorView error={outcome.error} />
          ) : fold ? (
            <ResultFold label={`${task.toolName} task ${shortId(task.taskId)}`}>
              <ToolResultView result={outcome.result} serverId={task.serverId} />
            </ResultFold>
          ) : (
            <ToolResultView result={outcome.result} serverId={task.serverId} />
          )}
        </div>
      ) : null}
    </>
  );
}
