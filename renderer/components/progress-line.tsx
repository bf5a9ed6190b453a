import { isTerminal } from '../store/task-status.js';
import { endedProgressWords, progressText, progressTotal, type ProgressValue } from './progress-words.js';

export type { ProgressValue } from './progress-words.js';

/**
 * Progress of a call or a task: a `<progress>` bar when the server gave a total, and its
 * message with the figures in words (the bar alone says nothing to a screen reader's user).
 */
export function ProgressLine({ progress, label }: { progress: ProgressValue; label: string }) {
  const total = progressTotal(progress);
  return (
    <div className="progress-line">
      {total !== undefined ? (
        <progress value={Math.min(progress.progress, total)} max={total} aria-label={label} />
      ) : null}
      <span className="progress-text">{progressText(progress)}</span>
    </div>
  );
}

/**
 * A task's latest progress: its live {@link ProgressLine} while it runs; once it has ended, only
 * where it got to, in words (see {@link endedProgressWords}). Its card on Tools and its detail on
 * Tasks say it alike.
 */
export function TaskProgress({ state, progress, label }: { state: string; progress: ProgressValue; label: string }) {
  return isTerminal(state) ? (
    <p className="progress-ended muted small-text">{endedProgressWords(state, progress)}</p>
  ) : (
    <ProgressLine progress={progress} label={label} />
  );
}
