import { isTerminal } from '../store/task-status.js';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { failureOf, type Failure } from '../components/action-error.js';
import type { LiveStream } from '../store/desk-state.js';
import type { HeldAnswer } from '../store/held-answers.js';
import { useDesk, useDeskState } from '../shell/desk-context.js';
import { TaskDetail } from './task-detail.js';
import { useKeptDetail, type KeptDetailSlot } from '../components/kept-detail.js';
import { TaskFilters } from './task-filters.js';
import { anyFilterSet, FilterCount, matchCount, useFilterCount } from '../components/filter-fields.js';
import { KIND_WORDS } from '../components/kind-words.js';
import { TableWrap } from '../components/table-wrap.js';
import { taskDetailHref } from '../components/task-address.js';
import {
  heldAnswerOf,
  heldTasks,
  matchesTask,
  NO_TASK_FILTER,
  notFetchedOf,
  notFetchedTasks,
  receivedItem,
  requestedItem,
  type TaskFilterInputs,
  type TaskItem,
  waitingTasks,
  waitsOnYou
} from './task-items.js';
import { TASK_COLUMNS, TaskRow, WIDE_ONLY_COLUMNS } from './task-row.js';
import { useUnloadedWords } from '../components/unloaded-words.js';
import type { NotFetched } from './unfetched-answer.js';
import { cancelReceivedAsk, receivedCancelledWords, toolCancelledWords } from './cancel-words.js';
import { useFailuresSaid } from './use-failures-said.js';

/** A row's height before it is measured. */
const ESTIMATED_ROW_PX = 56;

/** A row, and how far from the window's top it was (undefined: not known). */
interface RowPlace {
  key: string;
  top: number | undefined;
}

/** A column's class, by which styles.css gives it its width: `column-task`, `column-kept`… */
function columnClass(title: (typeof TASK_COLUMNS)[number]): string {
  return `column-${title.toLowerCase()}`;
}

/** The count line's words: how many tasks there are, and while a filter is set, how many of them match it. */
function countOf(matching: number, total: number, filtered: boolean): string {
  if (total === 0) return 'No task yet: none was given to Taskdesk, and no tool was called as a task.';
  return matchCount(matching, total, filtered, ['task', 'tasks']);
}

/**
 * The Tasks screen: every task a server gave Taskdesk (sampling, elicitation) and every tool
 * call Taskdesk made as a task, newest first, with filters, and a detail view per task
 * (`#tasks/<key>`, so a link or Back opens and closes it). The table is virtualized against the
 * page's own scrolling: 10,000 tasks render only the rows in view. Tasks past their TTL leave
 * it for History.
 */
