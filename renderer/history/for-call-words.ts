import type { HistorySummary } from '../../app/contract/host-api.js';

/**
 * A row's mark of a question or model request asked for a tool call of Taskdesk's (its task) or
 * while one ran (nothing more ties them).
 */
export function forCallWords(forCall: NonNullable<HistorySummary['forCall']>): string {
  return forCall.how === 'for' ? `for the call of ${forCall.tool}` : `while the call of ${forCall.tool} ran`;
}
