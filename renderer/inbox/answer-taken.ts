import type { InboxItem } from '../../app/contract/host-api.js';
import type { DeskStore } from '../store/desk-store.js';
import type { AnsweredRun, DeskState } from '../store/desk-state.js';

/**
 * The Tasks screen's key (`requested:<outboundId>`, `received:<taskId>`) of the task the Inbox's
 * line is about: the tool call's task Taskdesk requested that the answered question was asked
 * for, else the received task the question was. Undefined when the line says something else
 * (the end of a run, nothing) or the Desk knows no such task.
 */
export function answeredTaskKey(state: DeskState): string | undefined {
  const item = state.answeredItem;
  if (item === undefined || state.lastAnswered !== item.said) return undefined;
  // A multi round-trip request's id is no task's (`relatedCall`).
  if (item.relatedTaskId !== undefined && !item.relatedCall) {
    const outbound = Object.values(state.outbound).find(
      (task) => task.serverId === item.serverId && task.taskId === item.relatedTaskId
    );
    if (outbound) return `requested:${outbound.outboundId}`;
  }
  if (item.taskId !== undefined && state.tasks[item.taskId]?.serverId === item.serverId)
    return `received:${item.taskId}`;
  return undefined;
}

/**
 * What the Desk does once the host took an answer: the card goes at once (the host's
 * `inbox.removed` says the same, whenever it arrives), and, for an answer given in the Inbox, the
 * line above the cards says what was sent where. Returns what was said, to be announced; undefined when nothing is to be said.
 *
 * The reply and the host's events travel apart (over HTTP and SSE in browser mode) and cross:
 * by the time the reply is here, the host may already have put the answer's next step under the
 * same id (the review of a task's approved model answer, or the request again when its run
 * failed). That item stays, and the "… is running" of the approval is over already: nothing is said.
 */
export function answerTaken(
  store: Pick<DeskStore, 'getState' | 'dispatch' | 'apply'>,
  item: InboxItem,
  said: string,
  run?: AnsweredRun,
  /** Where it was answered: only the Inbox's own cards say so on the Inbox's line (see `InInbox`). */
  where: 'inbox' | 'elsewhere' = 'inbox'
): string | undefined {
  const current = store.getState().inbox.find((known) => known.id === item.id);
  // Under the same id: the review of the answer, or the request back after the run failed.
  if (
    current !== undefined &&
    (current.kind !== item.kind || current.draft?.lastFailure?.at !== item.draft?.lastFailure?.at)
  )
    return undefined;
  if (where === 'inbox') {
    const { id, serverId, taskId, relatedTaskId, relatedCall } = item;
    const answered = { id, serverId, taskId, relatedTaskId, relatedCall };
    store.dispatch({ type: 'inbox-answered', text: said, ...(run && { run }), item: answered });
  }
  if (current !== undefined) store.apply('inbox.removed', { id: item.id, why: 'answered' });
  return said;
}
