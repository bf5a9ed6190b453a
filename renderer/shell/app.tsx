import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { ConversationSummary } from '../../app/contract/assistant.js';
import { AssistantScreen } from '../assistant/assistant-screen.js';
import { AuditScreen } from '../audit/audit-screen.js';
import { HistoryScreen } from '../history/history-screen.js';
import { InboxScreen } from '../inbox/inbox-screen.js';
import { ProvidersScreen } from '../providers/providers-screen.js';
import { ServersScreen } from '../servers/servers-screen.js';
import { listsFreshness } from '../store/desk-state.js';
import type { DeskStore } from '../store/desk-store.js';
import { TasksScreen } from '../tasks/tasks-screen.js';
import { taskDetailHref } from '../components/task-address.js';
import { followKeptDetail } from '../components/kept-detail.js';
import { historyHref } from '../tools/last-call.js';
import { ToolsScreen, type ToolsRequest } from '../tools/tools-screen.js';
import type { Announcer } from './announcer.js';
import { Banners, ConnectionNotice } from './banners.js';
import { ScreenBoundary } from './screen-boundary.js';
import { ConfirmDialog, Confirmer } from './confirm-dialog.js';
import { DeskContext, useDesk, useDeskState, type Desk, type ToolCallAgain } from './desk-context.js';
import { useDeskNotifications } from './desk-notifications.js';
import { LiveRegion } from './live-region.js';
import { UnansweredNotices } from './unanswered-notices.js';
import { useStickyTop } from './sticky-top.js';
import { SCREEN_TITLES, SCREENS, useScreen, type Screen } from './use-screen.js';

/** Props of {@link App}. */
export interface AppProps {
  store: DeskStore;
  announcer: Announcer;
  openExternal: (url: string) => void;
  /** The element the app renders into: it says when the first lists are in (`data-ready`). */
  root: HTMLElement;
}

/** The whole UI: navigation, the screens, banners, the live region and the confirmation dialog. */
export function App({ store, announcer, openExternal, root }: AppProps) {
  const confirmer = useMemo(() => new Confirmer(), []);
  const [toolsRequest, setToolsRequest] = useState<ToolsRequest | undefined>(undefined);
  const openTools = useCallback((serverId: string, call?: ToolCallAgain) => {
    setToolsRequest((old) => ({ serverId, nonce: (old?.nonce ?? 0) + 1, ...(call && { call }) }));
    location.hash = '#tools';
  }, []);
  const desk = useMemo<Desk>(
    () => ({
      store,
      client: store.client,
      announce: announcer.announce,
      confirm: confirmer.ask,
      openExternal,
      openTools
    }),
    [store, announcer, confirmer, openExternal, openTools]
  );
  return (
    <DeskContext.Provider value={desk}>
      <Shell root={root} toolsRequest={toolsRequest} />
      <LiveRegion announcer={announcer} />
      <ConfirmDialog confirmer={confirmer} />
    </DeskContext.Provider>
  );
}

/** Tool calls of the assistant's conversations that wait for the person's approval. */
function pendingApprovals(summaries: readonly ConversationSummary[]): number {
  let count = 0;
  for (const summary of summaries) count += summary.pendingApprovals;
  return count;
}

