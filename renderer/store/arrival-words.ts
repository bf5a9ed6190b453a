import type { InboxItem } from '../../app/contract/host-api.js';
import type { Gathering } from '../shell/announcer.js';
import { sentence, truncate } from '../components/format.js';

/** One item new in the Inbox, as its announcement counts it. */
export type Arrival = Pick<InboxItem, 'kind' | 'serverId' | 'serverName'>;

/** Past this many servers, arrivals heard together are counted per kind, not told per server. */
const SERVERS_NAMED = 2;

/**
 * What a screen reader hears of items new in the Inbox, heard together: "New in the inbox: a
 * question from Echo.", "New in the inbox: 2 questions from Echo.", "New in the inbox: a question
 * from Echo and a model request from Files.", and from more servers "New in the inbox: 5
 * questions from 3 servers.".
 */
export function arrivalWords(arrivals: readonly Arrival[]): string {
  const byServer = new Map<string, { name: string; arrivals: Arrival[] }>();
  for (const arrival of arrivals) {
    const server = byServer.get(arrival.serverId);
    if (server) server.arrivals.push(arrival);
    else byServer.set(arrival.serverId, { name: arrival.serverName, arrivals: [arrival] });
  }
  const servers = [...byServer.values()];
  const said =
    servers.length > SERVERS_NAMED
      ? `${counted(arrivals)} from ${servers.length} servers`
      : servers.map((server) => `${counted(server.arrivals)} from ${server.name}`).join(' and ');
  return `New in the inbox: ${said}.`;
}

/** The gathering of an arrival's announcement: arrivals said together are said as one, by {@link arrivalWords}. */
export function arrivalGathering(arrival: Arrival): Gathering<Arrival> {
  return { key: 'inbox-arrival', part: arrival, together: arrivalWords };
}

/**
 * What a screen reader hears of model requests that waited for the person to write their replies
 * and, a provider that lists a model saved, now wait for their approval instead (the host handed
 * them over: `inbox.removed`'s `handedOver`): no news of the servers', only of the cards, heard
 * together: "The waiting model request from Echo now needs your approval.", "6 waiting model
 * requests now need your approval.". Said as new ("New in the inbox: 5 model requests…"), they
 * were taken for more requests.
 */
export function handedOverWords(arrivals: readonly Arrival[]): string {
  const [only] = arrivals;
  return arrivals.length === 1 && only
    ? `The waiting model request from ${only.serverName} now needs your approval.`
    : `${arrivals.length} waiting model requests now need your approval.`;
}

/** The gathering of a handed-over request's announcement (see {@link handedOverWords}). */
export function handedOverGathering(arrival: Arrival): Gathering<Arrival> {
  return { key: 'inbox-handed-over', part: arrival, together: handedOverWords };
}

/** How much of a failed run's reason its announcement quotes, as the card's box does. */
const FAILURE_SAID = 300;

/**
 * What a screen reader hears when a model run the person approved failed and its request is back
 * in the Inbox: the failure, with why. Said as an arrival ("New in the inbox: a model request
 * from Echo."), the failure itself was never heard.
 */
export function runFailedWords(item: Pick<InboxItem, 'serverName'>, message: string): string {
  return `The model run for ${item.serverName} failed: ${sentence(truncate(message, FAILURE_SAID))}`;
}

/**
 * "a question", "2 questions and a model request", "a model answer to review": a model's answer
 * waiting for the person's review is no request of the server's, though its card is a model's.
 */
function counted(arrivals: readonly Arrival[]): string {
  const count = (kinds: readonly Arrival['kind'][]) =>
    arrivals.filter((arrival) => kinds.includes(arrival.kind)).length;
  const said = (n: number, one: string, many: string) => (n === 0 ? '' : n === 1 ? one : `${n} ${many}`);
  const answers = count(['sampling-review']);
  return [
    said(count(['elicitation']), 'a question', 'questions'),
    said(count(['sampling', 'sampling-approval']), 'a model request', 'model requests'),
    answers === 0 ? '' : `${answers === 1 ? 'a model answer' : `${answers} model answers`} to review`
  ]
    .filter(Boolean)
    .join(' and ');
}
