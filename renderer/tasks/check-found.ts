/** What the last Check now of a running tool task found: when, where the task stood before, and the state it found. */
export interface CheckFound {
  at: string;
  /** Where the task stood as Check now was pressed (see `standingWords`). */
  before: string;
  /** The state the check found: the line shows while the task stays in it (see {@link foundStill}). */
  state: string;
}

/**
 * What is left of a check's finding once the task stands in `state` (none for a task no longer
 * followed): the finding while the task is still in the state the check found; none once it has
 * moved on. Kept as what is left, the finding is gone for good: a task that comes back to that
 * state later (working, waiting for input, working again) does not bring back a line about a check
 * made before the change ("Checked 12 min ago; still working."). The next Check now says anew.
 */
export function foundStill<T extends CheckFound>(found: T | undefined, state: string | undefined): T | undefined {
  return found !== undefined && found.state === state ? found : undefined;
}
