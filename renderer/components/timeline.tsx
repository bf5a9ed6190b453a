import type { HistoryEntry } from '../../app/contract/host-api.js';
import { DateTime } from './date-time.js';
import { StatusBadge } from './status-badge.js';

/** A task's timeline from History: each change of status or status message, with its time. */
export function Timeline({ steps }: { steps: HistoryEntry['timeline'] }) {
  return (
    <ol className="timeline">
      {steps.map((step, index) => (
        <li key={index}>
          <DateTime iso={step.at} /> <StatusBadge status={step.status} />
          {step.message ? ` ${step.message}` : null}
        </li>
      ))}
    </ol>
  );
}
