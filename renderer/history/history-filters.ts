import type { HistoryFilter } from '../../app/contract/host-api.js';
import { WAITING_FOR_YOU, WAITING_FOR_YOU_LABEL } from '../../app/contract/task-row-words.js';
import { statusLabel } from '../components/status-words.js';

type HistoryStatus = NonNullable<HistoryFilter['status']>;

/**
 * The Status filter's choices, in groups, as the rows' badges say them and in the Tasks screen's
 * words and order: first "Waiting for you", a task whose question or model request waits in the
 * Inbox (its status is Working); a question that ended is Answered, Declined or Dismissed (not
 * Completed), a model request the person answered is Answered too (not Completed), one turned
 * down is Rejected (not Failed). The host filters by them (see
 * `HistoryFilter.status`), so that a page holds what the filter names.
 */
export const HISTORY_STATUS_GROUPS: ReadonlyArray<readonly [string, ReadonlyArray<readonly [HistoryStatus, string]>]> =
  [
    ['Where it stands', [[WAITING_FOR_YOU, WAITING_FOR_YOU_LABEL]]],
    [
      'Status',
      (['working', 'input_required', 'completed', 'failed', 'cancelled', 'expired', 'lost'] as const).map(words)
    ],
    // "Answered" is the person's answer to either: a question's, a model request's reply they
    // wrote or approved (each row says "Answered" alike); Declined and Dismissed end questions,
    // Rejected model requests.
    ['How a question or model request ended', (['answered', 'declined', 'dismissed', 'rejected'] as const).map(words)]
  ];

function words(status: HistoryStatus): readonly [HistoryStatus, string] {
  return [status, statusLabel(status)];
}

/** What the filter controls hold; empty strings mean "any". */
export interface FilterInputs {
  text: string;
  direction: string;
  serverId: string;
  status: string;
  kind: string;
}

export const NO_FILTER: FilterInputs = { text: '', direction: '', serverId: '', status: '', kind: '' };

/**
 * The controls' values as the host API's filter (only what is set). `heldTaskIds`: the received
 * tasks whose answer waits out its undo window in the Inbox (see `heldTaskIds`), which "Waiting
 * for you" leaves out, as their rows say "Declining" and the Tasks screen's filter leaves them out.
 */
export function toHistoryFilter(inputs: FilterInputs, heldTaskIds: readonly string[] = []): HistoryFilter {
  const filter: HistoryFilter = {};
  if (inputs.text.trim()) filter.text = inputs.text.trim();
  if (inputs.direction) filter.direction = inputs.direction as HistoryFilter['direction'];
  if (inputs.serverId) filter.serverId = inputs.serverId;
  if (inputs.status) filter.status = inputs.status as HistoryStatus;
  if (inputs.status === WAITING_FOR_YOU && heldTaskIds.length > 0) filter.heldTaskIds = [...heldTaskIds];
  if (inputs.kind) filter.kind = inputs.kind as HistoryFilter['kind'];
  return filter;
}
