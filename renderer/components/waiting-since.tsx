import { formatDuration } from './format.js';
import { useNow } from './use-now.js';

/**
 * From how long a wait the note of an ordinary request turns to a warning: an SDK server's
 * default request timeout is a minute, so by then it may give up at any moment.
 */
export const WAIT_WARN_MS = 40_000;

/**
 * From how long a wait the warning is over: a server still waiting half a minute past the SDK's
 * default set a longer timeout (or none), and "may give up soon" would no longer be true.
 */
export const WAIT_PATIENT_MS = 90_000;

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
 * Under an ordinary request's heading: servers often stop waiting after about a minute (the
 * MCP SDK's default), said quietly at first and, from {@link WAIT_WARN_MS}, as a warning. An
 * observation, not a promise: a server may wait longer, or less. `keepsTyped`: the card keeps
 * what is written in it for its notice (a reply, a form's fields as typed or chosen, a reviewed answer).
 */
export function WaitNote({ since, keepsTyped }: { since: string; keepsTyped: boolean }) {
  const now = useNow();
  const start = Date.parse(since);
  const waited = Number.isNaN(start) ? 0 : now - start;
  const late = waited >= WAIT_WARN_MS;
  const said = 'Servers often stop waiting after about a minute (the MCP SDK’s default timeout)';
  if (waited >= WAIT_PATIENT_MS)
    return (
      <p className="muted small-text wait-note">
        {said}; this one has waited longer, so it likely waits on, though it may still give up.
      </p>
    );
  return late ? (
    <p className="banner banner-warning wait-note">
      {/* Decoration: "may give up soon" is the warning, and a screen reader need not say "warning sign". */}
      <span aria-hidden="true">⚠ </span>
      {said}: this one may give up soon.
      {/* Only where the card keeps what is typed (not an approval's edits, nor a link to open). */}
      {keepsTyped ? ' If it does, what you wrote here stays in its notice, to copy.' : null}
    </p>
  ) : (
    <p className="muted small-text wait-note">{said}.</p>
  );
}