function Shell({ root, toolsRequest }: { root: HTMLElement; toolsRequest: ToolsRequest | undefined }) {
  const ready = useDeskState((state) => state.ready);
  // The Inbox shows both, and both wait on the person: its questions, and requests waiting for
  // them to finish in the browser (nothing else tells a person on another screen of those).
  // Not those whose answer waits out its undo window (see `HeldAnswers`): the person answered them.
  const { store } = useDesk();
  const held = useSyncExternalStore(store.held.subscribe, store.held.getSnapshot);
  const questions = useDeskState((state) => state.inbox.filter((item) => !(item.id in held)).length);
  const waiting = questions + useDeskState((state) => Object.keys(state.waitingExchanges).length);
  const approvals = useDeskState((state) => pendingApprovals(state.assistant.summaries));
  // Counts heard before contact was lost, or not brought up to date by the last fetch of the
  // lists (it failed, or the one after a reconnect is not in yet), are not to pass for current.
  const freshness = useDeskState(listsFreshness);
  const stale = freshness !== 'current';
  const asOf = freshness === 'no-contact' ? 'As of when contact was lost' : 'As of the last update';
  const asOfLabel = stale ? `, ${asOf.toLowerCase()}` : '';
  const { screen, moves, sub } = useScreen();
  useDeskNotifications();
  /** The details Tasks and History keep while another screen is shown: their links go back to them. */
  const keptTask = useRef<string | undefined>(undefined);
  const keptEntry = useRef<string | undefined>(undefined);
  const backToKept = useMemo(
    () => ({
      tasks: followKeptDetail(keptTask, taskDetailHref),
      history: followKeptDetail(keptEntry, historyHref)
    }),
    []
  );
  const headings = useRef(new Map<Screen, HTMLHeadingElement>());
  const headingRef = useCallback(
    (name: Screen) => (element: HTMLHeadingElement | null) => {
      if (element) headings.current.set(name, element);
    },
    []
  );
  const refs = useMemo(
    () =>
      Object.fromEntries(SCREENS.map((name) => [name, headingRef(name)])) as Record<
        Screen,
        (e: HTMLHeadingElement | null) => void
      >,
    [headingRef]
  );

  useEffect(() => {
    if (!ready) return;
    root.setAttribute('aria-busy', 'false');
    root.dataset.ready = 'true';
  }, [ready, root]);
  useEffect(() => {
    // What waits on the person anywhere: what the Inbox badge counts and tool calls in the assistant's chats.
    // No count that may be stale: the tab says contact is lost, or that the lists are not up to date, instead.
    const all = waiting + approvals;
    const count =
      freshness === 'no-contact'
        ? '(no contact) '
        : freshness === 'not-up-to-date'
          ? '(not up to date) '
          : all > 0
            ? `(${all}) `
            : '';
    document.title = `${count}${SCREEN_TITLES[screen]} · Taskdesk`;
  }, [waiting, approvals, screen, freshness]);
  /** The last move to another screen whose heading took the focus. */
  const focusedMove = useRef(0);
  const topArea = useStickyTop();
  useEffect(() => {
    // Only a move to another screen: closing a detail (`#tasks/<key>` back to `#tasks`) leaves the
    // focus where the screen puts it (the row whose Details opened it), not on the heading.
    if (moves === focusedMove.current) return;
    focusedMove.current = moves;
    // An address with a part after the screen (`#tasks/<key>`) opens a detail that takes focus
    // itself; so may the screen as it shows (Call again… puts it in the tool's form), and keeps it.
    if (sub) return;
    if (document.activeElement?.closest(`#screen-${screen}`)) return;
    headings.current.get(screen)?.focus();
  }, [moves, screen, sub]);

  const section = (name: Screen, children: ReactNode) => (
    <section id={`screen-${name}`} className="screen" aria-labelledby={`heading-${name}`} hidden={screen !== name}>
      <ScreenBoundary name={name} title={SCREEN_TITLES[name]} headingRef={refs[name]}>
        {children}
      </ScreenBoundary>
    </section>
  );

  return (
    <>
      {/* The notices ride with the bar: a question withdrawn, or contact lost, while the page is scrolled is told in sight. */}
      <div className="top-area" ref={topArea}>
        <header className="topbar">
          <h1>Taskdesk</h1>
          <nav className="sections" aria-label="Sections">
            <ul>
              {SCREENS.map((name) => (
                <li key={name}>
                  <a
                    href={`#${name}`}
                    data-screen={name}
                    aria-current={screen === name ? 'page' : undefined}
                    onClick={name === 'tasks' || name === 'history' ? backToKept[name] : undefined}
                  >
                    {SCREEN_TITLES[name]}
                    {/* No badge while nothing waits: a hidden "0" took the tab's room and was in its text. */}
                    {name === 'inbox' && waiting > 0 ? (
                      <span
                        className="badge"
                        data-stale={stale || undefined}
                        title={stale ? asOf : undefined}
                        aria-label={`${waiting} waiting${asOfLabel}`}
                      >
                        {waiting}
                      </span>
                    ) : name === 'assistant' && approvals > 0 ? (
                      <span
                        className="badge"
                        data-stale={stale || undefined}
                        title={stale ? asOf : undefined}
                        aria-label={`${approvals === 1 ? '1 tool call' : `${approvals} tool calls`} to approve${asOfLabel}`}
                      >
                        {approvals}
                      </span>
                    ) : null}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        </header>
        <ConnectionNotice />
        <UnansweredNotices />
      </div>
      <Banners />
      <main id="main" tabIndex={-1}>
        {section(
          'assistant',
          <AssistantScreen headingRef={refs.assistant} address={screen === 'assistant' ? sub : undefined} />
        )}
        {section(
          'inbox',
          <InboxScreen
            active={screen === 'inbox'}
            headingRef={refs.inbox}
            openId={screen === 'inbox' ? sub : undefined}
          />
        )}
        {section(
          'tasks',
          <TasksScreen
            active={screen === 'tasks'}
            headingRef={refs.tasks}
            openKey={screen === 'tasks' ? sub : undefined}
            keptDetail={keptTask}
          />
        )}
        {section(
          'history',
          <HistoryScreen
            active={screen === 'history'}
            headingRef={refs.history}
            address={screen === 'history' ? sub : undefined}
            keptDetail={keptEntry}
          />
        )}
        {section(
          'tools',
          <ToolsScreen
            active={screen === 'tools'}
            request={toolsRequest}
            headingRef={refs.tools}
            address={screen === 'tools' ? sub : undefined}
          />
        )}
        {section(
          'servers',
          <ServersScreen headingRef={refs.servers} address={screen === 'servers' ? sub : undefined} />
        )}
        {section(
          'providers',
          <ProvidersScreen headingRef={refs.providers} address={screen === 'providers' ? sub : undefined} />
        )}
        {section('audit', <AuditScreen active={screen === 'audit'} headingRef={refs.audit} />)}
      </main>
    </>
  );
}
