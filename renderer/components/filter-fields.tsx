import { useCallback, useLayoutEffect, useMemo, useRef, useState, type ChangeEvent, type RefObject } from 'react';
import { useDeskState } from '../shell/desk-context.js';
import { DIRECTION_CHOICES } from './kind-words.js';

type OnChange = (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => void;

const NO_SERVERS: readonly KnownServer[] = [];

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

/** A server a screen's entries or tasks belong to: its id, and the name it was listed with. */
export interface KnownServer {
  serverId: string;
  serverName?: string | undefined;
}

/**
 * The server choice of a filter bar: every configured server by name, and those `known` that were
 * removed (each once, by the name it was first given with, "Everything two (removed)").
 */
export function ServerFilter({
  value,
  onChange,
  known = NO_SERVERS
}: {
  value: string;
  onChange: OnChange;
  /**
   * Servers the screen knows of besides the configured ones (removed since): offered after them,
   * said as removed. They may repeat (one per entry or task): each is offered once.
   */
  known?: readonly KnownServer[];
}) {
  const servers = useDeskState((state) => state.servers);
  const removed = useMemo(() => {
    const names = new Map<string, string>();
    for (const server of servers) names.set(server.id, '');
    const found: KnownServer[] = [];
    for (const other of known) {
      if (names.has(other.serverId)) continue;
      names.set(other.serverId, '');
      found.push(other);
    }
    return found;
  }, [servers, known]);
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

/** Whether any filter of a filter bar is set (a value other than "any", the empty string). */
export function anyFilterSet(filter: object): boolean {
  return Object.values(filter).some((value) => value !== '');
}

/**
 * A filtered list's count: "3 tasks" while no filter is set; while one is, "2 of 3 tasks match",
 * and "3 of 3 tasks match" when every one does (the words still say that a filter is on).
 * `noun` is the thing counted, one and many.
 */
export function matchCount(
  matching: number,
  total: number,
  filtered: boolean,
  [one, many]: readonly [string, string]
): string {
  if (!filtered) return `${total} ${total === 1 ? one : many}`;
  return `${matching} of ${total} ${many} match`;
}

/** The count line's state, from {@link useFilterCount}, for {@link FilterCount}. */
export interface FilterCountState {
  countRef: RefObject<HTMLParagraphElement | null>;
  live: 'off' | 'polite';
  /**
   * Clear filters was pressed: `words` (the count of every one, when known) are not said by the
   * count line, and the focus goes on it once it counts what the filters hold.
   */
  cleared: (words: string | undefined) => void;
  /** A filter changed: whatever the count comes to say is said. */
  changed: () => void;
}

/**
 * What Clear filters does to a count line (Tasks, History). The count line is a live region, and
 * the count Clear filters brings is not said by it: the announcement says the filters were cleared
 * and the focus, put on the count, reads it, so that it is said once rather than three times. Any
 * other count is said, as the filters change.
 *
 * `settled`: whether `words` count what the filters now hold (History's come from the host a
 * moment after the filters change; until then the count and the focus wait).
 */
export function useFilterCount(words: string, settled = true): FilterCountState {
  const countRef = useRef<HTMLParagraphElement>(null);
  const [unsaid, setUnsaid] = useState<string | undefined>(undefined);
  /** Set by Clear filters: the focus goes on the count once it counts every one. */
  const [focusDue, setFocusDue] = useState(false);
  useLayoutEffect(() => {
    if (!settled) return;
    if (unsaid !== undefined && words !== unsaid) setUnsaid(undefined);
    if (!focusDue) return;
    setFocusDue(false);
    // The button pressed went with the filters; a focus the person has put elsewhere meanwhile stays.
    const focus = document.activeElement;
    if (!focus || focus === document.body || !document.contains(focus)) countRef.current?.focus();
  }, [words, unsaid, settled, focusDue]);
  const cleared = useCallback((all: string | undefined) => {
    setUnsaid(all);
    setFocusDue(true);
  }, []);
  const changed = useCallback(() => setUnsaid(undefined), []);
  return { countRef, live: words === unsaid ? 'off' : 'polite', cleared, changed };
}

/**
 * A filtered list's count of what matches and, only while a filter is set, Clear filters beside
 * it: one press back to every one, rather than each filter in turn (Tasks, History).
 */
export function FilterCount({
  count,
  words,
  className,
  filtered,
  onClear
}: {
  count: FilterCountState;
  words: string;
  /** The count's own class, beside `muted`. */
  className: string;
  filtered: boolean;
  onClear: () => void;
}) {
  return (
    // Its rule in styles.css is named for the Tasks screen, where the line came first.
    <div className="tasks-count-line">
      <p className={`muted ${className}`} aria-live={count.live} ref={count.countRef} tabIndex={-1}>
        {words}
      </p>
      {filtered ? (
        <button type="button" className="small" onClick={onClear}>
          Clear filters
        </button>
      ) : null}
    </div>
  );
}
