import { formatDateTime, formatRelative, formatShortDate } from './format.js';

/**
 * A `<time>` with a machine-readable value, written as the user's locale writes dates, and
 * how far from now it is in its tooltip ("in 1 h 30 min", "5 min ago"). `short`: in few words
 * ("7:31 PM" today, "Dec 3" this year), the whole date in the tooltip.
 */
export function DateTime({ iso, short = false }: { iso: string | undefined; short?: boolean }) {
  if (!iso) return <span className="muted">—</span>;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return <span>{iso}</span>;
  const now = Date.now();
  return (
    <time
      dateTime={iso}
      title={short ? `${formatDateTime(date)} (${formatRelative(date, now)})` : formatRelative(date, now)}
    >
      {short ? formatShortDate(date, new Date(now)) : formatDateTime(date)}
    </time>
  );
}
