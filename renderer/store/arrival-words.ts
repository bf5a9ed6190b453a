import type { InboxItem } from '../../app/contract/host-api.js';
import type { Gathering } from '../shell/announcer.js';

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
