import { Fragment, useEffect, useRef, useState } from 'react';
import type { AuditEntry, HostParams } from '../../app/contract/host-api.js';
import { downloadText } from '../history/download.js';
import { DateTime } from '../components/date-time.js';
import { FilterCount, FilterSearch, FilterSelect, ServerFilter, useFilterCount } from '../components/filter-fields.js';
import { ActionError, useFailure } from '../components/action-error.js';
import { TableWrap } from '../components/table-wrap.js';
import { useDesk, useDeskState } from '../shell/desk-context.js';
import { auditSentence } from '../../app/contract/audit-words.js';
import { detailPairs } from './detail-pairs.js';
import { auditTaskQuestion, auditTaskWords } from './audit-task-words.js';
import { historyHref } from '../tools/last-call.js';
import { detailCut } from './detail-cut.js';
import { AUDIT_MOST_SHOWN, AUDIT_PAGE, shownWords } from './shown-words.js';

/** The most entries one export holds (`audit.read`'s own bound). */
const EXPORT_LIMIT = 5000;

/** The groups of event types, by their first word. */
const EVENT_GROUPS = [
  ['task', 'Tasks'],
  ['inbox', 'Inbox answers'],
  ['tool', 'Tool calls'],
  ['server', 'Servers'],
  ['sampling', 'Model requests'],
  ['provider', 'Providers'],
  ['store', 'Storage'],
  ['assistant', 'Assistant']
] as const;

interface AuditFilter {
  text: string;
  serverId: string;
  type: string;
}

/**
 * A key for each row that stays with its entry when newer ones come above it (an index would
 * give every row shown again): its time, type, server and task, and how many before it in the
 * list share them.
 */
function rowKeys(entries: readonly AuditEntry[]): string[] {
  const seen = new Map<string, number>();
  return entries.map((entry) => {
    const base = `${entry.at}\0${entry.type}\0${entry.serverId ?? ''}\0${entry.taskId ?? ''}`;
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    return `${base}\0${count}`;
  });
}

/** Whether the search or a filter narrows the list. */
function narrowed(params: HostParams<'audit.read'>): boolean {
  return Object.keys(params ?? {}).length > 0;
}

/** The search and filters as one key: what tells the read of the filters as they are now from an earlier one's. */
function paramsKey(params: HostParams<'audit.read'>): string {
  return JSON.stringify(params ?? {});
}

const NO_FILTER: AuditFilter = { text: '', serverId: '', type: '' };

function toParams(filter: AuditFilter): HostParams<'audit.read'> {
  return {
    ...(filter.text.trim() && { text: filter.text.trim() }),
    ...(filter.serverId && { serverId: filter.serverId }),
    ...(filter.type && { type: filter.type })
  };
}

/**
 * The audit log screen: the newest entries, read when shown and again after each change the
 * log records (the store's `auditRevision`) while shown, with History's kind of filters (words,
 * server, kind of event, asked of the host) and an export of what they match as JSON Lines.
 * Reads asked for while one is on its way collapse into one more. It shows the newest
 * {@link AUDIT_PAGE} entries that match, and older ones a page more at each "Show more"
 * (reading one more than it shows, to know whether there are older ones), up to
 * {@link AUDIT_MOST_SHOWN}; a change of the filters goes back to the first page.
 */
