import {
  DirectionFilter,
  FilterSearch,
  FilterSelect,
  GroupedFilterSelect,
  ServerFilter,
  type KnownServer
} from '../components/filter-fields.js';
import { escapeFromEmptySearch } from '../components/escape-closes.js';
import { statusLabel } from '../components/status-words.js';
import { KIND_CHOICES } from '../components/kind-words.js';
import { WAITING_FOR_YOU, WAITING_FOR_YOU_LABEL, type TaskFilterInputs } from './task-items.js';

/**
 * The Status filter's choices, in groups named by what they hold (every row is a task, so a group
 * "Tasks" said nothing), as the rows' badges say them: a question that ended is Answered, Declined
 * or Dismissed (not Completed), a model request turned down is Rejected (not Failed). First where
 * a task stands: "Waiting for you" finds what waits on the person (a received question or model
 * request in the Inbox, a tool task's server's question), which a task's protocol status does not
 * say (a received task waiting on the Inbox is `working`). Its status `input_required` says whose
 * answer it waits on too: "Waiting for Taskdesk", a tool task's server waiting on Taskdesk (to fetch
 * its question, or a model's answer), not on the person; a row that says "Waiting for you" is not
 * found by it.
 */
const STATUS_GROUPS: ReadonlyArray<readonly [string, ReadonlyArray<readonly [string, string]>]> = [
  [
    'Where it stands',
    [
      [WAITING_FOR_YOU, WAITING_FOR_YOU_LABEL],
      ['active', 'Not ended'],
      ['ended', 'Ended']
    ]
  ],
  [
    'Status',
    (['working', 'input_required', 'completed', 'failed', 'cancelled', 'expired', 'lost'] as const).map(words)
  ],
  // As History's: a model request the person answered is "Answered" too.
  ['How a question or model request ended', (['answered', 'declined', 'dismissed', 'rejected'] as const).map(words)]
];

function words(status: string): readonly [string, string] {
  return [status, statusLabel(status)];
}

/**
 * The Tasks screen's search and filters (direction, status, server, kind), applied as they change.
 *
 * Escape in the Search field first clears what it holds (the browser's own); in
 * an empty Search it calls `onEscape` (given while a task's detail is open: it closes it, as
 * Escape in the detail does).
 */
export function TaskFilters({
  filter,
  onChange,
  onEscape,
  known
}: {
  filter: TaskFilterInputs;
  onChange: (filter: TaskFilterInputs) => void;
  onEscape?: (() => void) | undefined;
  /** The servers of every task listed: those removed since stay in the Server filter. */
  known?: readonly KnownServer[] | undefined;
}) {
  const set = (key: keyof TaskFilterInputs) => (event: { target: { value: string } }) =>
    onChange({ ...filter, [key]: event.target.value });
  return (
    <form
      className="history-filters task-filters"
      role="search"
      aria-label="Tasks"
      onSubmit={(event) => event.preventDefault()}
      onKeyDown={escapeFromEmptySearch(onEscape)}
    >
      <FilterSearch value={filter.text} onChange={set('text')} placeholder="Title, arguments, server or outcome" />
      <DirectionFilter value={filter.direction} onChange={set('direction')} />
      <GroupedFilterSelect label="Status" value={filter.status} onChange={set('status')} groups={STATUS_GROUPS} />
      <ServerFilter value={filter.serverId} onChange={set('serverId')} known={known} />
      <FilterSelect label="Kind" value={filter.kind} onChange={set('kind')} choices={KIND_CHOICES} />
    </form>
  );
}
