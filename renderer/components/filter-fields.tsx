import type { ChangeEvent } from 'react';
import { useDeskState } from '../shell/desk-context.js';
import { DIRECTION_CHOICES } from './kind-words.js';

type OnChange = (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => void;

/** The search box of a filter bar (Tasks, History, Audit). */
export function FilterSearch({
  value,
  onChange,
  placeholder
}: {
  value: string;
  onChange: OnChange;
  placeholder: string;
}) {
  return (
    <label className="filter-search">
      Search
      <input type="search" value={value} onChange={onChange} placeholder={placeholder} />
    </label>
  );
}

/** One choice of a filter bar: "Any" (the empty value) first, then each `[value, words]`. */
export function FilterSelect({
  label,
  value,
  onChange,
  choices,
  any = 'Any',
  className
}: {
  label: string;
  value: string;
  onChange: OnChange;
  choices: ReadonlyArray<readonly [string, string]>;
  any?: string;
  className?: string;
}) {
  return (
    <label className={className}>
      {label}
      <select value={value} onChange={onChange}>
        <option value="">{any}</option>
        <ChoiceOptions choices={choices} />
      </select>
    </label>
  );
}

/** A filter's choices in named groups (`[group, [[value, words]…]]`), "Any" (the empty value) first: Tasks' and History's Status. */
export function GroupedFilterSelect({
  label,
  value,
  onChange,
  groups
}: {
  label: string;
  value: string;
  onChange: OnChange;
  groups: ReadonlyArray<readonly [string, ReadonlyArray<readonly [string, string]>]>;
}) {
  return (
    <label>
      {label}
      <select value={value} onChange={onChange}>
        <option value="">Any</option>
        {groups.map(([group, choices]) => (
          <optgroup key={group} label={group}>
            <ChoiceOptions choices={choices} />
          </optgroup>
        ))}
      </select>
    </label>
  );
}

/** A select's options from `[value, words]` pairs. */
export function ChoiceOptions({ choices }: { choices: ReadonlyArray<readonly [string, string]> }) {
  return (
    <>
      {choices.map(([choice, words]) => (
        <option key={choice} value={choice}>
          {words}
        </option>
      ))}
    </>
  );
}

/** The server choice of a filter bar: every configured server by name, and those `known` that were removed. */
export function ServerFilter({
  value,
  onChange,
  known = []
}: {
  value: string;
  onChange: OnChange;
  /** Servers the screen knows of besides the configured ones (removed since): offered after them, said as removed. */
  known?: ReadonlyArray<{ serverId: string; serverName?: string | undefined }>;
}) {
  const servers = useDeskState((state) => state.servers);
  const removed = known.filter((other) => !servers.some((server) => server.id === other.serverId));
  return (
    <FilterSelect
      className="server-filter"
      label="Server"
      value={value}
      onChange={onChange}
      choices={[
        ...servers.map((server) => [server.id, server.name] as const),
        ...removed.map((other) => [other.serverId, `${other.serverName ?? other.serverId} (removed)`] as const)
      ]}
    />
  );
}

/** The direction choice of a filter bar (Tasks, History): both, received from servers, or requested by Taskdesk. */
export function DirectionFilter({ value, onChange }: { value: string; onChange: OnChange }) {
  return <FilterSelect label="Direction" any="Both" value={value} onChange={onChange} choices={DIRECTION_CHOICES} />;
}
