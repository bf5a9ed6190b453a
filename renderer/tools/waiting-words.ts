import type { InboxItem, PlainCallView } from '../../app/contract/host-api.js';
import { KIND_WORDS } from '../components/kind-words.js';

/** What of a running plain call the words about its server's Inbox items go by. */
type RunningCallOf = Pick<PlainCallView, 'serverId' | 'serverName' | 'startedAt'> & { callId?: string };

/** An Inbox item's kind as the Tasks and History screens name it: a question, or a model request. */
function kindOf(item: Pick<InboxItem, 'kind'>): 'elicitation' | 'sampling' {
  return item.kind === 'elicitation' ? 'elicitation' : 'sampling';
}

/**
 * The Inbox items a running call's server asked at or after the call started and before another
 * call of that server (among `calls`, the plain calls the Desk knows) started: those the call may
 * have asked. One asked earlier was not asked by it (the call still does not time out while it
 * waits, in the core), and naming it beside the call reads as if the call asked it. One asked
 * after a later call of the server started is counted with that later call: a request over stdio
 * does not say which call it belongs to, and the newest call is the likelier asker (it is wrong
 * only when an earlier call asks once a later one has started). One asked for a tool-call task
 * (its `relatedTaskId`, not a request of Taskdesk's) is that task's, no plain call's.
 */
export function askedDuring(
  call: RunningCallOf,
  inbox: readonly InboxItem[],
  calls: readonly RunningCallOf[] = []
): InboxItem[] {
  const started = Date.parse(call.startedAt);
  const laterStarts = calls
    .filter((other) => other !== call && other.serverId === call.serverId)
    .filter((other) => call.callId === undefined || other.callId !== call.callId)
    .map((other) => Date.parse(other.startedAt))
    .filter((at) => at > started);
  const next = laterStarts.length === 0 ? Infinity : Math.min(...laterStarts);
  return inbox.filter((item) => {
    if (item.serverId !== call.serverId) return false;
    if (item.relatedTaskId !== undefined && item.relatedCall !== true) return false;
    const asked = Date.parse(item.createdAt);
    return asked >= started && asked < next;
  });
}

/**
 * What a server asked in the Inbox while a plain call of it runs, in the words of {@link KIND_WORDS}:
 * "Everything has a model request for you in the Inbox", "… a question and 2 model requests …".
 *
 * Of the server since the call started and before its next call did (see {@link askedDuring}),
 * not surely of the call (a question over stdio does not say which call it belongs to). When the
 * Desk knows no Inbox item of the server at all, only that the server waits for the person.
 * Undefined when none of the server's items there is the call's (all asked before it started, or
 * after a later call started): nothing of them is said beside the call (the Inbox's own count
 * shows them, and the later call's line what it asked).
 */
export function waitingWords(
  call: RunningCallOf,
  inbox: readonly InboxItem[],
  calls: readonly RunningCallOf[] = []
): string | undefined {
  const lead = waitingLead(call, inbox, calls);
  return lead === undefined ? undefined : `${lead} in the Inbox`;
}

/** {@link waitingWords} without "in the Inbox", which a running call's card makes a link. */
export function waitingLead(
  call: RunningCallOf,
  inbox: readonly InboxItem[],
  calls: readonly RunningCallOf[] = []
): string | undefined {
  const asked = askedDuring(call, inbox, calls);
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

/** Where "in the Inbox" leads: the first item of the call's (see {@link askedDuring}), else the Inbox. */
export function waitingHref(
  call: RunningCallOf,
  inbox: readonly InboxItem[],
  calls: readonly RunningCallOf[] = []
): string {
  const first = askedDuring(call, inbox, calls)[0];
  return first ? `#inbox/${encodeURIComponent(first.id)}` : '#inbox';
}
