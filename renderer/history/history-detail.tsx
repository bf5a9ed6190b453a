import { useEffect, useState } from 'react';
import type { HistoryEntry } from '../../app/contract/host-api.js';
import { cancelledWords } from '../components/cancelled-words.js';
import { Timeline } from '../components/timeline.js';
import { JsonView } from '../components/json-view.js';
import { StatusBadge } from '../components/status-badge.js';
import { ActionError, useFailure } from '../components/action-error.js';
import { TaskTitle } from '../components/task-title.js';
import { useDesk } from '../shell/desk-context.js';
import { RequestView } from '../tasks/request-view.js';
import { isRejectedSampling } from '../../app/contract/rejected-sampling.js';
import { ErrorView } from '../tools/tool-result-view.js';
import { escapeCloses } from '../components/escape-closes.js';
import { changedParts, partsInWords, SAMPLING_REQUEST_PARTS } from '../../app/contract/request-changes.js';
import { ResultView } from './result-view.js';

/** One history entry in full (`history.get`): its timeline, what was asked (as a task's detail shows it), and how it ended. */
export function HistoryDetail({ id, onClose }: { id: string; onClose: () => void }) {
  const { client } = useDesk();
  const [entry, setEntry] = useState<HistoryEntry | undefined>(undefined);
  const { failure, fail, clear } = useFailure();
  /** Bumped by Retry: reads the entry again. */
  const [attempt, setAttempt] = useState(0);
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

  return (
    <section
      className="card history-detail"
      aria-labelledby="history-detail-title"
      data-history-id={id}
      onKeyDown={escapeCloses(onClose)}
    >
      <header className="card-header">
        <h3 id="history-detail-title" tabIndex={-1} ref={(element) => element?.focus()}>
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
            {entry.taskId === undefined ? ' without a task' : null} ·{' '}
            <StatusBadge status={entry.status} rejected={isRejectedSampling(entry)} />
            {entry.unanswered ? ' · expired unanswered' : null}
            {entry.status === 'cancelled' ? ` · ${cancelledWords(entry.cancelledBy)}` : null}
            {entry.ranRequest ? ' · changed by you before it ran' : null}
            {entry.statusMessage ? ` · ${entry.statusMessage}` : null}
          </p>
          <h4>Timeline</h4>
          <Timeline steps={entry.timeline} />
          <h4>Request{entry.ranRequest ? ' (as the server sent it)' : null}</h4>
          <RequestView kind={entry.kind} request={entry.request} />
          {entry.ranRequest ? (
            <section className="ran-request" aria-labelledby="history-ran-request">
              <h4 id="history-ran-request">What ran (your changes)</h4>
              <p className="muted">{changesSentence(entry.request, entry.ranRequest)}</p>
              <RequestView kind={entry.kind} request={entry.ranRequest} />
              <JsonView value={entry.ranRequest} summary="What ran (JSON)" />
            </section>
          ) : null}
          <h4>Result</h4>
          {entry.error && entry.status !== 'cancelled' ? (
            <ErrorView error={entry.error} rejected={isRejectedSampling(entry)} />
          ) : null}
          {entry.result ? (
            <ResultView
              result={entry.result}
              requestedSchema={
                entry.kind === 'elicitation' ? (entry.request as Record<string, unknown>).requestedSchema : undefined
              }
            />
          ) : entry.error && entry.status !== 'cancelled' ? null : (
            <p className="muted">No result.</p>
          )}
          <JsonView
            value={entry.request}
            summary={entry.ranRequest ? 'Request as the server sent it (JSON)' : 'Request (JSON)'}
          />
          {entry.result ? <JsonView value={entry.result} summary="Result (JSON)" /> : null}
        </>
      ) : null}
    </section>
  );
}

/** Which parts the person changed, in a sentence; a request too large to keep whole says only that it changed. */
function changesSentence(request: HistoryEntry['request'], ran: NonNullable<HistoryEntry['ranRequest']>): string {
  const parts =
    request.truncated === true || ran.truncated === true ? [] : changedParts(SAMPLING_REQUEST_PARTS, request, ran);
  return parts.length > 0
    ? `You changed ${partsInWords(parts)} before approving it; this is what the model was sent.`
    : 'You changed this request before approving it; this is what the model was sent.';
}
