/** How many entries the Audit log reads at first, and how many more each "Show more" adds. */
export const AUDIT_PAGE = 200;
/**
 * The most entries the screen shows: one more is read to know whether older ones are kept, and
 * `audit.read` gives 5,000 at most.
 */
export const AUDIT_MOST_SHOWN = 4800;

/**
 * What the Audit log says of how much of the log it shows, in its count line above the table
 * (and under it while it pages): all of it ("Showing all 37 entries."), or the newest part while
 * older entries are kept ("Showing the newest 200 entries; older ones are kept too."), and at the
 * most it shows, how to reach the rest. `filtered`: the search or a filter narrows the list, and
 * the line counts what matches ("3 entries match.", "No entry matches.").
 */
export function shownWords(shown: number, more: boolean, filtered: boolean): string {
  const what = (n: number) => `${filtered ? 'matching ' : ''}${n === 1 ? 'entry' : 'entries'}`;
  const count = shown.toLocaleString('en');
  if (shown === 0 && !more) return filtered ? 'No entry matches.' : 'Nothing recorded yet.';
  if (!more) {
    if (filtered) return shown === 1 ? '1 entry matches.' : `${count} entries match.`;
    return shown === 1 ? 'Showing the only entry.' : `Showing all ${count} entries.`;
  }
  if (shown >= AUDIT_MOST_SHOWN)
    return `Showing the newest ${count} ${what(shown)}, the most this screen shows: narrow the search or the filters to find older ones.`;
  return `Showing the newest ${count} ${what(shown)}; older ones are kept too.`;
}
