import { formatDuration } from './format.js';
import { useNow } from './use-now.js';

/**
 * Time left until an inbox item expires, counting down. From `warnAt` (or once the host said
 * the item is expiring) it says so in words ("Expires soon"), not by colour alone.
 */
export function Countdown({
  expiresAt,
  warnAt,
  warned
}: {
  expiresAt: string;
  warnAt: string | undefined;
  warned: boolean;
}) {
  const now = useNow();
  const end = Date.parse(expiresAt);
  if (Number.isNaN(end)) return null;
  const left = end - now;
  const warning = warned || (warnAt !== undefined && now >= Date.parse(warnAt)) || left <= 0;
  // Whole seconds: a countdown that shows "999 ms" reads as noise.
  const text =
    left <= 0
      ? 'Expiring now'
      : `${warning ? 'Expires soon: ' : 'Expires in '}${formatDuration(Math.ceil(left / 1000) * 1000)}`;
  return (
    <span className={`countdown${warning ? ' countdown-warning' : ''}`} data-warning={warning ? 'true' : undefined}>
      <time dateTime={expiresAt}>{warning ? `⚠ ${text}` : text}</time>
    </span>
  );
}
