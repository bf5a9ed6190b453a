/** One `notifications/progress` as the UI shows it. */
export interface ProgressValue {
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
}

/** The total of `progress` when the server gave one worth a bar (more than 0). */
export function progressTotal(progress: ProgressValue): number | undefined {
  return progress.total !== undefined && progress.total > 0 ? progress.total : undefined;
}

/** A progress in words, its message first: "step 1 · 1/6", "Crunching row 3 of 10 · 3/10", or "42". */
export function progressText(progress: ProgressValue): string {
  const total = progressTotal(progress);
  return `${progress.message ? `${progress.message} · ` : ''}${total !== undefined ? `${progress.progress}/${total}` : `${progress.progress}`}`;
}

/**
 * What a task that has ended says of its last progress, in plain words and never as a bar, which
 * read as if it were still going: "Last progress: step 6 · 6/6" once it completed, "Progress when
 * it stopped: step 1 · 1/6" once it was cancelled, failed, expired or was lost.
 */
export function endedProgressWords(state: string, progress: ProgressValue): string {
  return `${state === 'completed' ? 'Last progress' : 'Progress when it stopped'}: ${progressText(progress)}`;
}
