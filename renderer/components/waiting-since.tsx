import type { ServerWaits } from '../../app/contract/host-api.js';
import { formatDuration } from './format.js';
import { useNow } from './use-now.js';
import { waitNoteWords } from './wait-note-words.js';

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

/**
 * Under an ordinary request's heading: how long its server may wait (see `waitNoteWords`), said
 * quietly, or as a warning once it may give up soon: what servers often do (the MCP SDK's default
 * of a minute), or what Taskdesk has seen of this one (`waits`: it waited longer before, or gave
 * up sooner). An observation, not a promise. `keepsTyped`: the card keeps what is written in it
 * for its notice (a reply, a form's fields as typed or chosen, a reviewed answer).
 */
export function WaitNote({
  since,
  serverName,
  waits,
  keepsTyped
}: {
  since: string;
  serverName: string;
  waits: ServerWaits | undefined;
  keepsTyped: boolean;
}) {
  const now = useNow();
  const start = Date.parse(since);
  const { words, warning } = waitNoteWords(Number.isNaN(start) ? 0 : now - start, serverName, waits);
  return warning ? (
    <p className="banner banner-warning wait-note">
      {/* Decoration: "may give up soon" is the warning, and a screen reader need not say "warning sign". */}
      <span aria-hidden="true">⚠ </span>
      {words}
      {/* Only where the card keeps what is typed (not an approval's edits, nor a link to open). */}
      {keepsTyped ? ' If it does, what you wrote here stays in its notice, to copy.' : null}
    </p>
  ) : (
    <p className="muted small-text wait-note">{words}</p>
  );
}
