import type { HistorySummary } from '../../app/contract/host-api.js';
import { isNoResultStored } from '../components/end-message.js';

/**
 * Why a failed History entry failed, for its row: its status message, the words its detail says
 * after its badge and the Tasks row says as its outcome (`failedReason`), without "Failed:" (the
 * badge beside it says that). The core keeps only a message that came with the end, not the one
 * the task had while it ran. A tool call that ran without a task has no status message: its
 * `errorLine` says why, as its detail's error or tool error does. Undefined for an entry that did
 * not fail, one that failed without a word why, a model request turned down (its "Rejected" badge
 * says it was a decision), and the SDK's generic "has no result stored", which says no more than
 * the badge (`isNoResultStored`).
 */
export function failedEntryReason(
  entry: Pick<HistorySummary, 'status' | 'rejected' | 'statusMessage' | 'errorLine'>
): string | undefined {
  if (entry.status !== 'failed' || entry.rejected === true) return undefined;
  const message = entry.statusMessage;
  if (message === undefined || message.trim() === '' || isNoResultStored({ message })) return entry.errorLine;
  return message;
}
