import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { HistorySummary } from '../../app/contract/host-api.js';
import { DateTime } from '../components/date-time.js';
import {
  anyFilterSet,
  DirectionFilter,
  FilterCount,
  FilterSearch,
  FilterSelect,
  GroupedFilterSelect,
  matchCount,
  ServerFilter,
  useFilterCount,
  type KnownServer
} from '../components/filter-fields.js';
import { StatusBadge } from '../components/status-badge.js';
import { endLabel } from './cancelled-label.js';
import { failedEntryReason } from './failed-entry-reason.js';
import { ActionError, useFailure } from '../components/action-error.js';
import { TaskTitle } from '../components/task-title.js';
import { KIND_CHOICES, kindWords } from '../components/kind-words.js';
import { useDesk, useDeskState } from '../shell/desk-context.js';
import { escapeFromEmptySearch } from '../components/escape-closes.js';
import { HISTORY_STATUS_GROUPS, NO_FILTER, toHistoryFilter, type FilterInputs } from './history-filters.js';
import { HistoryDetail } from './history-detail.js';
import { TaskWords } from './task-words.js';
import { RetentionForm } from './retention-form.js';
import { downloadText } from './download.js';
import { CHANGED_BY_YOU, forCallWords } from '../../app/contract/task-row-words.js';
import { BY_THE_ASSISTANT } from '../components/call-origin.js';
import { historyHref } from '../tools/last-call.js';
import { useKeptDetail, type KeptDetailSlot } from '../components/kept-detail.js';
import { heldLabel } from '../tasks/task-items.js';
import { heldEntryWords, useHeldAnswers, useHeldTaskIds } from './held-answer.js';
import { notFetchedLine } from '../tasks/unfetched-answer.js';
import { useUnfetched } from '../tasks/use-unfetched.js';
import { WAITING_FOR_YOU } from '../../app/contract/task-row-words.js';

/** No held answers to leave out: the filter is not "Waiting for you". */
const NO_HELD: readonly string[] = [];

/** How many entries a page of the list holds. */
export const HISTORY_PAGE = 50;

/** What the list shows: the entries loaded of what `inputs` match (`total`), and how many there are in all. */
interface ListedPage {
  entries: HistorySummary[];
  /** Entries the filter matches. */
  total: number;
  /** Entries in all, whatever the filter. */
  all: number;
  nextCursor?: string | undefined;
  /** The filter the page is of. */
  inputs: FilterInputs;
}

/**
 * The count line's words: how many entries there are, and while a filter is set, how many of
 * them match it (`total`); and how many are shown (`loaded`), while more pages are to come.
 */
function countOf(total: number, all: number, filtered: boolean, loaded: number): string {
  if (all === 0)
    return 'Nothing yet: a task comes here once a server gives Taskdesk one or a tool is called as a task, and a tool call, question or model request without a task once it ends.';
  const count = matchCount(total, all, filtered, ['entry', 'entries']);
  return loaded < total ? `${count}, showing ${loaded}` : count;
}

/**
 * The History screen: every task received or requested (and every tool call, question or model
 * request that ran without a task), newest first, kept after the protocol's TTL. Search and
 * filters ask the host (`history.list`), a page at a time; a row shows beside its title the
 * entry's preview (a call's arguments); an entry opens in full; Export downloads what the filter
 * matches as JSON Lines.
 */
