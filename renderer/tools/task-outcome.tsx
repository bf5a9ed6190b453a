import type { ErrorData, OutboundTaskView } from '../../app/contract/host-api.js';
import { taskCardLabel } from './call-labels.js';
import { JsonView } from '../components/json-view.js';
import { errorWords } from '../../app/contract/error-words.js';
import { errorLead, failedReason, isNoResultStored } from '../components/end-message.js';
import { ResultFold, ToolResultView } from './tool-result-view.js';

/**
 * How a tool call that ran as a task ended, as its card and its call form both show it: a failed
 * task's reason (its server's status message), the error that failed it or came in place of its
 * result, in the words its row and detail use (`errorLead`), or its result. Nothing for a
 * cancelled task: its stored error (a 2026-07-28 server's −32800, or "no result stored" asked
 * after the cancel) says nothing true beyond "cancelled", which is said in words where it shows.
 * With `fold` (on a card of the Tool calls list), a long result is folded to its first lines (see
 * `ResultFold`); under the form the person just pressed Call tool in, it is what they came for,
 * and shows whole.
 */
export function TaskOutcome({ task, fold = false }: { task: OutboundTaskView; fold?: boolean }) {
  // A failed task whose server said why and kept no result: the reason says how it ended, and the
  // error that failed it follows (none for the SDK's generic "has no result stored", which only
  // says again that there is no result: see `isNoResultStored`).
  const failed = failedReason(task);
  const outcome = task.outcome;
  const error =
    outcome?.type === 'error' &&
    task.state !== 'cancelled' &&
    !(failed !== undefined && isNoResultStored(outcome.error))
      ? outcome.error
      : undefined;
  return (
    <>
      {failed !== undefined || error ? (
        <div className="outcome-block">
          {failed !== undefined ? (
            // The reason is the server's status message, and read as one; with the error after it,
            // that line says the tool failed.
            <p className="failed-reason">
              {error ? null : <strong>Failed: </strong>}
              <span className="status-message">{failed}</span>
            </p>
          ) : null}
          {error ? <TaskErrorView state={task.state} error={error} /> : null}
        </div>
      ) : null}
      {outcome?.type === 'result' ? (
        <div className="outcome-block">
          <p className="muted small-text">Result:</p>
          {fold ? (
            <ResultFold label={taskCardLabel(task)}>
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

/**
 * A requested task's error, led by what it is (see `errorLead`): "The tool failed: Error −32050:
 * disk is full" for a task that failed with it, "Its result could not be fetched: …" for one whose
 * result it came in place of; its data after it. On the task's card, under its call form and in
 * its detail on Tasks.
 */
export function TaskErrorView({ state, error }: { state: string; error: ErrorData }) {
  return (
    <div className="tool-result tool-result-error task-error">
      <p>
        <strong>{`${errorLead(state)}: `}</strong>
        {errorWords(error)}
      </p>
      {error.data !== undefined ? <JsonView value={error.data} /> : null}
    </div>
  );
}
