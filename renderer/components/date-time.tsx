import { formatDateTime, formatRelative } from './format.js';

/**
 * A `<time>` with a machine-readable value, written as the user's locale writes dates, and
 * how far from now it is in its tooltip ("in 1 h 30 min", "5 min ago").
 */
export function DateTime({ iso }: { iso: string | undefined }) {
  if (!iso) return <span className="muted">—</span>;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return <span>{iso}</span>;
  return (
    <time dateTime={iso} title={formatRelative(date, Date.now())}>
      {formatDateTime(date)}
    </time>
  );
}
