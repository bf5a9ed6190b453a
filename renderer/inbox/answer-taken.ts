import type { InboxItem } from '../../app/contract/host-api.js';
import type { DeskStore } from '../store/desk-store.js';
import type { AnsweredRun } from '../store/desk-state.js';

/**
 * What the Desk does once the host took an answer: the card goes at once (the host's
 * `inbox.removed` says the same, whenever it arrives), and, for an answer given in the Inbox, the
 * line above the cards says what was sent where. Returns what was said, to be announced; undefined when nothing is to be said.
 *
 * The reply and the host's events travel apart (over HTTP and SSE in browser mode) and cross:
 * by the time the reply is here, the host may already have put the answer's next step under the
 * same id (the review of a task's approved model answer). That item stays, and the "… is running"
 * of the approval is over already: nothing is said.
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
  if (current !== undefined && current.kind !== item.kind) return undefined;
  if (where === 'inbox') store.dispatch({ type: 'inbox-answered', text: said, ...(run && { run }) });
  if (current !== undefined) store.apply('inbox.removed', { id: item.id, why: 'answered' });
  return said;
}
