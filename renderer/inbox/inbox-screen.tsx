import {
  Fragment,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore
} from 'react';
import type { InboxItem } from '../../app/contract/host-api.js';
import { NotificationsControl } from '../shell/desk-notifications.js';
import { FailedRunNotices } from './failed-runs.js';
import { useDesk, useDeskState } from '../shell/desk-context.js';
import { InboxItemCard } from './inbox-item-card.js';
import { InboxKeys, KeyHintContext, LIVE_CARD, type KeyHint } from './inbox-keys.js';
import { HeldAnswerLine } from './held-answer-line.js';
import { LiveStreams } from './live-streams.js';
import { DeskWelcome, InboxGuide } from './inbox-guide.js';
import { InInbox } from './answer-place.js';
import { answeredTaskKey } from './answer-taken.js';
import { broughtBackText } from './answer-sent-words.js';
import { useUnloadedWords } from '../components/unloaded-words.js';
import { ExchangesWaiting } from './exchange-waiting-card.js';
import { focusCard } from './show-card.js';
import { apartLast, earlierProcessIds } from './answer-delivery.js';
import type { LiveStream } from '../store/desk-state.js';

/** How many cards the inbox shows at first, and how many more each "Show more" adds. */
export const INBOX_PAGE = 50;

/**
 * The Inbox screen: questions servers are waiting on, oldest first, a page of cards at a time.
 * Those their servers will not fetch an answer for (asked of a stdio server's earlier process)
 * come after the others, under a line that says why: an identical question asked again is the
 * one to answer, and comes first.
 *
 * Cards are keyed by item id, so a half-filled form survives other items arriving or going.
 * When the card holding focus goes (answered or withdrawn), focus moves to the next card itself,
 * so the inbox can be worked through from the keyboard: its keys (a, d, Enter to open it) act on
 * that card. Not to the card's first control: a key meant for the Inbox would then be typed into
 * it (a `d` into a name field, an `a` onto an approval's model name, which Enter then ran).
 */
