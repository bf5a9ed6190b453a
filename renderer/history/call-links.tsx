import type { HistoryEntry, HistorySummary } from '../../app/contract/host-api.js';
import { TaskTitle } from '../components/task-title.js';
import { DateTime } from '../components/date-time.js';
import { historyHref } from '../tools/last-call.js';

/** A row's mark of a question or model request asked for (or while) a tool call of Taskdesk's. */
export function forCallWords(forCall: NonNullable<HistorySummary['forCall']>): string {
  return `for the call of ${forCall.tool}`;
}

/**
 * In a question's or model request's detail: the tool call of Taskdesk's it was asked while,
 * linked to that call's entry while History has it.
 */
export function ForCallLine({ forCall }: { forCall: HistoryEntry['forCall'] }) {
  if (forCall === undefined) return null;
  return (
    <p className="history-for-call-line">
      Asked while Taskdesk’s call of <code>{forCall.tool}</code> ran
      {forCall.entryId === undefined ? (
        ' (that call is no longer in History).'
      ) : (
        <>
          {' — '}
          <a href={historyHref(forCall.entryId)} aria-label={`See the call of ${forCall.tool}`}>
            see it
          </a>
          .
        </>
      )}
    </p>
  );
}

/** In a tool call's detail: the questions and model requests its server asked while it ran, each linked to its entry. */
export function AskedWhileList({ asked }: { asked: HistoryEntry['asked'] }) {
  if (asked === undefined || asked.length === 0) return null;
  return (
    <>
      <h4>Asked while it ran</h4>
      <ul className="history-asked">
        {asked.map((each) => (
          <li key={each.id}>
            <a href={historyHref(each.id)}>
              <TaskTitle kind={each.kind} title={each.title} />
            </a>{' '}
            <span className="muted">
              · <DateTime iso={each.createdAt} />
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}
