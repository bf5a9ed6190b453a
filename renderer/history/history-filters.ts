import type { HistoryFilter } from '../../app/contract/host-api.js';

type HistoryStatus = NonNullable<HistoryFilter['status']>;

/**
 * The statuses a history entry can have, as the filter offers them: `rejected` too, as the rows'
 * badges say it (a model request turned down; `failed` then finds only real failures).
 */
export const HISTORY_STATUSES: readonly HistoryStatus[] = [
  'working',
  'input_required',
  'completed',
  'failed',
  'rejected',
  'cancelled',
  'expired',
  'lost'
];

/** What the filter controls hold; empty strings mean "any". */
export interface FilterInputs {
  text: string;
  direction: string;
  serverId: string;
  status: string;
  kind: string;
}

export const NO_FILTER: FilterInputs = { text: '', direction: '', serverId: '', status: '', kind: '' };

/** The controls' values as the host API's filter (only what is set). */
export function toHistoryFilter(inputs: FilterInputs): HistoryFilter {
  const filter: HistoryFilter = {};
  if (inputs.text.trim()) filter.text = inputs.text.trim();
  if (inputs.direction) filter.direction = inputs.direction as HistoryFilter['direction'];
  if (inputs.serverId) filter.serverId = inputs.serverId;
  if (inputs.status) filter.status = inputs.status as HistoryStatus;
  if (inputs.kind) filter.kind = inputs.kind as HistoryFilter['kind'];
  return filter;
}
