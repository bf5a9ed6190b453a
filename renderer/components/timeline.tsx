import type { HistoryEntry } from '../../app/contract/host-api.js';
import { DateTime } from './date-time.js';
import { StatusBadge } from './status-badge.js';

/**
 * A task's timeline from History: each change of status or status message, with its time. A step
 * with a label (a request's arrival: "Asked") says that in place of its status.
 */
export function Timeline({ steps }: { steps: HistoryEntry['timeline'] }) {
  return (
    <ol className="timeline">
      {steps.map((step, index) => (
        <li key={index}>
          <DateTime iso={step.at} />{' '}
          {step.label !== undefined ? (
            <span className="timeline-label">{step.label}</span>
          ) : (
            <StatusBadge status={step.status} />
          )}
          {step.message ? ` ${step.message}` : null}
        </li>
      ))}
    </ol>
  );
}
