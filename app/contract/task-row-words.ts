/* Imports nothing: the Desk takes it as a value (a contract module that imports zod would bring
   zod's eval probe into the page), and History's search in the core finds a row by what it says. */

/**
 * What the badge of a running task says in place of "Working" while its question or model request
 * (or its server's question) waits in the Inbox for the person: on the Tasks screen and in History.
 */
export const WAITING_FOR_YOU_LABEL = 'Waiting for you';

/** The Status filter's choice of the tasks that wait on the person, on Tasks and History. */
export const WAITING_FOR_YOU = 'waiting';

/** What a list's row (Tasks, History) says of a model request the person changed before it ran. */
export const CHANGED_BY_YOU = 'changed by you';

/** What a cancelled task says, from who the core recorded cancelled it. */
export function cancelledWords(by: 'you' | 'server' | 'taskdesk' | undefined): string {
  if (by === 'you') return 'Cancelled by you';
  if (by === 'server') return 'Cancelled by the server';
  // A plain call or request still open when Taskdesk closed, or a question (a task of its own
  // too) Taskdesk withdrew because the task it was asked for ended: History's entries only.
  if (by === 'taskdesk') return 'Cancelled by Taskdesk';
  // A task cancelled before Taskdesk kept who did it.
  return 'Cancelled';
}

/**
 * What a History row says of a question or model request a server asked for a tool call of
 * Taskdesk's (its task) or while one ran (nothing more ties them), from its `forCall` (its type
 * written out, as this module imports nothing); History's search finds the row by these words.
 */
export function forCallWords(forCall: { tool: string; how: 'for' | 'while'; entryId?: string }): string {
  return forCall.how === 'for' ? `for the call of ${forCall.tool}` : `while the call of ${forCall.tool} ran`;
}
