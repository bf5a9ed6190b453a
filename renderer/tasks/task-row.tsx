import { memo, type Ref } from 'react';
import type { InboundTask } from '../../app/contract/host-api.js';
import { DateTime } from '../components/date-time.js';
import { shortId } from '../components/format.js';
import { ShortId } from '../components/short-id.js';
import { StatusBadge } from '../components/status-badge.js';
import type { LiveStream } from '../store/desk-state.js';
import { isTerminal } from '../store/task-status.js';
import { outcomeSummary } from './outcome-summary.js';

/** One inbound task as a table row, with the text its model writes while it streams. */
export const TaskRow = memo(function TaskRow({
  inbound,
  live,
  index,
  rowRef,
  onCancel
}: {
  inbound: InboundTask;
  live: LiveStream | undefined;
  index: number;
  rowRef: Ref<HTMLTableRowElement>;
  onCancel: (taskId: string) => void;
}) {
  const { task } = inbound;
  const running = !isTerminal(task.status);
  return (
    <tr data-task-id={task.taskId} data-index={index} ref={rowRef}>
      <td>
        <ShortId id={task.taskId} />
      </td>
      <td>{inbound.kind === 'sampling' ? 'Sampling' : 'Elicitation'}</td>
      <td>{inbound.serverName}</td>
      <td>
        <StatusBadge status={task.status} />
        {task.statusMessage ? <div className="muted small-text">{task.statusMessage}</div> : null}
        {running && live ? (
          <div className="live">
            <div className="muted small-text">{`Written by ${live.model} so far:`}</div>
            <p className="live-text">{live.text}</p>
          </div>
        ) : null}
      </td>
      <td>
        <DateTime iso={task.createdAt} />
      </td>
      <td>
        <DateTime iso={task.lastUpdatedAt} />
      </td>
      <td className="outcome">{outcomeSummary(inbound)}</td>
      <td>
        {running ? (
          <button
            type="button"
            className="small"
            aria-label={`Cancel task ${shortId(task.taskId)}`}
            onClick={() => onCancel(task.taskId)}
          >
            Cancel
          </button>
        ) : null}
      </td>
    </tr>
  );
});
