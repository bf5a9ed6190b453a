import type { InboxItem } from '../../app/contract/host-api.js';
import { KIND_WORDS } from '../components/kind-words.js';

/** An Inbox item's kind as the Tasks and History screens name it: a question, or a model request. */
function kindOf(item: Pick<InboxItem, 'kind'>): 'elicitation' | 'sampling' {
  return item.kind === 'elicitation' ? 'elicitation' : 'sampling';
}

/**
 * What a server holds in the Inbox while a plain call of it runs, in the words of {@link KIND_WORDS}:
 * "Everything has a model request for you in the Inbox", "… a question and 2 model requests …".
 *
 * Of the server, not surely of the call (a question over stdio does not say which call it belongs
 * to). When the Desk knows none of its items yet, only that the server waits for the person.
 */
export function waitingWords(serverId: string, serverName: string, inbox: readonly InboxItem[]): string {
  return `${waitingLead(serverId, serverName, inbox)} in the Inbox`;
}

/** {@link waitingWords} without "in the Inbox", which a running call's card makes a link. */
export function waitingLead(serverId: string, serverName: string, inbox: readonly InboxItem[]): string {
  const counts = { elicitation: 0, sampling: 0 };
  for (const item of inbox) if (item.serverId === serverId) counts[kindOf(item)] += 1;
  const parts = (['elicitation', 'sampling'] as const)
    .filter((kind) => counts[kind] > 0)
    .map((kind) => {
      const words = KIND_WORDS[kind].toLowerCase();
      return counts[kind] === 1 ? `a ${words}` : `${counts[kind]} ${words}s`;
    });
  if (parts.length === 0) return `${serverName} is waiting for you`;
  return `${serverName} has ${parts.join(' and ')} for you`;
}

/** Where "in the Inbox" leads: the server's first item there, else the Inbox. */
export function waitingHref(serverId: string, inbox: readonly InboxItem[]): string {
  const first = inbox.find((item) => item.serverId === serverId);
  return first ? `#inbox/${encodeURIComponent(first.id)}` : '#inbox';
}
