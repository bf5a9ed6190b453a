/** What a cancelled task says, from who the core recorded cancelled it. */
export function cancelledWords(by: 'you' | 'server' | undefined): string {
  if (by === 'you') return 'Cancelled by you';
  if (by === 'server') return 'Cancelled by the server';
  // A task cancelled before Taskdesk kept who did it.
  return 'Cancelled';
}
