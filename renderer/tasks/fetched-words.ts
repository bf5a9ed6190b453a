import type { InboundTask, ServerView } from '../../app/contract/host-api.js';
import { newProcessSince } from '../inbox/answer-delivery.js';
import { isEndedWithProcessMessage } from '../../app/contract/process-gone.js';
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
 * Whether a received task ended with the process that asked for it: cancelled by the person's act
 * that closed its connection, or failed as the process ended by itself (see `process-gone.ts`).
 */
export function endedWithProcess(inbound: InboundTask): boolean {
  const { status, statusMessage } = inbound.task;
  const ended = status === 'failed' || (status === 'cancelled' && inbound.cancelledBy === 'you');
  return ended && isEndedWithProcessMessage(statusMessage);
}

/**
 * Whether the server of a received task will never fetch its result: a stdio server started again
 * since it asked (a new process, which has none of the old one's tasks), one not connected (the
 * process that asked has stopped), one removed (no longer in the Desk's list: Taskdesk never
 * connects it again), or a task that ended with the process that asked (see {@link endedWithProcess}).
 * An HTTP server may come back to its session, and its tasks.
 */
export function willNotFetch(inbound: InboundTask, server: ServerView | undefined): boolean {
  return (
    server === undefined ||
    endedWithProcess(inbound) ||
    newProcessSince(server, inbound.task.createdAt) ||
    (server.transport.type === 'stdio' && server.state.status !== 'ready')
  );
}

/**
 * The Tasks detail's words for a result its server has not fetched. A stdio server connected
 * since the task was asked is a new process Taskdesk started, which has none of the old one's
 * tasks: it will not fetch it, said plainly; nor will a removed server, a stdio server not
 * connected (the process that asked has stopped), or any server of a task that ended with the
 * process that asked. Any other may ask for it (an HTTP server may come back to its session, and
 * its tasks).
 */
export function notFetchedWords(inbound: InboundTask, server: ServerView | undefined): string {
  const name = inbound.serverName;
  if (server === undefined) return `No, and it will not be: ${name} was removed`;
  if (newProcessSince(server, inbound.task.createdAt))
    return `No, and it will not be: ${name} was started again since it asked, as a new process, and this task was the old one’s`;
  // A stdio server not connected runs no process that asked: the one Taskdesk starts next is new.
  if (server.transport.type === 'stdio' && server.state.status !== 'ready')
    return `No, and it will not be: ${name} is not connected, and the process that asked has stopped`;
  if (endedWithProcess(inbound)) return `No, and it will not be: the process of ${name} that asked has stopped`;
  return `Not yet: ${name} gets it when it asks for this task`;
}
