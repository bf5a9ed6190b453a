/** One `notifications/progress` as the UI shows it. */
export interface ProgressValue {
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
}

/**
 * Progress of a call or a task: a `<progress>` bar when the server gave a total, and its
 * message with the figures in words (the bar alone says nothing to a screen reader's user).
 */
export function ProgressLine({ progress, label }: { progress: ProgressValue; label: string }) {
  const total = progress.total !== undefined && progress.total > 0 ? progress.total : undefined;
  return (
    <div className="progress-line">
      {total !== undefined ? (
        <progress value={Math.min(progress.progress, total)} max={total} aria-label={label} />
      ) : null}
      <span className="progress-text">
        {progress.message ? `${progress.message} · ` : ''}
        {total !== undefined ? `${progress.progress}/${total}` : `${progress.progress}`}
      </span>
    </div>
  );
}