export function AuditScreen({
  active,
  headingRef
}: {
  active: boolean;
  headingRef: (element: HTMLHeadingElement | null) => void;
}) {
  const { client, announce } = useDesk();
  const revision = useDeskState((state) => state.auditRevision);
  const servers = useDeskState((state) => state.servers);
  /** An entry's server by name: the one it was written with, else the name the server has now. */
  const serverOf = (entry: { serverId?: string | undefined; serverName?: string | undefined }) =>
    entry.serverName ?? servers.find((server) => server.id === entry.serverId)?.name ?? entry.serverId ?? '—';
  const [filter, setFilter] = useState<AuditFilter>(NO_FILTER);
  const params = useRef(toParams(filter));
  params.current = toParams(filter);
  /** How many entries to show at most: a page more at each "Show more". */
  const [shown, setShown] = useState(AUDIT_PAGE);
  const shownNow = useRef(shown);
  shownNow.current = shown;
  /**
   * The last read: what it found (one more than it shows, when older ones match), how many it
   * shows, and the search and filters it was for ({@link paramsKey}).
   */
  const [last, setLast] = useState<{ found: AuditEntry[]; limit: number; key: string } | undefined>(undefined);
  // Cut when shown (not when read), so that an answer of the wrong shape fails the screen's render, which says so.
  const entries = last?.found.slice(0, last.limit);
  const more = last !== undefined && last.found.length > last.limit;
  const moreButton = useRef<HTMLButtonElement>(null);
  const shownLine = useRef<HTMLParagraphElement>(null);
  /**
   * Set by "Show more": the read it asked for says what it found, and, when the button had the
   * focus and goes (nothing older left, or the most the screen shows), gives it to the line.
   */
  const showingOlder = useRef<{ focused: boolean } | undefined>(undefined);
  /**
   * The log's revision the last read saw. Past the first page a new entry is not read at once
   * (each read gives every row shown again, thousands of them): the line under the table says
   * there are newer entries, and Refresh reads them.
   */
  const revisionNow = useRef(revision);
  revisionNow.current = revision;
  const [readRevision, setReadRevision] = useState(revision);
  const readsAt = shown > AUDIT_PAGE ? readRevision : revision;
  const readFailure = useFailure();
  const exporting = useFailure();
  /**
   * The count line above the table, as Tasks and History have theirs: how many entries the last
   * read shows, or how many match the search and filters it was for. Said as it changes (a search
   * that finds rows, Show more, new entries), as theirs is.
   */
  const countWords =
    last === undefined || entries === undefined
      ? readFailure.failure
        ? 'No entries to show: the log could not be read.'
        : 'Loading…'
      : shownWords(entries.length, more, last.key !== paramsKey({}));
  // Until a read answers for the filters as they are now, the count is of the earlier ones.
  const count = useFilterCount(countWords, last?.key === paramsKey(toParams(filter)));
  /** What the count line said of every entry, the first page shown: what Clear filters brings back. */
  const allWords = useRef<string | undefined>(undefined);
  if (last !== undefined && entries !== undefined && last.key === paramsKey({}) && last.limit === AUDIT_PAGE)
    allWords.current = countWords;
  const [asked, setAsked] = useState(0);
  const reading = useRef<{ again: boolean } | undefined>(undefined);
  /** The servers the log has entries of: removed ones stay in the Server filter. */
  const [logged, setLogged] = useState<Array<{ serverId: string; serverName?: string | undefined }>>([]);

  useEffect(() => {
    if (!active) return;
    if (reading.current) {
      reading.current.again = true;
      return;
    }
    const read = { again: false };
    reading.current = read;
    void (async () => {
      try {
        do {
          read.again = false;
          const limit = shownNow.current;
          const at = revisionNow.current;
          const asking = params.current;
          const found = await client.call('audit.read', { ...asking, limit: limit + 1 });
          setLast({ found, limit, key: paramsKey(asking) });
          setReadRevision(at);
          readFailure.clear();
          const olderAsked = showingOlder.current;
          if (olderAsked && !read.again) {
            showingOlder.current = undefined;
            const older = found.length > limit;
            // The count line above the table says how many it shows now; with no filter set it is
            // quiet (see below), and what Show more brought is said here.
            if (!narrowed(asking)) announce(shownWords(Math.min(found.length, limit), older, false));
            // The button is gone when nothing older is left, or at the most the screen shows: the
            // focus goes to the line that says so rather than to the page.
            const gone = !older || limit >= AUDIT_MOST_SHOWN;
            const focus = document.activeElement;
            // Still on the button (the last page), or on the page once the button went (the most shown).
            if (gone && olderAsked.focused && (focus === moreButton.current || focus === document.body))
              shownLine.current?.focus();
          }
        } while (read.again);
      } catch (thrown) {
        readFailure.fail('Could not read the audit log.', thrown, 'Press Refresh to try again.');
      } finally {
        reading.current = undefined;
      }
    })();
  }, [active, readsAt, asked, client, filter, shown, readFailure.clear, readFailure.fail]);

  // Read when the screen is shown, on Refresh and when a server is added or removed (not at each
  // change of a connection's state, which also gives a new list of servers).
  const serverIds = servers.map((server) => server.id).join('\n');
  useEffect(() => {
    if (!active) return;
    let live = true;
    client.call('audit.servers', {}).then(
      (found) => live && setLogged(found),
      // Only the removed servers go missing from the filter: the log's entries say why it failed.
      () => undefined
    );
    return () => {
      live = false;
    };
  }, [active, asked, serverIds, client]);

  const { changed: countChanged } = count;
  const set = (key: keyof AuditFilter) => (event: { target: { value: string } }) => {
    countChanged();
    setFilter((old) => ({ ...old, [key]: event.target.value }));
    setShown(AUDIT_PAGE);
  };
  /** Every filter back to any, as on Tasks and History; the focus, on the button that goes, to the count. */
  const clearFilters = () => {
    setFilter(NO_FILTER);
    setShown(AUDIT_PAGE);
    count.cleared(allWords.current);
    announce('Filters cleared: every entry is shown.');
  };
  const showOlder = () => {
    showingOlder.current = { focused: document.activeElement === moreButton.current };
    setShown((old) => Math.min(old + AUDIT_PAGE, AUDIT_MOST_SHOWN));
  };
  const exportAll = () => {
    exporting.clear();
    void client.call('audit.read', { ...toParams(filter), limit: EXPORT_LIMIT }).then(
      (found) => {
        downloadText(
          found.map((entry) => `${JSON.stringify(entry)}\n`).join(''),
          'taskdesk-audit.jsonl',
          'application/jsonl'
        );
        announce(`Exported ${found.length} audit ${found.length === 1 ? 'entry' : 'entries'}.`);
      },
      (thrown: unknown) => exporting.fail('Nothing was exported.', thrown, 'Press Export to try again.')
    );
  };

  const keys = rowKeys(entries ?? []);
  return (
    <>
      <div className="screen-header">
        <h2 id="heading-audit" tabIndex={-1} ref={headingRef}>
          Audit log
        </h2>
        <button type="button" onClick={() => setAsked((n) => n + 1)}>
          Refresh
        </button>
      </div>
      <p className="lede">What servers asked and what Taskdesk did, newest first.</p>
      <form
        className="history-filters"
        role="search"
        aria-label="Audit log"
        onSubmit={(event) => event.preventDefault()}
      >
        <FilterSearch value={filter.text} onChange={set('text')} placeholder="Words in the event or its detail" />
        <ServerFilter value={filter.serverId} onChange={set('serverId')} known={logged} />
        <FilterSelect label="Events" value={filter.type} onChange={set('type')} choices={EVENT_GROUPS} />
        {/* Nothing to export while the log (as filtered) is empty. */}
        <button type="button" onClick={exportAll} disabled={entries?.length === 0}>
          Export
        </button>
      </form>
      <ActionError failure={exporting.failure} onDismiss={exporting.clear} />
      <ActionError failure={readFailure.failure} onDismiss={readFailure.clear} />
      <FilterCount
        // Quiet with no filter set, as the Tasks screen's: each new entry changed it, and it said
        // the whole log's count again ("Showing the newest 38 entries…"), which is no news.
        count={narrowed(toParams(filter)) ? count : { ...count, live: 'off' }}
        words={countWords}
        className="audit-count"
        filtered={narrowed(toParams(filter))}
        onClear={clearFilters}
      />
      <TableWrap label="Audit log table" hidden={entries?.length === 0}>
        <table className="audit">
          <caption className="sr-only">Audit log entries</caption>
          <thead>
            <tr>
              {['Time', 'Event', 'Server', 'Task', 'Detail'].map((title) => (
                <th scope="col" key={title}>
                  {title}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {(entries ?? []).map((entry, index) => (
              <tr key={keys[index]}>
                <td className="when">
                  <DateTime iso={entry.at} />
                </td>
                {/* The sentence to read; the type as written (what search, filters and export use) under it. */}
                <td className="event" title={entry.type}>
                  <span className="event-sentence">{auditSentence(entry)}</span>
                  <EventType type={entry.type} />
                </td>
                <td className="server">{serverOf(entry)}</td>
                <td className="task">
                  <TaskWords entry={entry} serverName={serverOf(entry)} />
                </td>
                <td className="detail">
                  <DetailPairs
                    detail={entry.detail ?? {}}
                    type={entry.type}
                    taskSays={auditTaskQuestion(entry) === undefined ? NOTHING : QUESTION}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      {/* Under a table that pages, by Show more: the count again, where the button is. */}
      {last !== undefined && entries !== undefined && entries.length > 0 && (more || last.limit > AUDIT_PAGE) && (
        <div className="audit-shown">
          {/* Focused when "Show more" goes (nothing older left), so that the focus is not lost. */}
          <p className="muted" tabIndex={-1} ref={shownLine}>
            {countWords}
            {shown > AUDIT_PAGE && revision !== readRevision
              ? ' Newer entries were recorded since: Refresh shows them.'
              : ''}
          </p>
          {more && shown < AUDIT_MOST_SHOWN && (
            // Older entries, as History's "Show more" shows older pages.
            <button type="button" ref={moreButton} onClick={showOlder}>
              Show more
            </button>
          )}
        </div>
      )}
    </>
  );
}

/**
 * An event's type as written, which may break after a dot and nowhere else ("assistant./
 * tool-decision" where the window is narrow): a part is one word, never cut ("serve/r.add/ed"
 * reads as nothing). Unbroken, the longest type held the column so wide at 800 px that the
 * table ran a few pixels past its frame, by how wide the time's digits were.
 */
function EventType({ type }: { type: string }) {
  const parts = type.split(/(?<=\.)/);
  return (
    <code className="event-type">
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          <span>{part}</span>
        </Fragment>
      ))}
    </code>
  );
}

/**
 * What an entry's task is, in words (see {@link auditTaskWords}), its id in the tooltip: a link to
 * its History entry where one can exist. A dash for an entry about no task.
 */
function TaskWords({ entry, serverName }: { entry: AuditEntry; serverName: string }) {
  const calls = useDeskState((state) => state.outbound);
  const said = auditTaskWords(entry, serverName, calls);
  if (said === undefined) return '—';
  if (said.historyId === undefined) return <span title={said.title}>{said.words}</span>;
  return (
    <a href={historyHref(said.historyId)} title={said.title}>
      {said.words}
    </a>
  );
}

/** The fields the Task column says, for {@link DetailPairs}: none, or the question a task asks. */
const NOTHING: readonly string[] = [];
const QUESTION: readonly string[] = ['question'];

/**
 * An entry's detail as name and value, one pair a line, in words ({@link detailPairs}), without
 * what the entry's sentence says already: data (arguments, lists) as compact JSON, a long value cut
 * with a button that shows it all. One JSON object in a line read as a blob. A dash when the
 * sentence said everything.
 */
function DetailPairs({
  detail,
  type,
  taskSays
}: {
  detail: Record<string, unknown>;
  type: string;
  /** Fields the Task column says (see {@link detailPairs}). */
  taskSays: readonly string[];
}) {
  const conversations = useDeskState((state) => state.assistant.summaries);
  const pairs = detailPairs(detail, type, taskSays);
  if (pairs.length === 0) return '—';
  return (
    <dl className="detail-pairs">
      {pairs.map(({ field, name, value, json }) => {
        // A conversation by its title while it exists (its id, which the log keeps, in the title).
        const conversation = field === 'conversationId' ? conversations.find((c) => c.id === detail[field]) : undefined;
        if (conversation)
          return (
            <div key={field}>
              <dt>conversation</dt>
              <dd title={`conversationId ${value}`}>{`“${conversation.title}”`}</dd>
            </div>
          );
        // A value in words keeps what the log holds in its title (search and export use that).
        const kept = detail[field];
        const raw = typeof kept === 'string' ? kept : (JSON.stringify(kept) ?? String(kept));
        const title = raw !== value || name !== field ? `${field} ${raw}` : undefined;
        return (
          <div key={field}>
            <dt>{name}</dt>
            <dd title={title}>
              <DetailValue value={value} json={json} />
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

/**
 * One detail value; a long one cut where {@link detailCut} says, with a button that shows it all
 * (and then less again): a title alone would keep the rest from the keyboard and from touch.
 */
function DetailValue({ value, json }: { value: string; json: boolean }) {
  const [whole, setWhole] = useState(false);
  const cut = detailCut(value);
  const shown = cut && !whole ? `${cut.shown}…` : value;
  return (
    <>
      {json ? <code>{shown}</code> : shown}
      {cut ? (
        <>
          {' '}
          <button
            type="button"
            className="link-button small-text"
            aria-expanded={whole}
            onClick={() => setWhole(!whole)}
          >
            {whole ? 'Show less' : `Show all (${cut.hidden} more characters)`}
          </button>
        </>
      ) : null}
    </>
  );
}
