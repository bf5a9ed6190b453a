/** What a cancelled task says (one source with History's search: `app/contract/task-row-words.ts`). */
export { cancelledWords } from '../../app/contract/task-row-words.js';

/**
 * Who cancelled a task, said under its "Cancelled" badge ("by you"): the badge says the rest.
 * Undefined for a task cancelled before Taskdesk kept who did it, whose badge says all there is.
 */
export function cancelledByWords(by: 'you' | 'server' | 'taskdesk' | undefined): string | undefined {
  if (by === 'you') return 'by you';
  if (by === 'server') return 'by the server';
  if (by === 'taskdesk') return 'by Taskdesk';
  return undefined;
}