export function TasksScreen({
  active,
  headingRef,
  openKey,
  keptDetail
}: {
  active: boolean;
  headingRef: (element: HTMLHeadingElement | null) => void;
  /** The task whose detail the address names (`#tasks/<key>`), if any. */
  openKey: string | undefined;
  /** Told the detail kept while another screen is shown, for the Desk's Tasks link (see `useKeptDetail`). */
  keptDetail?: KeptDetailSlot;
}) {
  const { client, store, announce, confirm } = useDesk();
  const tasks = useDeskState((state) => state.tasks);
  const outbound = useDeskState((state) => state.outbound);
  const live = useDeskState((state) => state.live);
  const [filter, setFilter] = useState<TaskFilterInputs>(NO_TASK_FILTER);
  /** Cancels that failed, by task key: said in the task's row (and its detail) until dismissed or tried again. */
  const [failures, setFailures] = useState<Record<string, Failure>>({});
  const dismiss = useCallback(
    (key: string) =>
      setFailures((old) => {
        if (!(key in old)) return old;
        const { [key]: _gone, ...rest } = old;
        return rest;
      }),
    []
  );
  const unloaded = useUnloadedWords('the tasks');
  const all = useMemo(
    () =>
      [...Object.values(tasks).map(receivedItem), ...Object.values(outbound).map(requestedItem)].sort(
        (a, b) => b.createdAt.localeCompare(a.createdAt) || b.key.localeCompare(a.key)
      ),
    [tasks, outbound]
  );
  const inbox = useDeskState((state) => state.inbox);
  // Plain tool calls (not tasks) are not rows here: their count, and where they are followed.
  const plainRunning = useDeskState((state) => Object.keys(state.calls).length);
  // An item whose answer waits out its undo window waits on the person no more (as the Inbox's badge counts it):
  // its row says the answer is on its way.
  const heldAnswers = useSyncExternalStore(store.held.subscribe, store.held.getSnapshot);
  const waiting = useMemo(() => waitingTasks(inbox.filter((item) => !(item.id in heldAnswers))), [inbox, heldAnswers]);
  const held = useMemo(() => heldTasks(inbox, heldAnswers), [inbox, heldAnswers]);
  // Those whose server will not fetch the answer (started again since it asked): said in their rows, as in the Inbox.
  const servers = useDeskState((state) => state.servers);
  const notFetched = useMemo(() => notFetchedTasks(inbox, servers), [inbox, servers]);
  const shown = useMemo(() => all.filter((item) => matchesTask(item, filter, waiting)), [all, filter, waiting]);
  const filtered = anyFilterSet(filter);
  // Not before the first snapshot: opened at #tasks, every task that had failed came in at once, and each was said.
  const ready = useDeskState((state) => state.ready);
  useFailuresSaid(all, active && ready);
  /**
   * The row whose Details opened the detail, and how far down the window it was: the detail
   * opens at the top of the screen, and its Close puts the row back where the person left it.
   */
  const opened = useRef<RowPlace | undefined>(undefined);
  const open = useCallback((key: string) => {
    const row = document.querySelector(`tr[data-task-key="${CSS.escape(key)}"]`);
    opened.current = row ? { key, top: row.getBoundingClientRect().top } : undefined;
    location.hash = taskDetailHref(key);
  }, []);
  /** The row a closed detail gives the focus back to (see `VirtualRows`), once the list has it in sight. */
  const [backTo, setBackTo] = useState<RowPlace | undefined>(undefined);
  const backDone = useCallback(() => setBackTo(undefined), []);
  /** Whether a task is still in the list (not expired nor forgotten): its detail kept only so. */
  const listed = (key: string) => {
    const id = key.slice(key.indexOf(':') + 1);
    return key.startsWith('received:') ? id in tasks : key.startsWith('requested:') && id in outbound;
  };
  const { detailKey, returned, done: returnDone } = useKeptDetail(active, openKey, keptDetail, listed);
  // Back from another screen to the detail it kept (the Tasks link goes to its address): its
  // heading holds the focus again (not the screen's, which would take the page to the top), and
  // the page is where it was (`VirtualRows` puts it there as its rows come).
  useLayoutEffect(() => {
    if (!returned) return;
    document.getElementById('task-detail-title')?.focus({ preventScroll: true });
    returnDone();
  }, [returned, returnDone]);
  /** The task whose detail its Close button (or Escape) closed: the focus goes back to that row's Details. */
  const closed = useRef<string | undefined>(undefined);
  const close = useCallback(() => {
    closed.current = detailKey;
    location.hash = '#tasks';
  }, [detailKey]);
  /** The detail shown last: the browser's Back closes it too, without Close. */
  const wasOpen = useRef(detailKey);
  useLayoutEffect(() => {
    const previous = wasOpen.current;
    wasOpen.current = detailKey;
    const key = closed.current ?? previous;
    if (detailKey !== undefined || key === undefined) return;
    const byClose = closed.current !== undefined;
    closed.current = undefined;
    const place = opened.current?.key === key ? opened.current : undefined;
    opened.current = undefined;
    // After Back, only a focus the closed detail held (now on the page) goes back to the row.
    const focus = document.activeElement;
    if (!byClose && focus && focus !== document.body && document.contains(focus)) return;
    // The row may be far down the list, not drawn while the detail showed the top of the screen:
    // the list scrolls back to it, and its Details takes the focus (see `VirtualRows`).
    if (shown.some((item) => item.key === key)) setBackTo({ key, top: place?.top });
    else document.getElementById('heading-tasks')?.focus();
  }, [detailKey]);
  /**
   * A task whose Cancel was pressed in its row, and the row's place in the list: should the
   * cancel take the row out of the list (a filter of tasks not ended), the focus it held goes to
   * the row that took its place, else to the count of what matches, rather than to the page.
   */
  const cancelledRow = useRef<{ key: string; index: number } | undefined>(undefined);
  const countWords = unloaded ?? countOf(shown.length, all.length, filtered);
  /** The count of what matches, and what Clear filters does to it (see useFilterCount). */
  const count = useFilterCount(countWords);
  /** The count of what matches: where the focus goes when nothing is left to hold it. */
  const countLine = count.countRef;
  const { changed: countChanged, cleared: countCleared } = count;
  const changeFilter = useCallback(
    (next: TaskFilterInputs) => {
      countChanged();
      setFilter(next);
      // The count line is quiet with no filter set (see `FilterCount` below): the count the
      // person's change brings, every task, is said here.
      if (filtered && !anyFilterSet(next)) announce(unloaded ?? countOf(all.length, all.length, false));
    },
    [countChanged, filtered, announce, unloaded, all.length]
  );
  /** Every filter back to any; the focus, which was on the button that goes, on the count of the tasks. */
  const clearFilters = useCallback(() => {
    setFilter(NO_TASK_FILTER);
    countCleared(unloaded ?? countOf(all.length, all.length, false));
    announce('Filters cleared: every task is shown.');
  }, [announce, unloaded, all.length, countCleared]);
  useLayoutEffect(() => {
    const cancelled = cancelledRow.current;
    if (!cancelled) return;
    const still = shown.find((item) => item.key === cancelled.key);
    if (still) {
      // Ended, and still matched: nothing more to do. Kept, it would take the row's going for
      // another reason later (Forget this task, its end of time) for this cancel's.
      if (!still.running) cancelledRow.current = undefined;
      return;
    }
    cancelledRow.current = undefined;
    const focus = document.activeElement;
    if (focus && focus !== document.body && document.contains(focus)) return;
    const next = shown[Math.min(cancelled.index, shown.length - 1)];
    const row = next && document.querySelector(`tr[data-task-key="${CSS.escape(next.key)}"]`);
    (row?.querySelector<HTMLElement>('button') ?? countLine.current)?.focus();
    announce('The cancelled task no longer matches the filter.');
  }, [shown, announce]);
  const cancelTask = useCallback(
    async (item: TaskItem) => {
      // A task a server gave Taskdesk ends for that server, which gets no answer, and cannot be
      // brought back: asked first, in the confirmation other such acts use (Forget of a running
      // task, Remove of a provider). Not the Inbox's undo window: that holds an answer to an Inbox
      // item (`inbox.hold`), and this ends the task itself, which may have no item there at all
      // (a model request whose reply is being written).
      if (item.inbound) {
        const ask = cancelReceivedAsk(item.inbound, waitsOnYou(item, waiting));
        const agreed = await confirm({
          title: ask.title,
          body: (
            <>
              {ask.body.map((line) => (
                <p key={line}>{line}</p>
              ))}
            </>
          ),
          confirmLabel: ask.confirmLabel,
          cancelLabel: ask.cancelLabel,
          danger: true
        });
        if (!agreed) return;
        // Ended while the person was asked (answered, expired, withdrawn by its server): nothing is
        // left to cancel, and its row says how it ended (the call would fail, saying it had ended).
        const now = store.getState().tasks[item.inbound.task.taskId];
        if (!now || isTerminal(now.task.status)) {
          announce(
            `The ${item.kind === 'elicitation' ? 'question' : 'model request'} ended meanwhile: nothing was cancelled.`
          );
          return;
        }
      }
      dismiss(item.key);
      const index = shown.findIndex((candidate) => candidate.key === item.key);
      if (index !== -1 && document.activeElement?.closest(`tr[data-task-key="${CSS.escape(item.key)}"]`))
        cancelledRow.current = { key: item.key, index };
      const done = item.outbound
        ? client.call('outbound.cancel', { outboundId: item.outbound.outboundId }).then((view) => {
            store.apply('outbound.changed', { type: 'changed', task: view });
            return toolCancelledWords(view.toolName, view.serverName, view.state);
          })
        : client.call('tasks.cancel', { taskId: item.taskId }).then(() => receivedCancelledWords(item.inbound!));
      void done.then(
        (words) => {
          announce(words);
          // The row's Cancel goes once the task has ended: its Details (first) keeps the focus in the row.
          const row = document.querySelector(`tr[data-task-key="${CSS.escape(item.key)}"]`);
          const focus = document.activeElement;
          if (row && (!focus || focus === document.body || row.contains(focus)))
            row.querySelector<HTMLElement>('button')?.focus();
        },
        (error: unknown) => {
          // Not cancelled: the row stays, and says why.
          if (cancelledRow.current?.key === item.key) cancelledRow.current = undefined;
          setFailures((old) => ({
            ...old,
            [item.key]: failureOf(`The ${KIND_WORDS[item.kind].toLowerCase()} task was not cancelled.`, error)
          }));
        }
      );
    },
    [client, store, announce, confirm, dismiss, shown, waiting]
  );
  const cancel = useCallback((item: TaskItem) => void cancelTask(item), [cancelTask]);
  return (
    <>
      <h2 id="heading-tasks" tabIndex={-1} ref={headingRef}>
        Tasks
      </h2>
      <p className="lede">
        Work servers handed to Taskdesk, and tools Taskdesk called as tasks: how each stands or ended. A server’s task
        leaves this list at the end of its time (History keeps it); a tool call you started stays until you forget it
        (“Forget this task” in its Details, or Forget on its card under Tools).
      </p>
      {plainRunning > 0 ? (
        <p className="plain-running">
          {plainRunning === 1
            ? 'A tool call that is not a task is running: follow it, or cancel it, under '
            : `${plainRunning} tool calls that are not tasks are running: follow them, or cancel them, under `}
          <a href="#tools/running">Running calls</a> on Tools.
        </p>
      ) : null}
      {detailKey ? (
        <TaskDetail
          key={detailKey}
          taskKey={detailKey}
          onClose={close}
          onCancel={cancel}
          cancelFailure={failures[detailKey]}
          onDismiss={dismiss}
        />
      ) : null}
      {/* Escape in an empty Search closes an open detail too, the focus back on its row's Details. */}
      <TaskFilters filter={filter} onChange={changeFilter} onEscape={detailKey ? close : undefined} known={all} />
      {/* With no filter set, the count changes as tasks come and go, which is no news ("48 tasks",
          "49 tasks"): the count line says it only while a filter is set ("3 of 47 tasks match"). */}
      <FilterCount
        count={filtered ? count : { ...count, live: 'off' }}
        words={countWords}
        className="tasks-count"
        filtered={filtered}
        onClear={clearFilters}
      />
      <TableWrap label="Tasks table" hidden={shown.length === 0}>
        <table className="tasks">
          <caption className="sr-only">Tasks</caption>
          <thead>
            <tr>
              {/* Each column's width is its header's (styles.css, `table.tasks`), not its rows': the
                  rows drawn change as the page scrolls, and the columns must not move with them. */}
              {TASK_COLUMNS.map((title) => (
                <th
                  scope="col"
                  key={title}
                  className={`${columnClass(title)}${WIDE_ONLY_COLUMNS.has(title) ? ' wide-only' : ''}`}
                >
                  {title}
                </th>
              ))}
              <th scope="col" className="column-actions">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          {/* Hidden screens render no rows: their size is unknown and nobody sees them. */}
          {active ? (
            <VirtualRows
              items={shown}
              waiting={waiting}
              notFetched={notFetched}
              held={held}
              live={live}
              openKey={detailKey}
              scrollPlace={returned?.scrollY ?? 0}
              backTo={backTo}
              onBack={backDone}
              failures={failures}
              onOpen={open}
              onCancel={cancel}
              onDismiss={dismiss}
            />
          ) : (
            <tbody />
          )}
        </table>
      </TableWrap>
    </>
  );
}

