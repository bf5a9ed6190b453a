import type { HistorySummary } from '../../app/contract/host-api.js';
import { cancelledWords } from '../components/cancelled-words.js';

/**
 * What a cancelled History entry's badge says: who cancelled it ("Cancelled by Taskdesk"), in
 * place of the bare "Cancelled", so that the row and the detail say it once. Undefined for an
 * entry that was not cancelled (its badge says its status).
 */
export function cancelledLabel(entry: Pick<HistorySummary, 'status' | 'cancelledBy'>): string | undefined {
  return entry.status === 'cancelled' ? cancelledWords(entry.cancelledBy) : undefined;
}
