import type { InboundTask } from '../../app/contract/host-api.js';
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

/** The Tasks row's line for {@link fetchState}: "Fetched by Everything", "Not fetched by Everything yet". */
export function fetchedRowWords(inbound: InboundTask): string | undefined {
  const state = fetchState(inbound);
  if (state === undefined) return undefined;
  return state === 'fetched' ? `Fetched by ${inbound.serverName}` : `Not fetched by ${inbound.serverName} yet`;
}
