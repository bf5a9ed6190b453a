import { DirectionFilter, FilterSearch, FilterSelect, ServerFilter } from '../components/filter-fields.js';
import { statusLabel } from '../components/status-words.js';
import { KIND_CHOICES } from '../components/kind-words.js';
import type { TaskFilterInputs } from './task-items.js';

/**
 * The statuses as the rows' badges say them: a question that ended is Answered, Declined or
 * Dismissed (not Completed), a model request turned down is Rejected (not Failed).
 */
const STATUSES = [
  'working',
  'input_required',
  'completed',
  'answered',
  'declined',
  'dismissed',
  'failed',
  'rejected',
  'cancelled',
  'expired',
  'lost'
] as const;
const STATUS_CHOICES: ReadonlyArray<readonly [string, string]> = [
  ['active', 'Not ended'],
  ['ended', 'Ended'],
  ...STATUSES.map((status) => [status, statusLabel(status)] as const)
];

/** The Tasks screen's search and filters (direction, status, server, kind), applied as they change. */
export function TaskFilters({
  filter,
  onChange
}: {
  filter: TaskFilterInputs;
  onChange: (filter: TaskFilterInputs) => void;
}) {
  const set = (key: keyof TaskFilterInputs) => (event: { target: { value: string } }) =>
    onChange({ ...filter, [key]: event.target.value });
  return (
    <form
      className="history-filters task-filters"
      role="search"
      aria-label="Tasks"
      onSubmit={(event) => event.preventDefault()}
    >
      <FilterSearch value={filter.text} onChange={set('text')} placeholder="Title, server, status, outcome or id" />
      <DirectionFilter value={filter.direction} onChange={set('direction')} />
      <FilterSelect label="Status" value={filter.status} onChange={set('status')} choices={STATUS_CHOICES} />
      <ServerFilter value={filter.serverId} onChange={set('serverId')} />
      <FilterSelect label="Kind" value={filter.kind} onChange={set('kind')} choices={KIND_CHOICES} />
    </form>
  );
}
