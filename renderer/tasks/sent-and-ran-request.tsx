import { ranRequestSentence } from '../../app/contract/request-changes.js';
import { JsonView } from '../components/json-view.js';
import { RequestView } from './request-view.js';
import type { TaskItem } from './task-items.js';

/** Said beside a task's status when the person changed its model request on the approval card. */
export const CHANGED_BEFORE_IT_RAN = 'changed by you before it ran';
/** The same in a list's row (Tasks, History), where the detail says the rest; History's search finds it. */
export { CHANGED_BY_YOU } from '../../app/contract/task-row-words.js';

/**
 * What a task asked, and, when the person changed a model request before approving it, what ran
 * (`ranRequest`) with the parts they changed in words. History's detail and the Tasks screen's
 * detail show it alike; `idPrefix` keeps their headings' ids apart.
 */
export function SentAndRanRequest({
  kind,
  request,
  ranRequest,
  idPrefix
}: {
  kind: TaskItem['kind'];
  request: Record<string, unknown>;
  ranRequest: Record<string, unknown> | undefined;
  idPrefix: string;
}) {
  return (
    <>
      <h4>Request{ranRequest ? ' (as the server sent it)' : null}</h4>
      <RequestView kind={kind} request={request} />
      {ranRequest ? (
        <section className="ran-request" aria-labelledby={`${idPrefix}-ran-request`}>
          <h4 id={`${idPrefix}-ran-request`}>What ran (your changes)</h4>
          <p className="muted">{ranRequestSentence(request, ranRequest)}</p>
          <RequestView kind={kind} request={ranRequest} />
          <JsonView value={ranRequest} summary="What ran (JSON)" />
        </section>
      ) : null}
    </>
  );
}
