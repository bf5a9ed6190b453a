import type { InboxItem, PlainCallView } from '../../app/contract/host-api.js';
import { KIND_WORDS } from '../components/kind-words.js';

/** What of a running plain call the words about its server's Inbox items go by. */
type RunningCallOf = Pick<PlainCallView, 'serverId' | 'serverName' | 'startedAt'>;

/** An Inbox item's kind as the Tasks and History screens name it: a question, or a model request. */
function kindOf(item: Pick<InboxItem, 'kind'>): 'elicitation' | 'sampling' {
  return item.kind === 'elicitation' ? 'elicitation' : 'sampling';
}

/**
 * The Inbox items a running call's server asked at or after the call started: those the call may
 * have asked. One asked earlier was not asked by it (the call still does not time out while it
 * waits, in the core), and naming it beside the call reads as if the call asked it.
 */
export function askedDuring(call: RunningCallOf, inbox: readonly InboxItem[]): InboxItem[] {
  const started = Date.parse(call.startedAt);
  return inbox.filter((item) => item.serverId === call.serverId && Date.parse(item.createdAt) >= started);
}

/**
 * What a server asked in the Inbox while a plain call of it runs, in the words of {@link KIND_WORDS}:
 * "Everything has a model request for you in the Inbox", "… a question and 2 model requests …".
 *
 * Of the server since the call started, not surely of the call (a question over stdio does not
 * say which call it belongs to). When the Desk knows no Inbox item of the server at all, only that
 * the server waits for the person. Undefined when the server's items there were all asked before
 * the call started: nothing of them is said beside the call (the Inbox's own count shows them).
 */
export function waitingWords(call: RunningCallOf, inbox: readonly InboxItem[]): string | undefined {
  const lead = waitingLead(call, inbox);
  return lead === undefined ? undefined : `${lead} in the Inbox`;
}

/** {@link waitingWords} without "in the Inbox", which a running call's card makes a link. */
export function waitingLead(call: RunningCallOf, inbox: readonly InboxItem[]): string | undefined {
  const asked = askedDuring(call, inbox);
  if (asked.length === 0)
    return inbox.some((item) => item.serverId === call.serverId) ? undefined : `${call.serverName} is waiting for you`;
  const counts = { elicitation: 0, sampling: 0 };
  for (const item of asked) counts[kindOf(item)] += 1;
  const parts = (['elicitation', 'sampling'] as const)
    .filter((kind) => counts[kind] > 0)
    .map((kind) => {
      const words = KIND_WORDS[kind].toLowerCase();
      return counts[kind] === 1 ? `a ${words}` : `${counts[kind]} ${words}s`;
    });
  return `${call.serverName} has ${parts.join(' and ')} for you`;
}

/** Where "in the Inbox" leads: the first item the server asked since the call started, else the Inbox. */
export function waitingHref(call: RunningCallOf, inbox: readonly InboxItem[]): string {
  const first = askedDuring(call, inbox)[0];
  return first ? `#inbox/${encodeURIComponent(first.id)}` : '#inbox';
}
