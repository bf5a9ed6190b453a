import type { DeskState, WithdrawnNotice } from '../store/desk-state.js';
import { useEffect, useId, useRef, useState } from 'react';
import { useDesk, useDeskState } from './desk-context.js';
import { withdrawnNoticeSentence, withdrawnNoun } from '../components/request-title.js';
import { NoticeClose, NoticeStack, type StackedNotice } from './notice-stack.js';
import { CopyButton } from '../components/copy-button.js';
import { useGoneOnMovingOn } from './withdrawn-moved-on.js';

/** How much of a withdrawn question a notice quotes: enough to tell which (as a task's Details names it), in two lines at 800 px. */
const QUOTED_CHARS = 60;

/**
 * Questions that ended before anyone answered: a task's that expired (from History), and an
 * ordinary request its server withdrew. Said once each, until the person closes it; a withdrawn
 * question's goes by itself too once they have moved on, having had it in sight (see
 * {@link useGoneOnMovingOn}; the stack tells which it shows), unless it holds what they had
 * written. Several keep to a compact stack (see {@link NoticeStack}).
 *
 * Each is said once, through the Desk's live region: a withdrawn question by the store as it goes,
 * an expired one here as it comes (see {@link useExpiredSaid}). The strip is no live region of
 * its own, which would say them again.
 */
export function UnansweredNotices() {
  const { store } = useDesk();
  const unanswered = useDeskState((state) => state.unanswered);
  const withdrawn = useDeskState((state) => state.withdrawn);
  const shown = useGoneOnMovingOn(store, withdrawn);
  useExpiredSaid();
  if (unanswered.length === 0 && withdrawn.length === 0) return null;
  const close = (id: string) => () => store.dispatch({ type: 'notice-dismissed', id });
  const notices: StackedNotice[] = [
    ...unanswered.map((entry) => ({
      key: entry.id,
      notice: <ExpiredNotice entry={entry} close={close(entry.id)} />
    })),
    ...withdrawn.map((notice) => ({
      key: notice.id,
      notice: <WithdrawnNoticeShown notice={notice} close={close(notice.id)} />
    }))
  ];
  // Close all closes what holds nothing of the person's: a notice with what they typed in a
  // withdrawn card (never sent) stays until they close it, having copied it or not.
  const closable = [
    ...unanswered.map((entry) => entry.id),
    ...withdrawn.filter((notice) => notice.draft === undefined).map((notice) => notice.id)
  ];
  const kept = notices.length - closable.length;
  const closeAll =
    closable.length >= 2
      ? {
          label:
            kept === 0
              ? `Close all ${closable.length} notices`
              : `Close ${closable.length} notices, not ${kept === 1 ? 'the one' : `the ${kept}`} with what you wrote`,
          closes: closable,
          // The focus goes on to a notice kept, or to the heading (see NoticeStack).
          close: () => {
            for (const id of closable) store.dispatch({ type: 'notice-dismissed', id });
          }
        }
      : undefined;
  return (
    <div className="banners notices">
      <NoticeStack notices={notices} noun="notice" closeAll={closeAll} onShown={shown} />
    </div>
  );
}

/** A question that expired unanswered: its words, and its Close (described by them, see {@link NoticeClose}). */
function ExpiredNotice({ entry, close }: { entry: DeskState['unanswered'][number]; close: () => void }) {
  const textId = useId();
  return (
    <div className="banner banner-warning notice-unanswered" data-history-id={entry.id}>
      <p id={textId}>
        “{entry.title}” from {entry.serverName} expired unanswered — see <a href="#history">History</a>.
      </p>
      {/* "Close", not "Dismiss": beside an Inbox card, Dismiss answers the server (no choice made). */}
      <NoticeClose close={close} describedBy={textId} />
    </div>
  );
}

/** A withdrawn question's notice: its words, what the person had written if anything, and its Close (described by the words). */
function WithdrawnNoticeShown({ notice, close }: { notice: WithdrawnNotice; close: () => void }) {
  const textId = useId();
  return (
    <div className="banner banner-warning notice-withdrawn" data-inbox-id={notice.id}>
      <div className="notice-body">
        <WithdrawnText notice={notice} id={textId} />
        {notice.draft !== undefined ? <WithdrawnDraft draft={notice.draft} /> : null}
      </div>
      <NoticeClose close={close} describedBy={textId} />
    </div>
  );
}

/**
 * Says each question that expired unanswered once, as its notice comes (History tells of it; no
 * host event the store announces does): in the notice's words.
 */
function useExpiredSaid(): void {
  const { announce } = useDesk();
  const unanswered = useDeskState((state) => state.unanswered);
  const said = useRef(new Set<string>());
  useEffect(() => {
    for (const entry of unanswered) {
      if (said.current.has(entry.id)) continue;
      said.current.add(entry.id);
      announce(`“${entry.title}” from ${entry.serverName} expired unanswered.`);
    }
    // Closed ones are not shown again: forgotten.
    for (const id of said.current) if (!unanswered.some((entry) => entry.id === id)) said.current.delete(id);
  }, [unanswered, announce]);
}

/**
 * A withdrawn question's notice in words: short (two lines at 800 px, where three left less of
 * the screen below the strip), its question quoted only as far as tells which, with a Show all
 * that shows the whole sentence in its place (and a Show less back): from the keyboard and by
 * touch too, not only as the tooltip a mouse finds (the tooltip only while it is cut short).
 * History keeps the whole question. `id` is the words' (what its Close is described by).
 *
 * The button's words say what it will do, and so the state: no `aria-expanded` besides, which
 * would say it twice ("Show less of the question, expanded"); nor does it show or hide a region
 * of its own, it puts other words in place.
 */
function WithdrawnText({ notice, id }: { notice: WithdrawnNotice; id: string }) {
  const [whole, setWhole] = useState(false);
  const said = withdrawnNoticeSentence(notice);
  const short = withdrawnNoticeSentence({
    ...notice,
    message: notice.message && cutAtWord(notice.message, QUOTED_CHARS)
  });
  if (short === said) return <p id={id}>{said}</p>;
  return (
    // The button runs on after the words, a space apart, in the same paragraph, as a link would:
    // read and copied as "… before you answered. Show less", not "answered.Show less".
    <p title={whole ? undefined : said}>
      <span id={id}>{whole ? said : short}</span>{' '}
      <button type="button" className="link-button" onClick={() => setWhole(!whole)}>
        {whole ? 'Show less' : 'Show all'}
        <span className="sr-only"> of the {withdrawnNoun(notice.kind)}</span>
      </button>
    </p>
  );
}

/** `text` cut after a whole word within `max` characters, with an ellipsis; within a word only when one runs that long. */
function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/**
 * What the person had typed into the withdrawn card, never sent: shown as they wrote it (a
 * labelled, focusable block, so it can be read and selected from the keyboard) with a Copy button,
 * until the notice is dismissed.
 */
function WithdrawnDraft({ draft }: { draft: string }) {
  const labelId = useId();
  return (
    <div className="withdrawn-draft">
      {/* Copy beside the label, before the text: in a small window's strip it is in sight first. */}
      <div className="withdrawn-draft-head">
        <span id={labelId}>What you had written (not sent):</span>
        <CopyButton text={draft} label="Copy what you had written" />
      </div>
      <pre tabIndex={0} role="group" aria-labelledby={labelId}>
        {draft}
      </pre>
    </div>
  );
}
