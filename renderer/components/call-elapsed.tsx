import { formatDuration } from './format.js';
import { useNow } from './use-now.js';

/**
 * How long a plain call has run, in whole seconds and at least "1 s", moving each second: the
 * Tools screen's running calls and the Assistant's running tool call say it alike.
 */
export function CallElapsed({ startedAt }: { startedAt: string }) {
  const now = useNow();
  const elapsed = Math.max(0, now - Date.parse(startedAt));
  return <span className="elapsed">{formatDuration(Math.floor(elapsed / 1000) * 1000 || 1000)}</span>;
}
