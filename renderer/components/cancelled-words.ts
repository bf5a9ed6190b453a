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
