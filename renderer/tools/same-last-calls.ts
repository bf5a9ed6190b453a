import type { HistorySummary } from '../../app/contract/host-api.js';

/**
 * `next`, with each entry that says what it said in `before` kept as `before`'s object; `before`
 * itself when no entry changed, came or went.
 */
export function sameLastCalls(
  before: ReadonlyMap<string, HistorySummary>,
  next: ReadonlyMap<string, HistorySummary>
): ReadonlyMap<string, HistorySummary> {
  const kept = new Map<string, HistorySummary>();
  let changed = before.size !== next.size;
  for (const [title, entry] of next) {
    const known = before.get(title);
    const same = known !== undefined && JSON.stringify(known) === JSON.stringify(entry);
    kept.set(title, same ? known : entry);
    if (!same) changed = true;
  }
  return changed ? kept : before;
}
