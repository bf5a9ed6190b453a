import { formatDateTime } from '../components/format.js';
import { useNow } from '../components/use-now.js';
import { checkedAgo, foundWords } from './checked-words.js';
import type { CheckFound } from './check-found.js';

/**
 * What the last Check now found, under a running tool task's actions (its card, its detail):
 * when, and where the task stands, `after`, in the words of `checkedWords` ("Checked just now;
 * still working."), its exact time in the tooltip. Counted in minutes.
 */
export function CheckedLine({ found, after }: { found: CheckFound; after: string }) {
  const now = useNow(15_000);
  // The words of `checkedWords`, when it was checked a `<time>`.
  return (
    <p className="muted small-text checked-at">
      {'Checked '}
      <time dateTime={found.at} title={formatDateTime(new Date(found.at))}>
        {checkedAgo(Date.parse(found.at), now)}
      </time>
      {foundWords(found.before, after)}
    </p>
  );
}