export function InboxScreen({
  active,
  headingRef,
  openId
}: {
  active: boolean;
  headingRef: (element: HTMLHeadingElement | null) => void;
  /** The card the address names (`#inbox/<id>`, a link from a task's detail): it takes the focus. */
  openId?: string | undefined;
}) {
  const items = useDeskState((state) => state.inbox);
  const servers = useDeskState((state) => state.servers);
  // Which items are apart, as a key: the list is ordered anew only when that changes (a server's
  // state changes often), so the effects below see a new list only when the cards change.
  const apartKey = earlierProcessIds(items, servers).join('\n');
  const apartIds = useMemo(() => new Set(apartKey === '' ? [] : apartKey.split('\n')), [apartKey]);
  const shownItems = useMemo(() => apartLast(items, apartIds), [items, apartIds]);
  const { store, announce } = useDesk();
  /** Answers in their undo window: each item's line stands in its card's place (the card is kept, hidden). */
  const held = useSyncExternalStore(store.held.subscribe, store.held.getSnapshot);
  /** The cards as the focus and the keys go through them: those not held. */
  const inbox = useMemo(() => shownItems.filter((item) => !(item.id in held)), [shownItems, held]);
  const unloaded = useUnloadedWords('what waits for you');
  const lastAnswered = useDeskState((state) => state.lastAnswered);
  // The card went with the answer: the line is the way on to the task the question was for.
  const answeredTask = useDeskState(answeredTaskKey);
  const exchangesWaiting = useDeskState((state) => Object.keys(state.waitingExchanges).length);
  const empty = shownItems.length === 0 && exchangesWaiting === 0;
  const [shown, setShown] = useState(INBOX_PAGE);
  /** What the key pressed on the heading left to do, shown on the card it went to. */
  const [keyHint, setKeyHint] = useState<KeyHint | undefined>(undefined);
  const list = useRef<HTMLDivElement>(null);
  /** Every card, waiting requests and questions alike: where the Inbox's keys move. */
  const cards = useRef<HTMLDivElement>(null);
  const heading = useRef<HTMLHeadingElement | null>(null);
  /** The line of what the last answer did, when there is one. */
  const answeredLine = useRef<HTMLParagraphElement>(null);
  /** The card the focus moved to when the card above it went, before the line of its answer came. */
  const handedOn = useRef<HTMLElement | undefined>(undefined);
  /** The card that last held focus, and the list as last rendered. */
  const focused = useRef<string | undefined>(undefined);
  const previous = useRef(inbox);
  /** The focus went to the heading for want of a next card, and is still there. */
  const parked = useRef(false);
  /**
   * A model request approved from its card, and where its focus went as the card left (the next
   * card): its answer to review takes the focus when it comes, if the person has not moved on.
   */
  const approved = useRef<{ item: InboxItem; handedTo: Element } | undefined>(undefined);
  // A key pressed, or the focus moved, since is the person at work where they are (a key may
  // leave the focus in place: k on the first card): the review's arrival is only said.
  useEffect(() => {
    const movedOn = () => (approved.current = undefined);
    document.addEventListener('keydown', movedOn, true);
    document.addEventListener('focusin', movedOn, true);
    return () => {
      document.removeEventListener('keydown', movedOn, true);
      document.removeEventListener('focusin', movedOn, true);
    };
  }, []);
  const visible = shownItems.slice(0, shown);
  // What the last answer did is said where it was given, not kept above whatever card comes next
  // on a later visit: leaving the Inbox clears it, and so does coming back (a line set meanwhile,
  // by a run's end or an answer given elsewhere, is not news of this visit). A card that goes
  // otherwise clears it too (see below).
  useEffect(() => {
    store.dispatch({ type: 'inbox-answered', text: undefined });
  }, [active, store]);

  // A link to a card (`#inbox/<id>`) puts the focus on it; one answered or withdrawn meanwhile
  // leaves it on the heading, which the screen focuses for an address without a card.
  const index = openId === undefined ? -1 : shownItems.findIndex((item) => item.id === openId);
  if (index >= shown) setShown(Math.ceil((index + 1) / INBOX_PAGE) * INBOX_PAGE);
  /** The address whose card took the focus: once for each, not followed as the list changes. */
  const opened = useRef<string | undefined>(undefined);
  const present = index !== -1;
  useLayoutEffect(() => {
    if (openId === undefined) {
      opened.current = undefined;
      return;
    }
    if (opened.current === openId) return;
    const card = list.current?.querySelector<HTMLElement>(`[data-inbox-id="${CSS.escape(openId)}"]`);
    // A card whose answer is held is hidden behind its line: the line's Undo (or, past its
    // window, the line) takes the focus, saying what became of the question.
    const line = list.current?.querySelector<HTMLElement>(`.inbox-held[data-held-id="${CSS.escape(openId)}"]`);
    if (line) {
      opened.current = openId;
      (line.querySelector('button') ?? line).focus({ preventScroll: true });
      line.scrollIntoView({ block: 'nearest' });
    } else if (card) {
      opened.current = openId;
      focusCard(card);
    } else if (document.activeElement === document.body) heading.current?.focus();
    // Until the card is there (a reload at this address: the Inbox is not loaded yet), it is
    // looked for again each time the Inbox changes.
  }, [openId, present]);

  useLayoutEffect(() => {
    const card = handedOn.current;
    if (lastAnswered === undefined || card === undefined) return;
    handedOn.current = undefined;
    if (document.activeElement === card) focusCard(card, answeredLine.current);
  }, [lastAnswered]);

  /**
   * A waiting-for-you card that held the focus goes: the first question takes it, else the heading
   * does until one comes (the link its server may ask for again, a moment later).
   */
  const focusAfterWaitingCard = useCallback(() => {
    const first = list.current?.querySelector<HTMLElement>(LIVE_CARD);
    if (first) first.focus();
    else {
      // Called while React commits (the card's cleanup), when the heading's callback ref may be
      // between its old null and its new element: the element itself, then.
      (heading.current ?? document.getElementById('heading-inbox'))?.focus();
      parked.current = true;
    }
  }, []);

  /**
   * A model the person stopped from its live card, which goes with its Stop: the request back
   * (under "ask", the run having ended "Stopped by you") takes the focus, at once if it is back
   * already; else the heading holds it until the request (or the next card) comes.
   */
  const focusAfterStop = useCallback(
    (stream: LiveStream, pressedAt: string) => {
      // A stream that is no task names no item: of its server's requests stopped since the press,
      // the one stopped last is this one (another, stopped earlier and still waiting, must not
      // take the focus).
      const back = store
        .getState()
        .inbox.filter(
          (item) =>
            item.serverId === stream.serverId &&
            (stream.taskId === undefined || item.taskId === stream.taskId) &&
            item.draft?.lastFailure?.stopped === true &&
            item.draft.lastFailure.at >= pressedAt
        )
        .reduce<InboxItem | undefined>(
          (latest, item) =>
            latest === undefined || item.draft!.lastFailure!.at > latest.draft!.lastFailure!.at ? item : latest,
          undefined
        );
      const card = back && list.current?.querySelector<HTMLElement>(`[data-inbox-id="${CSS.escape(back.id)}"]`);
      if (card) {
        focusCard(card);
        return;
      }
      heading.current?.focus();
      parked.current = true;
    },
    [store]
  );

  useLayoutEffect(() => {
    const before = previous.current;
    previous.current = inbox;
    // A card went that the line is not about (withdrawn, or answered elsewhere): the line would
    // read as news of it, above the cards that are left. A run still going keeps its line: it
    // says what is happening now, and says when it ends.
    const { lastAnswered: line, answeredItem, answeredRun } = store.getState();
    if (
      line !== undefined &&
      answeredRun === undefined &&
      before.some((old) => old.id !== answeredItem?.id && !inbox.some((item) => item.id === old.id))
    )
      store.dispatch({ type: 'inbox-answered', text: undefined });
    // A card that comes while the focus waits on the heading (an approval's Review, or the
    // request back when its run failed; the next question) takes it, as the next card would have.
    const review = approved.current;
    if (review) {
      const added = inbox.find(
        (item) =>
          (item.kind === 'sampling-review' || item.draft?.lastFailure !== undefined) &&
          item.serverId === review.item.serverId &&
          (review.item.taskId === undefined || item.id === review.item.id) &&
          !before.some((old) => old.id === item.id && sameStep(old, item))
      );
      const card = added && list.current?.querySelector<HTMLElement>(`[data-inbox-id="${CSS.escape(added.id)}"]`);
      if (card) {
        approved.current = undefined;
        if (document.activeElement === review.handedTo) {
          parked.current = false;
          focusCard(card);
          return;
        }
      }
    }
    if (parked.current && document.activeElement === heading.current) {
      const added = inbox.find((item) => !before.some((old) => old.id === item.id));
      const card = added && list.current?.querySelector<HTMLElement>(`[data-inbox-id="${CSS.escape(added.id)}"]`);
      if (card) {
        parked.current = false;
        focusCard(card);
        return;
      }
    }
    const last = focused.current;
    if (!last || inbox.some((item) => item.id === last)) return;
    focused.current = undefined;
    const index = Math.max(
      0,
      before.findIndex((item) => item.id === last)
    );
    // Focus left with the card only if nothing else took it meanwhile. A card held for its undo
    // window is hidden, not gone: the focus in it is left behind too.
    const active = document.activeElement;
    if (active && active !== document.body && document.contains(active) && !active.closest('[hidden]')) return;
    const cards = list.current?.querySelectorAll<HTMLElement>(LIVE_CARD) ?? [];
    const next = cards[Math.min(index, cards.length - 1)];
    // The line of what the answer did is over the cards: in sight with the next card, if it fits.
    // The host's word that the card went may come before the reply to the answer (see
    // answerTaken): the line then comes after, and is brought in sight as it does.
    if (next) {
      // Withdrawn from under the person (not answered): the next card has not been looked at, and
      // a key meant for the one that went must not answer it (see `InboxKeys`, `data-unseen`).
      if (store.getState().lastWithdrawn?.includes(last) === true) next.dataset.unseen = 'withdrawn';
      focusCard(next, answeredLine.current);
      handedOn.current = answeredLine.current ? undefined : next;
    } else {
      heading.current?.focus();
      parked.current = true;
    }
    const left = before.find((item) => item.id === last);
    if (left?.kind === 'sampling-approval' && document.activeElement)
      approved.current = { item: left, handedTo: document.activeElement };
  }, [inbox, store]);

  /**
   * The focus is in a held answer's line as its Undo or the line goes (its window ended, the
   * answer went, the question was withdrawn): the next card takes it, as it did when the answer
   * was given, else the one before, else the heading. Chosen now, while the line is in place;
   * given once React is done, unless something took the focus meanwhile (Undo's card coming back).
   */
  const focusAfterHeldLine = useCallback((line: HTMLElement) => {
    const cards = [...(list.current?.querySelectorAll<HTMLElement>(LIVE_CARD) ?? [])].filter(
      (card) => !line.contains(card)
    );
    const chosen =
      cards.find((card) => (line.compareDocumentPosition(card) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0) ??
      cards.at(-1);
    queueMicrotask(() => {
      const active = document.activeElement;
      if (active && active !== document.body && document.contains(active)) return;
      const next = chosen?.isConnected ? chosen : list.current?.querySelector<HTMLElement>(LIVE_CARD);
      if (next) {
        parked.current = false;
        focusCard(next);
      } else {
        heading.current?.focus();
        parked.current = true;
      }
    });
  }, []);

  /** The item an Undo brought back: it takes the focus once its card shows again. */
  const restoring = useRef<string | undefined>(undefined);
  const undo = useCallback(
    (id?: string) => {
      const back = store.held.undo(id);
      if (back === undefined) return false;
      restoring.current = back.id;
      // Said as the held line was: a screen reader hears the card came back, and which.
      announce(broughtBackText(back.named));
      return true;
    },
    [store, announce]
  );
  useLayoutEffect(() => {
    const id = restoring.current;
    if (id === undefined || id in held) return;
    restoring.current = undefined;
    const card = list.current?.querySelector<HTMLElement>(`[data-inbox-id="${CSS.escape(id)}"]`);
    if (card) {
      parked.current = false;
      focusCard(card);
    }
  }, [held]);

  // The page closing (a reload, the window closed): what the person declined or dismissed goes
  // now, as they meant it to, rather than waiting for a window that will not end. The host
  // call starts at once (a fetch in browser mode, an IPC message in the app) as the page goes;
  // should it not get out, the question is only left unanswered, in the Inbox at the next open.
  useEffect(() => {
    const flush = () => store.held.flush();
    window.addEventListener('pagehide', flush);
    return () => window.removeEventListener('pagehide', flush);
  }, [store]);

  return (
    <>
      <h2
        id="heading-inbox"
        tabIndex={-1}
        onBlur={() => (parked.current = false)}
        ref={(element) => {
          heading.current = element;
          headingRef(element);
        }}
      >
        Inbox
      </h2>
      <DeskWelcome />
      <p className="lede">Forms, links and model requests that servers are waiting on.</p>
      <NotificationsControl />
      <FailedRunNotices />
      <p className="muted small-text">
        Press <kbd>?</kbd> for the keys of the Inbox.
      </p>
      <InboxKeys list={cards} active={active} onHint={setKeyHint} onUndo={undo} />
      <LiveStreams onStopped={focusAfterStop} />
      {/* Not a live region: the answer was announced when it was sent. */}
      {lastAnswered ? (
        <p className="inbox-answered muted" ref={answeredLine}>
          {lastAnswered}
          {answeredTask !== undefined ? (
            <>
              {' '}
              <a href={`#tasks/${encodeURIComponent(answeredTask)}`}>Go to its task</a>.
            </>
          ) : null}
        </p>
      ) : null}
      <p className="empty" hidden={!empty && unloaded === undefined}>
        {unloaded ?? 'Nothing is waiting for you.'}
      </p>
      {empty && unloaded === undefined ? <InboxGuide /> : null}
      {/* The keys (j, k, a…) go through every card: those waiting for the person, then the questions. */}
      <div ref={cards}>
        <KeyHintContext.Provider value={keyHint}>
          <ExchangesWaiting onFocusLeaving={focusAfterWaitingCard} />
          <div
            className="cards"
            ref={list}
            onFocus={(event) => {
              const card = (event.target as HTMLElement).closest<HTMLElement>('[data-inbox-id]');
              if (card?.dataset.inboxId) focused.current = card.dataset.inboxId;
            }}
          >
            <InInbox.Provider value={true}>
              {visible.map((item, at) => (
                <Fragment key={item.id}>
                  {apartIds.has(item.id) && !apartIds.has(visible[at - 1]?.id ?? '') ? (
                    <p className="inbox-apart muted">
                      Asked before Taskdesk started their servers again: those servers run now as new processes, and
                      will not fetch these answers.
                    </p>
                  ) : null}
                  {held[item.id] ? (
                    <HeldAnswerLine held={held[item.id]!} onUndo={undo} onFocusGoing={focusAfterHeldLine} />
                  ) : null}
                  {/* Kept, hidden, while its answer is held: Undo brings it back as it was, typing and all. */}
                  <div className="inbox-slot" hidden={item.id in held}>
                    <InboxItemCard item={item} />
                  </div>
                </Fragment>
              ))}
            </InInbox.Provider>
          </div>
        </KeyHintContext.Provider>
      </div>
      {shownItems.length > shown ? (
        <div className="actions">
          <p className="muted">
            Showing {shown} of {shownItems.length}.
          </p>
          <button type="button" className="inbox-show-more" onClick={() => setShown((count) => count + INBOX_PAGE)}>
            Show {Math.min(INBOX_PAGE, shownItems.length - shown)} more
          </button>
        </div>
      ) : null}
    </>
  );
}

/** Whether two items under one id are the same step of a request (not its review, nor the request back after a failed run). */
function sameStep(a: InboxItem, b: InboxItem): boolean {
  return a.kind === b.kind && a.draft?.lastFailure?.at === b.draft?.lastFailure?.at;
}
