import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { InboundTask } from '../../app/contract/host-api.js';
import { toHostCallError } from '../host-client.js';
import type { LiveStream } from '../store/desk-state.js';
import { useDesk, useDeskState } from '../shell/desk-context.js';
import { TaskRow } from './task-row.js';

/** A row's height before it is measured. */
const ESTIMATED_ROW_PX = 48;

/**
 * The Tasks screen: tasks servers gave Taskdesk (task-augmented sampling and elicitation),
 * newest first. The table is virtualized against the page's own scrolling: a history of
 * 10,000 tasks renders only the rows in view.
 */
export function TasksScreen({
  active,
  headingRef
}: {
  active: boolean;
  headingRef: (element: HTMLHeadingElement | null) => void;
}) {
  const { client, announce } = useDesk();
  const tasks = useDeskState((state) => state.tasks);
  const live = useDeskState((state) => state.live);
  const ordered = useMemo(
    () => Object.values(tasks).sort((a, b) => b.task.createdAt.localeCompare(a.task.createdAt)),
    [tasks]
  );
  const cancel = useCallback(
    (taskId: string) =>
      void client.call('tasks.cancel', { taskId }).then(
        () => announce('Task cancelled.'),
        (error: unknown) => announce(`Could not cancel the task: ${toHostCallError(error).message}`)
      ),
    [client, announce]
  );
  return (
    <>
      <h2 id="heading-tasks" tabIndex={-1} ref={headingRef}>
        Tasks
      </h2>
      <p className="lede">Work servers handed to Taskdesk, and how it ended.</p>
      <p className="empty" hidden={ordered.length > 0}>
        No server has given Taskdesk a task yet.
      </p>
      <div className="table-wrap" hidden={ordered.length === 0}>
        <table className="tasks">
          <caption className="sr-only">Inbound tasks</caption>
          <thead>
            <tr>
              {['Task', 'Kind', 'Server', 'Status', 'Created', 'Updated', 'Outcome'].map((title) => (
                <th scope="col" key={title}>
                  {title}
                </th>
              ))}
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          {/* Hidden screens render no rows: their size is unknown and nobody sees them. */}
          {active ? <VirtualRows ordered={ordered} live={live} onCancel={cancel} /> : <tbody />}
        </table>
      </div>
    </>
  );
}

function VirtualRows({
  ordered,
  live,
  onCancel
}: {
  ordered: InboundTask[];
  live: Record<string, LiveStream>;
  onCancel: (taskId: string) => void;
}) {
  const body = useRef<HTMLTableSectionElement>(null);
  const [margin, setMargin] = useState(0);
  useLayoutEffect(() => {
    const top = body.current?.getBoundingClientRect().top;
    if (top !== undefined) setMargin(top + window.scrollY);
  }, [ordered.length]);
  const virtualizer = useWindowVirtualizer({
    count: ordered.length,
    estimateSize: () => ESTIMATED_ROW_PX,
    overscan: 10,
    scrollMargin: margin,
    getItemKey: (index) => ordered[index]!.task.taskId
  });
  const items = virtualizer.getVirtualItems();
  const before = items.length > 0 ? items[0]!.start - margin : 0;
  const after = items.length > 0 ? virtualizer.getTotalSize() - (items.at(-1)!.end - margin) : 0;
  const columns = 8;
  return (
    <tbody ref={body}>
      {before > 0 ? (
        <tr aria-hidden="true" className="spacer">
          <td colSpan={columns} style={{ height: before, padding: 0, border: 0 }} />
        </tr>
      ) : null}
      {items.map((row) => {
        const inbound = ordered[row.index]!;
        return (
          <TaskRow
            key={row.key}
            index={row.index}
            inbound={inbound}
            live={live[inbound.task.taskId]}
            rowRef={virtualizer.measureElement}
            onCancel={onCancel}
          />
        );
      })}
      {after > 0 ? (
        <tr aria-hidden="true" className="spacer">
          <td colSpan={columns} style={{ height: after, padding: 0, border: 0 }} />
        </tr>
      ) : null}
    </tbody>
  );
}
