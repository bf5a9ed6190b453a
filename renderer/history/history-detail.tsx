import { useEffect, useRef, useState } from 'react';
import type { HistoryEntry } from '../../app/contract/host-api.js';
import { answeredSteps, cancelledLabel, endLabel } from './cancelled-label.js';
import { Timeline } from '../components/timeline.js';
import { JsonView } from '../components/json-view.js';
import { StatusBadge } from '../components/status-badge.js';
import { ActionError, useFailure } from '../components/action-error.js';
import { TaskTitle } from '../components/task-title.js';
import { useDesk } from '../shell/desk-context.js';
import { CHANGED_BEFORE_IT_RAN, SentAndRanRequest } from '../tasks/sent-and-ran-request.js';
import { isRejectedSampling } from '../../app/contract/rejected-sampling.js';
import { ErrorView } from '../tools/tool-result-view.js';
import { TaskErrorView } from '../tools/task-outcome.js';
import { escapeCloses } from '../components/escape-closes.js';
import { ResultView, toolResultServer } from './result-view.js';
import { RejectedAnswer } from './rejected-answer.js';
import { TaskWords } from './task-words.js';
import { isNoResultStored } from '../components/end-message.js';
import { CallOriginLine } from '../components/call-origin.js';
import { CallAgainButton } from '../components/call-again.js';
import { isTerminal } from '../store/task-status.js';
import { AskedWhileList, ForCallLine } from './call-links.js';
import { heldDone, heldLabel } from '../tasks/task-items.js';
import { useHeldAnswers } from './held-answer.js';
import { useUnfetched } from '../tasks/use-unfetched.js';

/**
 * Where a task that is still running is followed and acted on: its detail on the Tasks screen
 * (`#tasks/<key>`, a task's key being its History id), which answers its question and cancels it.
 * Undefined for an entry that ended, or that is no task (a plain call, a request without a task).
 */
export function liveTaskHref(entry: { id: string; status: string }): string | undefined {
  if (isTerminal(entry.status) || !/^(received|requested):/.test(entry.id)) return undefined;
  return `#tasks/${encodeURIComponent(entry.id)}`;
}

