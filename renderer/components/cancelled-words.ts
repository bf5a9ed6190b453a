/** What a cancelled task says, from who the core recorded cancelled it. */
export function cancelledWords(by: 'you' | 'server' | 'taskdesk' | undefined): string {
  if (by === 'you') return 'Cancelled by you';
  if (by === 'server') return 'Cancelled by the server';
  // A plain call or request still open when Taskdesk closed.
  if (by === 'taskdesk') return 'Cancelled by Taskdesk';
  // A task cancelled before Taskdesk kept who did it.
  return 'Cancelled';
}
