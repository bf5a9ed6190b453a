import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { ServerTaskPage, ServerView } from '../../app/contract/host-api.js';
import { DateTime } from '../components/date-time.js';
import { formatDuration } from '../components/format.js';
import { ShortId } from '../components/short-id.js';
import { StatusBadge } from '../components/status-badge.js';
import { ActionError, useFailure } from '../components/action-error.js';
import { busyProps } from '../components/busy-props.js';
import { TableWrap } from '../components/table-wrap.js';
import { toHostCallError } from '../host-client.js';
import { useDesk } from '../shell/desk-context.js';

/** JSON-RPC "method not found": what the host answers for a server without `tasks.list`. */
const METHOD_NOT_FOUND = -32601;

type ListedTask = ServerTaskPage['tasks'][number];

/**
 * The chosen server's own task list (`tasks/list`, through `outbound.serverTasks`), read a
 * page at a time: loaded when opened, More while the server has more, Reload to start again.
 * Keyed by server by its parent, so another server starts with an empty list.
 */
export function ServerTasksPanel({
  server,
  open,
  onToggle
}: {
  server: Pick<ServerView, 'id' | 'name'>;
  open: boolean;
  onToggle: (open: boolean) => void;
}) {
  const { client } = useDesk();
  const [tasks, setTasks] = useState<ListedTask[]>([]);
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const [status, setStatus] = useState('');
  /** What is loading: the first page (Reload) or the next (More). */
  const [loading, setLoading] = useState<'first' | 'more' | undefined>(undefined);
  const { failure, fail, clear } = useFailure();
  const [loaded, setLoaded] = useState(false);
  const [unlisted, setUnlisted] = useState(false);
  const seq = useRef(0);
  /** The rows shown, for the next page to go after. */
  const shown = useRef<ListedTask[]>([]);
  const more = useRef<HTMLButtonElement>(null);
  const reload = useRef<HTMLButtonElement>(null);
  /** More is disabled while it loads and hidden after the last page: focus must not fall to the page. */
  const refocus = useRef(false);

  const load = useCallback(
    async (from: string | undefined) => {
      const mine = ++seq.current;
      setLoaded(true);
      setLoading(from === undefined ? 'first' : 'more');
      clear();
      setStatus('Loading the server’s tasks…');
      try {
        const page = await client.call('outbound.serverTasks', {
          serverId: server.id,
          ...(from !== undefined && { cursor: from })
        });
        if (mine !== seq.current) return;
        const all = from === undefined ? page.tasks : [...shown.current, ...page.tasks];
        shown.current = all;
        setTasks(all);
        setStatus(
          all.length === 0
            ? `${server.name} has no tasks.`
            : `${all.length} task${all.length === 1 ? '' : 's'}${page.nextCursor === undefined ? '.' : ' so far; the server has more.'}`
        );
        setCursor(page.nextCursor);
      } catch (thrown) {
        if (mine !== seq.current) return;
        const error = toHostCallError(thrown);
        if (error.code === METHOD_NOT_FOUND) {
          setUnlisted(true);
          shown.current = [];
          setTasks([]);
          setCursor(undefined);
          setStatus(`${server.name} does not list its tasks: it did not declare tasks/list.`);
        } else {
          setStatus('');
          fail(`Could not list the tasks of ${server.name}.`, error, 'Press Reload to ask again.');
        }
      } finally {
        if (mine === seq.current) setLoading(undefined);
      }
    },
    [client, server.id, server.name, clear, fail]
  );

  useEffect(() => {
    if (open && !loaded) void load(undefined);
  }, [open, loaded, load]);

  useLayoutEffect(() => {
    if (loading || !refocus.current) return;
    refocus.current = false;
    (cursor === undefined ? reload.current : more.current)?.focus();
  }, [loading, cursor]);

  return (
    <details className="server-tasks-panel" open={open} onToggle={(event) => onToggle(event.currentTarget.open)}>
      <summary>Server’s tasks</summary>
      <p className="muted small-text">
        The tasks the server keeps, as its tasks/list reports them; some may not come from Taskdesk.
      </p>
      <p className="muted" role="status">
        {status}
      </p>
      <ActionError failure={failure} onDismiss={clear} />
      <TableWrap label={`Tasks on ${server.name}`} hidden={tasks.length === 0 || unlisted}>
        <table className="server-tasks">
          <caption className="sr-only">Tasks on {server.name}</caption>
          <thead>
            <tr>
              {['Task', 'Tool call', 'Status', 'Created', 'Updated', 'Kept for'].map((title) => (
                <th scope="col" key={title}>
                  {title}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {tasks.map((task) => (
              <tr key={task.taskId} data-task-id={task.taskId}>
                <td>
                  <ShortId id={task.taskId} />
                </td>
                <td>
                  {task.toolName ? <code>{task.toolName}</code> : <span className="muted">Not from Taskdesk</span>}
                </td>
                <td>
                  <StatusBadge status={task.status} />
                  {task.statusMessage ? <div className="muted small-text">{task.statusMessage}</div> : null}
                </td>
                <td>
                  <DateTime iso={task.createdAt} />
                </td>
                <td>
                  <DateTime iso={task.lastUpdatedAt} />
                </td>
                <td>{task.ttl === null ? 'No limit' : formatDuration(task.ttl)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      <div className="actions">
        <button
          type="button"
          ref={more}
          hidden={cursor === undefined || unlisted}
          // The next page waits on its own; a Reload meanwhile starts again from the first page.
          {...busyProps(loading !== undefined)}
          onClick={() => {
            if (loading) return;
            refocus.current = true;
            void load(cursor);
          }}
        >
          More
        </button>
        <button
          type="button"
          ref={reload}
          {...busyProps(loading === 'first')}
          onClick={() => loading !== 'first' && void load(undefined)}
        >
          Reload
        </button>
      </div>
    </details>
  );
}
