import { statusLabel } from '../components/status-words.js';
import { isTerminal } from '../store/task-status.js';
import { lowerFirst } from '../tools/last-call-status.js';

/**
 * Where a tool call's task stands, as a phrase after "still" or "now": "working", "waiting for
 * you" while its server's question waits on the person (its badge's "Waiting for you"), "waiting
 * for Taskdesk" while it waits on input that is not the person's to give here (its badge's), and
 * for a task that ended, "ended: completed".
 */
export function standingWords(state: string, waitsOnYou: boolean): string {
  if (isTerminal(state)) return `ended: ${statusLabel(state).toLowerCase()}`;
  // As its badge says it: a question in the Inbox may come while the server still says working.
  if (waitsOnYou) return 'waiting for you';
  // As its badge says it otherwise too: "waiting for Taskdesk" for input that is not the person's to
  // give here (its first letter alone lowered: Taskdesk is a name).
  return lowerFirst(statusLabel(state));
}

/** How long ago a check was, in words: "just now" within the first minute, then "5 min ago", "2 h ago". */
export function checkedAgo(checkedAtMs: number, nowMs: number): string {
  const minutes = Math.floor(Math.max(0, nowMs - checkedAtMs) / 60_000);
  if (minutes < 1) return 'just now';
  return minutes < 60 ? `${minutes} min ago` : `${Math.floor(minutes / 60)} h ago`;
}

/**
 * What a Check now of a running tool task found, in a sentence: when it was checked and where the
 * task stands (see {@link standingWords}), "still" when that is what it was before the check,
 * "now" when the check found it changed: "Checked just now; still working.", "Checked just now;
 * now waiting for you.", "Checked just now; it ended: completed." (`what` names the task, for the
 * screen reader's announcement: "Checked the wait task just now; still working.").
 */
export function checkedWords(found: { before: string; after: string; ago: string; what?: string }): string {
  const { before, after, ago, what } = found;
  return `Checked ${what === undefined ? '' : `${what} `}${ago}${foundWords(before, after)}`;
}

/** What follows when it was checked, in {@link checkedWords}: "; still working.", "; now waiting for you.". */
export function foundWords(before: string, after: string): string {
  if (after.startsWith('ended:')) return `; it ${after}.`;
  return `; ${before === after ? 'still' : 'now'} ${after}.`;
}
