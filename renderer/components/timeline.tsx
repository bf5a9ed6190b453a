import type { HistoryEntry } from '../../app/contract/host-api.js';
import { isTerminal } from '../store/task-status.js';
import { DateTime } from './date-time.js';
import { StatusBadge } from './status-badge.js';

/**
 * A task's timeline from History: each change of status or status message, with its time. A step
 * with a label says that in place of its status: its end in a badge as the entry's badge says it
 * ("Answered", "Rejected": see `answeredSteps`), as the steps before it show theirs; a request's
 * arrival ("Asked", when nothing was working yet) in words.
 *
 * `rejected`: a model request turned down, whose `failed` end reads "Rejected" in the badge the
 * entry's own is (see `StatusBadge`).
 */
export function Timeline({ steps, rejected = false }: { steps: HistoryEntry['timeline']; rejected?: boolean }) {
  return (
    <ol className="timeline">
      {steps.map((step, index) => (
        <li key={index}>
          <DateTime iso={step.at} />{' '}
          {step.label !== undefined && !isTerminal(step.status) ? (
            <span className="timeline-label">{step.label}</span>
          ) : (
            <StatusBadge status={step.status} rejected={rejected} label={step.label} />
          )}
          {step.message ? ` ${step.message}` : null}
        </li>
      ))}
    </ol>
  );
}
