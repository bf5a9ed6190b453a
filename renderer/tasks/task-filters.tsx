import { useDeskState } from '../shell/desk-context.js';
import { KIND_WORDS, type TaskFilterInputs } from './task-items.js';

const STATUSES = ['working', 'input_required', 'completed', 'failed', 'cancelled', 'expired', 'lost'] as const;

/** The Tasks screen's search and filters (direction, status, server, kind), applied as they change. */
export function TaskFilters({
  filter,
  onChange
}: {
  filter: TaskFilterInputs;
  onChange: (filter: TaskFilterInputs) => void;
}) {
  const servers = useDeskState((state) => state.servers);
  const set = (key: keyof TaskFilterInputs) => (event: { target: { value: string } }) =>
    onChange({ ...filter, [key]: event.target.value });
  return (
    <form
      className="history-filters task-filters"
      role="search"
      aria-label="Tasks"
      onSubmit={(event) => event.preventDefault()}
    >
      <label>
        Search
        <input
          type="search"
          value={filter.text}
          onChange={set('text')}
          placeholder="Words in the title, server or id"
        />
      </label>
      <label>
        Direction
        <select value={filter.direction} onChange={set('direction')}>
          <option value="">Both</option>
          <option value="received">Received from servers</option>
          <option value="requested">Requested by Taskdesk</option>
        </select>
      </label>
      <label>
        Status
        <select value={filter.status} onChange={set('status')}>
          <option value="">Any</option>
          <option value="active">Not ended</option>
          <option value="ended">Ended</option>
          {STATUSES.map((status) => (
            <option key={status} value={status}>
              {status}
            </option>
          ))}
        </select>
      </label>
      <label>
        Server
        <select value={filter.serverId} onChange={set('serverId')}>
          <option value="">Any</option>
          {servers.map((server) => (
            <option key={server.id} value={server.id}>
              {server.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Kind
        <select value={filter.kind} onChange={set('kind')}>
          <option value="">Any</option>
          {Object.entries(KIND_WORDS).map(([kind, words]) => (
            <option key={kind} value={kind}>
              {words}
            </option>
          ))}
        </select>
      </label>
    </form>
  );
}
