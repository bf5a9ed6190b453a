import type { InboundTask, ServerView } from '../../app/contract/host-api.js';
import { newProcessSince } from '../inbox/answer-delivery.js';
import { isTerminal } from '../store/task-status.js';

/**
 * Whether the server of a received task that ended has fetched its result (`tasks/result`): a
 * kept answer its server never collects (a stdio server started again has lost its tasks) reads
 * otherwise just as one it did. Undefined when there is nothing for it to fetch: the task runs,
 * keeps no result, or the server itself cancelled it, or it ended before Taskdesk noted fetches.
 */
export function fetchState(inbound: InboundTask | undefined): 'fetched' | 'waiting' | undefined {
  if (!inbound || !isTerminal(inbound.task.status) || inbound.outcome === undefined) return undefined;
  if (inbound.cancelledBy === 'server') return undefined;
  // Neither: it ended before Taskdesk noted fetches, and nothing is known.
  return inbound.resultFetchedAt !== undefined ? 'fetched' : inbound.awaitingFetch ? 'waiting' : undefined;
}

/**
 * The Tasks row's line for {@link fetchState}: "Fetched by Everything", "Not fetched by Everything
 * yet", or, when it never will be (see {@link willNotFetch}), "Not fetched by Everything, and it
 * will not be", as its detail and the Inbox say.
 */
export function fetchedRowWords(inbound: InboundTask, server: ServerView | undefined): string | undefined {
  const state = fetchState(inbound);
  if (state === undefined) return undefined;
  if (state === 'fetched') return `Fetched by ${inbound.serverName}`;
  return willNotFetch(inbound, server)
    ? `Not fetched by ${inbound.serverName}, and it will not be`
    : `Not fetched by ${inbound.serverName} yet`;
}

/**
 * Whether the server of a received task will never fetch its result: a stdio server started again
 * since it asked (a new process, which has none of the old one's tasks), or one not connected (the
 * process that asked has stopped). An HTTP server may come back to its session, and its tasks.
 */
export function willNotFetch(inbound: InboundTask, server: ServerView | undefined): boolean {
  return (
    newProcessSince(server, inbound.task.createdAt) ||
    (server?.transport.type === 'stdio' && server.state.status !== 'ready')
  );
}

/**
 * The Tasks detail's words for a result its server has not fetched yet. A stdio server connected
 * since the task was asked is a new process Taskdesk started, which has none of the old one's
 * tasks: it will not fetch it, said plainly; nor will a stdio server not connected (the process
 * that asked has stopped). Any other may ask for it (an HTTP server may come back to its session,
 * and its tasks).
 */
export function notFetchedWords(inbound: InboundTask, server: ServerView | undefined): string {
  if (newProcessSince(server, inbound.task.createdAt))
    return `Not yet, and it will not be: ${inbound.serverName} was started again since it asked, as a new process, and this task was the old one’s`;
  // A stdio server not connected runs no process that asked: the one Taskdesk starts next is new.
  if (willNotFetch(inbound, server))
    return `Not yet, and it will not be: ${inbound.serverName} is not connected, and the process that asked has stopped`;
  return `Not yet: ${inbound.serverName} gets it when it asks for this task`;
}
