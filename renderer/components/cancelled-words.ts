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
 * Who cancelled a task, said under its "Cancelled" badge ("by you"): the badge says the rest.
 * Undefined for a task cancelled before Taskdesk kept who did it, whose badge says all there is.
 */
export function cancelledByWords(by: 'you' | 'server' | 'taskdesk' | undefined): string | undefined {
  if (by === 'you') return 'by you';
  if (by === 'server') return 'by the server';
  if (by === 'taskdesk') return 'by Taskdesk';
  return undefined;
}