function VirtualRows({
  items,
  waiting,
  notFetched,
  held,
  live,
  openKey,
  scrollPlace,
  backTo,
  onBack,
  failures,
  onOpen,
  onCancel,
  onDismiss
}: {
  items: TaskItem[];
  /** What the Inbox waits on the person for (see `waitingTasks`). */
  waiting: ReadonlySet<string>;
  /** Why the servers of some of them will not fetch the answer (see `notFetchedTasks`). */
  notFetched: ReadonlyMap<string, NotFetched>;
  /** The person's answers held for their undo window, by task (see `heldTasks`). */
  held: ReadonlyMap<string, HeldAnswer>;
  live: Record<string, LiveStream>;
  openKey: string | undefined;
  /** Where the page is scrolled to as the rows come (the screen shows): its top, or where a kept detail was read. */
  scrollPlace: number;
  /** The row a detail closed gives the focus back to: scrolled to where it was (its `top`), or into sight. */
  backTo: RowPlace | undefined;
  /** `backTo` was seen to. */
  onBack: () => void;
  failures: Record<string, Failure>;
  onOpen: (key: string) => void;
  onCancel: (item: TaskItem) => void;
  onDismiss: (key: string) => void;
}) {
  const body = useRef<HTMLTableSectionElement>(null);
  const [margin, setMargin] = useState(0);
  useLayoutEffect(() => {
    const top = body.current?.getBoundingClientRect().top;
    if (top !== undefined) setMargin(top + window.scrollY);
  }, [items.length, openKey]);
  const virtualizer = useWindowVirtualizer({
    count: items.length,
    estimateSize: () => ESTIMATED_ROW_PX,
    overscan: 10,
    scrollMargin: margin,
    getItemKey: (index) => items[index]!.key,
    // The rows mount as the screen shows, read in the same render as the screen left before it:
    // the page's scroll then is that screen's (Tools far down), and the virtualizer, which writes
    // its offset to the page as it starts and tries again as the page grows, held the Tasks screen
    // there, a task's detail and its heading above the view. A screen shown anew starts at its top,
    // or with the detail it kept where the person left it.
    initialOffset: scrollPlace
  });
  /**
   * The row whose Details is to take the focus once it is drawn (see `backTo`), and where the
   * focus was as the detail closed (the page, or Search, whose Escape closed it).
   */
  const focusDue = useRef<{ key: string; from: Element | null } | undefined>(undefined);
  useLayoutEffect(() => {
    if (!backTo) return;
    onBack();
    const index = items.findIndex((item) => item.key === backTo.key);
    const measured = virtualizer.measurementsCache[index];
    const top = body.current && body.current.getBoundingClientRect().top + window.scrollY;
    if (!measured || top === null) {
      document.getElementById('heading-tasks')?.focus();
      return;
    }
    // Where the row is on the page now the detail has gone: the list's own top read afresh (the
    // virtualizer's `scrollMargin` is still the one the detail above it made).
    const rowTop = top + measured.start - virtualizer.options.scrollMargin;
    const inSight = rowTop >= window.scrollY && rowTop + measured.size <= window.scrollY + window.innerHeight;
    const to =
      backTo.top !== undefined
        ? rowTop - backTo.top
        : inSight
          ? window.scrollY
          : rowTop - (window.innerHeight - measured.size) / 2;
    focusDue.current = { key: backTo.key, from: document.activeElement };
    virtualizer.scrollToOffset(Math.max(0, to));
  }, [backTo]);
  const rows = virtualizer.getVirtualItems();
  // Once drawn, the row's Details takes the focus, unless the person put it somewhere meanwhile.
  useLayoutEffect(() => {
    const due = focusDue.current;
    const details =
      due && body.current?.querySelector<HTMLElement>(`tr[data-task-key="${CSS.escape(due.key)}"] button`);
    if (!due || !details) return;
    focusDue.current = undefined;
    const focus = document.activeElement;
    if (focus === due.from || !focus || focus === document.body || !document.contains(focus))
      details.focus({ preventScroll: true });
  });
  const before = rows.length > 0 ? rows[0]!.start - margin : 0;
  const after = rows.length > 0 ? virtualizer.getTotalSize() - (rows.at(-1)!.end - margin) : 0;
  // The spacers are one cell each: one that spanned every column made the columns a narrow window
  // leaves out (see WIDE_ONLY_COLUMNS) columns still, which took a share of the fixed layout's room.
  return (
    <tbody ref={body}>
      {before > 0 ? (
        <tr aria-hidden="true" className="spacer">
          <td style={{ height: before, padding: 0, border: 0 }} />
        </tr>
      ) : null}
      {rows.map((row) => {
        const item = items[row.index]!;
        return (
          <TaskRow
            key={row.key}
            index={row.index}
            item={item}
            live={live[item.taskId]}
            waitsOnYou={waitsOnYou(item, waiting)}
            notFetched={notFetchedOf(item, notFetched)}
            held={heldAnswerOf(item, held)}
            rowRef={virtualizer.measureElement}
            open={item.key === openKey}
            failure={failures[item.key]}
            onOpen={onOpen}
            onCancel={onCancel}
            onDismiss={onDismiss}
          />
        );
      })}
      {after > 0 ? (
        <tr aria-hidden="true" className="spacer">
          <td style={{ height: after, padding: 0, border: 0 }} />
        </tr>
      ) : null}
    </tbody>
  );
}