export function HistoryScreen({
  active,
  headingRef,
  address,
  keptDetail
}: {
  active: boolean;
  headingRef: (element: HTMLHeadingElement | null) => void;
  /** The entry the address names (`#history/<id>`), while History is the screen shown. */
  address?: string | undefined;
  /** Told the detail kept while another screen is shown, for the Desk's History link (see `useKeptDetail`). */
  keptDetail?: KeptDetailSlot;
}) {
  const { client, announce } = useDesk();
  const revision = useDeskState((state) => state.historyRevision);
  const heldAnswerOf = useHeldAnswers();
  const unfetchedOf = useUnfetched();
  const [inputs, setInputs] = useState<FilterInputs>(NO_FILTER);
  // The received tasks whose Decline (or Dismiss, Reject) waits out its undo window: "Waiting for
  // you" leaves them out, and lists them again after Undo. Other filters are not read again.
  const heldIds = useHeldTaskIds();
  const held = inputs.status === WAITING_FOR_YOU ? heldIds : NO_HELD;
  const [page, setPage] = useState<ListedPage | undefined>();
  const loading = useFailure();
  const exporting = useFailure();
  /** Only the latest request's answer is shown: a slower older one must not overwrite it. */
  const request = useRef(0);
  /** Bumped by Retry after the list failed to load: reads it again. */
  const [attempt, setAttempt] = useState(0);
  /** What Retry does: read the list again, or the next page that failed. */
  const retry = useRef<() => void>(() => undefined);
  const list = useRef<HTMLOListElement>(null);
  const moreButton = useRef<HTMLButtonElement>(null);
  /** The entry "Show more" brought first, to focus once it is shown (see `more`). */
  const focusAfterMore = useRef<string | undefined>(undefined);
  useLayoutEffect(() => {
    const id = focusAfterMore.current;
    if (id === undefined) return;
    focusAfterMore.current = undefined;
    list.current?.querySelector<HTMLElement>(`li[data-history-id="${CSS.escape(id)}"] .history-title`)?.focus();
  }, [page]);
  /**
   * The entry the address names whose detail a filter change closed (the list no longer holds
   * it): not shown, the address as it was, until its title is pressed or the address changes.
   */
  const [dismissed, setDismissed] = useState<string | undefined>(undefined);
  if (dismissed !== undefined && address !== dismissed) setDismissed(undefined);
  /**
   * The entry whose detail is shown: the one the address names (`#history/<id>`, as a tool's card
   * links to its last call), kept while another screen is shown, for the History link of the bar.
   */
  const {
    detailKey: open,
    returned,
    done: returnDone
  } = useKeptDetail(active, address === dismissed ? undefined : address, keptDetail);
  /**
   * Bumped each time a detail opens (the address comes to name an entry, or its title is pressed
   * again): a new detail, read afresh, its heading taking the focus. Not on the return to a kept one.
   */
  const [visit, setVisit] = useState(0);
  const [visited, setVisited] = useState(open);
  if (visited !== open) {
    setVisited(open);
    if (open !== undefined) setVisit((n) => n + 1);
  }
  // Back from another screen to the detail it kept (the History link goes to its address): its
  // heading holds the focus again (not the screen's, which would take the page to the top), and
  // the page is where it was.
  useLayoutEffect(() => {
    if (!returned) return;
    window.scrollTo(0, returned.scrollY);
    document.getElementById('history-detail-title')?.focus({ preventScroll: true });
    returnDone();
  }, [returned, returnDone]);
  /** The entry whose detail its Close button (or Escape) closed: the focus goes back to its title. */
  const closed = useRef<string | undefined>(undefined);
  const closeOpen = () => {
    closed.current = open;
    if (address !== undefined) location.hash = '#history';
  };
  /** The detail shown last: the browser's Back closes it too, without Close. */
  const wasOpen = useRef(open);
  useLayoutEffect(() => {
    const previous = wasOpen.current;
    wasOpen.current = open;
    const id = closed.current ?? previous;
    if (open !== undefined || id === undefined) return;
    const byClose = closed.current !== undefined;
    closed.current = undefined;
    // After Back, only a focus the closed detail held (now on the page) goes back to its title;
    // a filter that closed it keeps the focus it has.
    const focus = document.activeElement;
    if (!byClose && focus && focus !== document.body && document.contains(focus)) return;
    document.querySelector<HTMLElement>(`li[data-history-id="${CSS.escape(id)}"] .history-title`)?.focus();
  }, [open]);

  /** The filter the list shows entries of: a page of another one closes a detail it no longer holds. */
  const listed = useRef<FilterInputs | undefined>(undefined);
  /** The open entry, for a list's answer that arrives after it was opened. */
  const openNow = useRef(open);
  useEffect(() => {
    openNow.current = open;
  }, [open]);
  /** The filter as the person has it now, for an answer about an earlier one. */
  const inputsNow = useRef(inputs);
  useEffect(() => {
    inputsNow.current = inputs;
  }, [inputs]);

  useEffect(() => {
    if (!active) return;
    const id = ++request.current;
    const filter = toHistoryFilter(inputs, held);
    const filtered = Object.keys(filter).length > 0;
    Promise.all([
      client.call('history.list', { filter, limit: HISTORY_PAGE }),
      // How many there are in all, for "3 of 10 entries match": the host counts them.
      filtered ? client.call('history.list', { limit: 1 }).then((every) => every.total) : undefined
    ]).then(
      ([found, all]) => {
        if (id !== request.current) return;
        setPage({ ...found, all: all ?? found.total, inputs });
        loading.clear();
        // An open entry the changed filter leaves out closes (a tool call, with Kind "Question"):
        // a detail beside a list that no longer holds it reads as one of the list's. The focus
        // stays on the filter the person is changing; only focus inside the detail (which the
        // filters cannot hold) would be lost with it, and goes to the heading.
        const filterChanged = listed.current !== undefined && listed.current !== inputs;
        listed.current = inputs;
        if (!filterChanged) return;
        const shown = openNow.current;
        if (shown === undefined || found.entries.some((entry) => entry.id === shown)) return;
        // Still the filter the person has when it comes (a newer page of it, or the list read
        // again after a change, does not make it stale; another filter does), the entry still open.
        const close = () => {
          if (inputsNow.current !== inputs || openNow.current !== shown) return;
          if (document.activeElement?.closest('.history-detail')) document.getElementById('heading-history')?.focus();
          setDismissed(shown);
        };
        // Not on the first page, but maybe on a later one (opened after More): the host says
        // whether it still matches; a failed question leaves it open.
        if (found.nextCursor === undefined) close();
        else
          client.call('history.list', { filter: { ...toHistoryFilter(inputs, held), id: shown }, limit: 1 }).then(
            (still) => still.total === 0 && close(),
            () => undefined
          );
      },
      (error: unknown) => {
        if (id !== request.current) return;
        // Entries of another filter (or none) must not read as this filter's answer.
        setPage(undefined);
        retry.current = () => {
          loading.clear();
          setAttempt((n) => n + 1);
        };
        loading.fail('Could not load the history.', error, 'Press Retry to read it again.');
      }
    );
  }, [client, active, inputs, held, revision, attempt, loading.clear, loading.fail]);

  /**
   * The servers of the entries listed so far, whatever the filter: a removed server's stay in the
   * Server filter (as it was chosen, too, when a filter leaves none of its entries listed).
   */
  const [listedServers, setListedServers] = useState<readonly KnownServer[]>([]);
  useEffect(() => {
    if (!page) return;
    setListedServers((old) => {
      const ids = new Set(old.map((server) => server.serverId));
      const added: KnownServer[] = [];
      for (const { serverId, serverName } of page.entries) {
        if (ids.has(serverId)) continue;
        ids.add(serverId);
        added.push({ serverId, serverName });
      }
      return added.length === 0 ? old : [...old, ...added];
    });
  }, [page]);

  const more = () => {
    if (!page?.nextCursor) return;
    const id = ++request.current;
    loading.clear();
    const filter = toHistoryFilter(inputs, held);
    client.call('history.list', { filter, cursor: page.nextCursor, limit: HISTORY_PAGE }).then(
      (found) => {
        if (id !== request.current) return;
        // Read on from the first entry it showed, when the focus is still on Show more (which
        // goes with the last page): a keyboard's next Tab went past the whole new page, or
        // started from the page's top.
        if (document.activeElement === moreButton.current) focusAfterMore.current = found.entries[0]?.id;
        setPage({
          ...page,
          entries: [...page.entries, ...found.entries],
          total: found.total,
          nextCursor: found.nextCursor
        });
      },
      (error: unknown) => {
        if (id !== request.current) return;
        retry.current = more;
        loading.fail('Could not load more entries.', error, 'Press Retry to try again.');
      }
    );
  };

  const exportAll = () => {
    exporting.clear();
    void client.call('history.export', { filter: toHistoryFilter(inputs, held) }).then(
      ({ jsonl, count }) => {
        downloadText(jsonl, 'taskdesk-history.jsonl', 'application/jsonl');
        announce(`Exported ${count} ${count === 1 ? 'entry' : 'entries'}.`);
      },
      (error: unknown) => exporting.fail('Nothing was exported.', error, 'Press Export to try again.')
    );
  };

  const countWords = !page
    ? loading.failure
      ? 'No entries to show: the list could not be read.'
      : 'Loading…'
    : countOf(page.total, page.all, anyFilterSet(page.inputs), page.entries.length);
  // Until the host answers for the filters as they are now, the count is of the earlier ones.
  const count = useFilterCount(countWords, page ? page.inputs === inputs : loading.failure !== undefined);
  const { changed: countChanged } = count;
  const set = (key: keyof FilterInputs) => (event: { target: { value: string } }) => {
    countChanged();
    setInputs((old) => ({ ...old, [key]: event.target.value }));
  };
  /** Every filter back to any; the focus, which was on the button that goes, on the count of every entry. */
  const clearFilters = () => {
    setInputs(NO_FILTER);
    // What the count comes to say, the host's first page of every entry read.
    count.cleared(page && countOf(page.all, page.all, false, Math.min(page.all, HISTORY_PAGE)));
    announce('Filters cleared: every entry is shown.');
  };

  return (
    <>
      <h2 id="heading-history" tabIndex={-1} ref={headingRef}>
        History
      </h2>
      <p className="lede">
        Every task a server gave Taskdesk or Taskdesk asked of one, from its start, and every tool call, question or
        model request that ran without a task, once it ended; kept for as long as Keep history below says.
      </p>
      {/* Escape in an empty Search closes an open entry too, as on Tasks (see escapeFromEmptySearch). */}
      <form
        className="history-filters"
        role="search"
        aria-label="History"
        onSubmit={(event) => event.preventDefault()}
        onKeyDown={escapeFromEmptySearch(open ? closeOpen : undefined)}
      >
        <FilterSearch value={inputs.text} onChange={set('text')} placeholder="Title, arguments, server or outcome" />
        {/* In the order of the Tasks screen's filters. */}
        <DirectionFilter value={inputs.direction} onChange={set('direction')} />
        <GroupedFilterSelect
          label="Status"
          value={inputs.status}
          onChange={set('status')}
          groups={HISTORY_STATUS_GROUPS}
        />
        <ServerFilter value={inputs.serverId} onChange={set('serverId')} known={listedServers} />
        <FilterSelect label="Kind" value={inputs.kind} onChange={set('kind')} choices={KIND_CHOICES} />
        {/* Nothing to export while the list (as filtered) is empty. */}
        <button type="button" onClick={exportAll} disabled={page?.total === 0}>
          Export
        </button>
      </form>
      <ActionError failure={exporting.failure} onDismiss={exporting.clear} />
      {/* A list that could not be read stays said until Retry reads it: dismissed, it read as still loading. */}
      <ActionError
        failure={loading.failure}
        onDismiss={page ? loading.clear : undefined}
        onRetry={() => retry.current()}
      />
      {open ? <HistoryDetail key={visit} id={open} onClose={closeOpen} /> : null}
      <FilterCount
        count={count}
        words={countWords}
        className="history-count"
        filtered={anyFilterSet(inputs)}
        onClear={clearFilters}
      />
      <ol className="history-list" ref={list}>
        {page?.entries.map((entry) => {
          // Titles repeat (ten calls of one tool): a title's button is described by what tells its
          // entry apart, its preview and its meta line (and why it failed), so that moving button to
          // button says it.
          // Ids hold a server's task id, which may hold spaces (an id list's separator): encoded.
          const previewId = `history-preview-${encodeURIComponent(entry.id)}`;
          const metaId = `history-meta-${encodeURIComponent(entry.id)}`;
          const reasonId = `history-reason-${encodeURIComponent(entry.id)}`;
          const forCallId = `history-for-call-${encodeURIComponent(entry.id)}`;
          // Why it failed, so that the list says it without opening the entry (as the Tasks row does).
          const reason = failedEntryReason(entry);
          // The person's Decline of its question, held in the Inbox's undo window: said as its Tasks row says it.
          const held = heldAnswerOf(entry);
          const heldId = `history-held-${encodeURIComponent(entry.id)}`;
          // Its server will not fetch the answer it waits for (started again since it asked): said as its Tasks row says it.
          const unfetched = !held && entry.waitsOnYou === true ? unfetchedOf(entry) : undefined;
          const unfetchedId = `history-unfetched-${encodeURIComponent(entry.id)}`;
          const describedBy = [
            entry.forCall?.how === 'while' ? forCallId : undefined,
            entry.preview === undefined ? undefined : previewId,
            metaId,
            reason && reasonId,
            held && heldId,
            unfetched && unfetchedId
          ]
            .filter(Boolean)
            .join(' ');
          return (
            <li key={entry.id} data-history-id={entry.id}>
              <span className="history-heading">
                <button
                  type="button"
                  className="link-button history-title"
                  aria-describedby={describedBy}
                  // Through the address, as the Tasks screen's Details: the entry can be linked to,
                  // and the browser's Back closes it.
                  onClick={() => {
                    const href = historyHref(entry.id);
                    if (location.hash !== href) location.hash = href;
                    else {
                      // Named already (its detail closed by a filter meanwhile, or open): opened afresh here.
                      setDismissed(undefined);
                      setVisit((n) => n + 1);
                    }
                  }}
                >
                  <TaskTitle kind={entry.kind} title={entry.title} />
                </button>
                {/* Asked while a call of Taskdesk's ran: which call, so that the same question asked twice is told
                    apart. One asked for a call's task says it in its meta line, where a task's id was (`TaskWords`). */}
                {entry.forCall?.how !== 'while' ? null : (
                  <span id={forCallId} className="history-for-call">
                    {forCallWords(entry.forCall)}
                  </span>
                )}
                {/* What tells it from others of its title (ten calls of one tool): a line, cut to the row. */}
                {entry.preview === undefined ? null : entry.kind === 'tool-call' ? (
                  <code id={previewId} className="history-preview">
                    {entry.preview}
                  </code>
                ) : (
                  <span id={previewId} className="history-preview">
                    {entry.preview}
                  </span>
                )}
              </span>
              <span id={metaId} className="meta">
                {kindWords(entry.kind)}
                <TaskWords entry={entry} /> · {entry.direction === 'received' ? 'from' : 'to'} {entry.serverName} ·{' '}
                <StatusBadge
                  status={entry.status}
                  rejected={entry.rejected === true}
                  label={held ? heldLabel(held) : endLabel(entry)}
                />
                {entry.unanswered ? ' (unanswered)' : null}
                {entry.edited ? ` · ${CHANGED_BY_YOU}` : null}
                {entry.origin ? ` · ${BY_THE_ASSISTANT}` : null} · <DateTime iso={entry.createdAt} />
              </span>
              {/* Whole, under the line with its Failed badge: a server's reason is the one useful sentence of a failure. */}
              {reason === undefined ? null : (
                <span id={reasonId} className="history-reason">
                  {reason}
                </span>
              )}
              {held ? (
                <span id={heldId} className="history-held muted">
                  {heldEntryWords(held)}
                </span>
              ) : null}
              {unfetched ? (
                <span id={unfetchedId} className="history-unfetched">
                  {notFetchedLine(entry.serverName, unfetched.why)}
                </span>
              ) : null}
            </li>
          );
        })}
      </ol>
      {page?.nextCursor ? (
        <button type="button" ref={moreButton} onClick={more}>
          Show more
        </button>
      ) : null}
      <RetentionForm active={active} />
    </>
  );
}
