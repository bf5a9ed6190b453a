/* A module of its own (no JSX), so that the words' tests need no React. */
import type { ServerWaits } from '../../app/contract/host-api.js';
import { formatDuration } from './format.js';

/** How long an SDK server waits for the answer to a request by default: its request timeout. */
const SDK_TIMEOUT_MS = 60_000;

/** How long before a server's known timeout its card warns that it may give up soon. */
const WARN_BEFORE_MS = 20_000;

/**
 * How long past a server's known timeout its card stops warning: a server still waiting half a
 * minute past it set a longer timeout for this request (or none), and "may give up soon" would no
 * longer be true.
 */
const PAST_TIMEOUT_MS = 30_000;

/**
 * From how long a wait the note of an ordinary request turns to a warning when nothing is known of
 * its server: an SDK server's default request timeout is a minute, so by then it may give up at any moment.
 */
export const WAIT_WARN_MS = SDK_TIMEOUT_MS - WARN_BEFORE_MS;

/**
 * From how long a wait the warning is over when nothing is known of its server (see
 * {@link PAST_TIMEOUT_MS}); and how long a wait a server must have sat through before for its
 * cards to say so in place of any warning.
 */
export const WAIT_PATIENT_MS = SDK_TIMEOUT_MS + PAST_TIMEOUT_MS;

/** What an ordinary request's card says of its server's wait: its words, and whether they are a warning. */
export interface WaitNoteWords {
  words: string;
  warning: boolean;
}

/**
 * What the card of an ordinary request says of how long its server may wait, once it has waited
 * `waitedMs`, from what Taskdesk has seen of that server (`waits`, see `ServerView.waits`).
 *
 * A server that gave up on a request before (it said it timed out) is warned of from a little
 * before that wait ({@link WARN_BEFORE_MS}, or half of it when it is short). One that has sat
 * through waits of {@link WAIT_PATIENT_MS} or more, and never gave up, is said to have waited that
 * long, quietly, without a warning. Of any other, what servers often do (the SDK's default timeout
 * of a minute), a warning from {@link WAIT_WARN_MS}. Past the wait it gave up after by half a
 * minute, this request's timeout is longer, and the note is quiet again. An observation, not a
 * promise: a server may wait longer, or less, on any one request.
 */
export function waitNoteWords(waitedMs: number, serverName: string, waits: ServerWaits | undefined): WaitNoteWords {
  const gaveUpAfter = waits?.gaveUpAfterMs;
  const longest = waits?.longestMs ?? 0;
  if (gaveUpAfter === undefined && longest >= WAIT_PATIENT_MS)
    return { words: `${serverName} has waited up to ${formatDuration(longest)} for an answer before.`, warning: false };
  const timeout = gaveUpAfter ?? SDK_TIMEOUT_MS;
  const said =
    gaveUpAfter === undefined
      ? 'Servers often stop waiting after about a minute (the MCP SDK’s default timeout)'
      : `${serverName} stopped waiting ${gaveUpAfter < 1000 ? 'within a second' : `after ${formatDuration(gaveUpAfter)}`} on an earlier request`;
  if (waitedMs >= timeout + PAST_TIMEOUT_MS)
    return {
      words: `${said}; this one has waited longer, so it likely waits on, though it may still give up.`,
      warning: false
    };
  if (waitedMs >= Math.max(timeout - WARN_BEFORE_MS, timeout / 2))
    return { words: `${said}: this one may give up soon.`, warning: true };
  return { words: `${said}.`, warning: false };
}
