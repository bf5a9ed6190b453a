import type { HistoryEntry } from '../../app/contract/host-api.js';
import { TaskTitle } from '../components/task-title.js';
import { DateTime } from '../components/date-time.js';
import { historyHref } from '../tools/last-call.js';

/**
 * In a question's or model request's detail: the tool call of Taskdesk's it was asked for (its
 * task) or while, the words "call of …" linking to that call's entry while History has it.
 */
export function ForCallLine({ forCall }: { forCall: HistoryEntry['forCall'] }) {
  if (forCall === undefined) return null;
  const call =
    forCall.entryId === undefined ? (
      <>
        call of <code>{forCall.tool}</code>
      </>
    ) : (
      <a href={historyHref(forCall.entryId)}>
        call of <code>{forCall.tool}</code>
      </a>
    );
  return (
    <p className="history-for-call-line">
      {forCall.how === 'for' ? <>Asked for the task of Taskdesk’s {call}</> : <>Asked while Taskdesk’s {call} ran</>}
      {forCall.entryId === undefined ? ' (that call is no longer in History).' : '.'}
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
