import { formatDuration } from './format.js';
import { useNow } from './use-now.js';

/**
 * How long an ordinary request (one with no TTL to count down) has waited for its answer. Its
 * server may stop waiting at any time (an SDK server's default is a minute), so the person sees
 * how long it has been.
 */
export function WaitingSince({ since }: { since: string }) {
  const now = useNow();
  const start = Date.parse(since);
  if (Number.isNaN(start)) return null;
  const waited = Math.floor(Math.max(0, now - start) / 1000) * 1000;
  return (
    <span className="waiting-since">
      waiting for <time dateTime={since}>{formatDuration(waited || 1000)}</time>
    </span>
  );
}