/** One history entry in full (`history.get`): its timeline, what was asked (as a task's detail shows it), and how it ended. */
export function HistoryDetail({ id, onClose }: { id: string; onClose: () => void }) {
  const { client } = useDesk();
  const [entry, setEntry] = useState<HistoryEntry | undefined>(undefined);
  const { failure, fail, clear } = useFailure();
  /** Bumped by Retry: reads the entry again. */
  const [attempt, setAttempt] = useState(0);
  /**
   * The heading takes the focus when an entry opens, not on every render: the screen renders the
   * detail again as the person types in Search or picks a filter, and a focus moved then would
   * take the control from under them.
   */
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [id]);
  useEffect(() => {
    let current = true;
    setEntry(undefined);
    clear();
    client.call('history.get', { id }).then(
      (found) => current && setEntry(found),
      (error: unknown) => current && fail('Could not load this entry.', error, 'Press Retry to read it again.')
    );
    return () => {
      current = false;
    };
  }, [client, id, attempt, clear, fail]);
  // Beside a failure's reason (its status message, in the line above) the generic "has no result
  // stored" says nothing, as on the task's card and row (`isNoResultStored`).
  // The person's Decline of its question, held in the Inbox's undo window: said as its Tasks detail says it.
  const heldAnswerOf = useHeldAnswers();
  const held = entry && heldAnswerOf(entry);
  // Its server will not fetch the answer its Inbox item waits for: said in the Inbox card's words.
  const unfetchedOf = useUnfetched();
  const unfetched = entry && !held && !isTerminal(entry.status) ? unfetchedOf(entry) : undefined;
  const error =
    entry?.status === 'failed' && entry.statusMessage && isNoResultStored(entry.error) ? undefined : entry?.error;

  return (
    <section
      className="card history-detail"
      aria-labelledby="history-detail-title"
      data-history-id={id}
      onKeyDown={escapeCloses(onClose)}
    >
      <header className="card-header">
        <h3 id="history-detail-title" tabIndex={-1} ref={heading}>
          {entry ? <TaskTitle kind={entry.kind} title={entry.title} /> : 'History entry'}
        </h3>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </header>
      {/* No Dismiss: the entry did not load, and without the message the card would read as still loading. */}
      <ActionError failure={failure} onRetry={() => setAttempt((n) => n + 1)} />
      {!entry && !failure ? <p className="muted">Loading…</p> : null}
      {entry ? (
        <>
          <p className="meta">
            {entry.direction === 'received' ? 'Asked by' : 'Requested of'} <strong>{entry.serverName}</strong>
            <TaskWords entry={entry} /> ·{' '}
            <StatusBadge
              status={entry.status}
              rejected={isRejectedSampling(entry)}
              label={held ? heldLabel(held) : endLabel(entry)}
            />
            {entry.unanswered ? ' · expired unanswered' : null}
            {entry.ranRequest ? ` · ${CHANGED_BEFORE_IT_RAN}` : null}
            {/* A reason that only says who cancelled it is said by the badge already, as is a
                server's word on the person's cancel of a tool task ("Client cancelled task
                execution."); Taskdesk's word on a question it withdrew says why. */}
            {entry.statusMessage &&
            !held &&
            !unfetched &&
            entry.statusMessage !== cancelledLabel(entry) &&
            !(entry.direction === 'requested' && entry.status === 'cancelled' && entry.cancelledBy === 'you')
              ? ` · ${entry.statusMessage}`
              : null}
          </p>
          {held ? (
            // The Inbox's address of the item focuses its line's Undo while there is one.
            <p className="history-held">
              {held.phase === 'held' ? (
                <>
                  {`${heldDone(held, 'received')}: you can still `}
                  <a href={`#inbox/${encodeURIComponent(held.id)}`}>undo it in the Inbox</a>.
                </>
              ) : (
                `${heldDone(held, 'received')}: on its way to the server.`
              )}
            </p>
          ) : null}
          {unfetched ? (
            <p className="history-unfetched">
              {unfetched.note} <a href={`#inbox/${encodeURIComponent(unfetched.question.id)}`}>See it in the Inbox</a>.
            </p>
          ) : null}
          <CallOriginLine origin={entry.origin} />
          {/* A question or model request asked for or while a call of Taskdesk's: that call, linked. */}
          <ForCallLine forCall={entry.forCall} />
          {/* A task still running is acted on where it lives: its controls are not repeated here. */}
          {liveTaskHref(entry) ? (
            <p className="history-live">
              This task is still running: <a href={liveTaskHref(entry)}>see it live on Tasks</a>.
            </p>
          ) : null}
          {entry.kind === 'tool-call' && entry.direction === 'requested' ? (
            <div className="actions">
              <CallAgainButton serverId={entry.serverId} request={entry.request} />
            </div>
          ) : null}
          {/* A tool call's: what its server asked while it ran, each linked to its own entry. */}
          <AskedWhileList asked={entry.asked} />
          <h4>Timeline</h4>
          <Timeline steps={answeredSteps(entry)} rejected={isRejectedSampling(entry)} />
          <SentAndRanRequest
            kind={entry.kind}
            request={entry.request}
            ranRequest={entry.ranRequest}
            idPrefix="history"
          />
          {entry.rejectedAnswer ? (
            <RejectedAnswer answer={entry.rejectedAnswer} className="history-rejected-answer" />
          ) : null}
          <h4>Result</h4>
          {/* A tool task's error is led by what it is, as its card, its row and its detail on Tasks
              say it (`errorLead`): the tool failed, or its result could not be fetched. A model
              request turned down: the status line says who rejected what; this, what its server
              was told (the protocol's words, not the person's). */}
          {error && entry.status !== 'cancelled' ? (
            entry.kind === 'tool-call' && entry.taskId !== undefined ? (
              <TaskErrorView state={entry.status} error={error} />
            ) : isRejectedSampling(entry) ? (
              <p className="history-told">Its server was told: “{error.message}”.</p>
            ) : (
              <ErrorView error={error} />
            )
          ) : null}
          {entry.result ? (
            <ResultView
              result={entry.result}
              requestedSchema={
                entry.kind === 'elicitation' ? (entry.request as Record<string, unknown>).requestedSchema : undefined
              }
              serverId={toolResultServer(entry)}
            />
          ) : error && entry.status !== 'cancelled' ? null : (
            <p className="muted">No result.</p>
          )}
          {/* A model's answer the person changed in review: the result above is what its server got. */}
          {entry.modelAnswer ? (
            <>
              <h4>The model’s answer before your changes</h4>
              <div className="history-model-answer">
                <ResultView result={entry.modelAnswer} />
              </div>
            </>
          ) : null}
          <JsonView
            value={entry.request}
            summary={entry.ranRequest ? 'Request as the server sent it (JSON)' : 'Request (JSON)'}
          />
          {entry.result ? <JsonView value={entry.result} summary="Result (JSON)" /> : null}
          {entry.modelAnswer ? (
            <JsonView value={entry.modelAnswer} summary="The model’s answer before your changes (JSON)" />
          ) : null}
          {entry.rejectedAnswer ? <JsonView value={entry.rejectedAnswer} summary="Rejected answer (JSON)" /> : null}
        </>
      ) : null}
    </section>
  );
}
