import { createContext, useContext, useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { focusScreenHeading } from '../components/focus-screen.js';

/** One notice of a {@link NoticeStack}: what tells it from the others, and the notice itself. */
export interface StackedNotice {
  key: string;
  notice: ReactNode;
}

/**
 * Notices at the top of the Desk, kept compact so that the work stays in sight: of several, the
 * newest shows, and a button says how many more there are ("and 3 more notices") and shows them
 * all, newest first (their strip keeps a bounded height and scrolls, see `.notices` in
 * styles.css). Until then the others are `hidden`, out of the tab order and of what a screen
 * reader reads, and the button (`aria-expanded`) is the way to them; each keeps its Close.
 *
 * Newest is by when this window first showed a notice (`notices` may join lists of several
 * kinds); those shown at once keep their order, the last the newest. While the focus is in an
 * older notice (a newer one arrived as the person read or copied it), the stack stays open.
 *
 * A notice's Close is a {@link NoticeClose}: the focus goes on to the notice that comes up in its
 * place (the next one down, or the one above the last), or to the screen's heading once none is left.
 */
export function NoticeStack({
  notices,
  noun,
  closeAll,
  onShown
}: {
  notices: readonly StackedNotice[];
  noun: string;
  /** A button beside "and N more" that closes several at once: its words, and what it does. */
  closeAll?: { label: string; close: () => void } | undefined;
  /** Called with the keys of the notices shown (the newest, or all while open) as they change: not those hidden. */
  onShown?: ((keys: readonly string[]) => void) | undefined;
}) {
  const listId = useId();
  const [opened, setOpen] = useState(false);
  /** The notice the focus is in, if any: a newer one arriving must not hide it from under the focus. */
  const [focused, setFocused] = useState<string | undefined>(undefined);
  const seen = useRef({ next: 0, order: new Map<string, number>() });
  const list = useRef<HTMLDivElement>(null);
  /** The notice whose Close was pressed, and those the focus may go on to in turn once it has gone. */
  const focusNext = useRef<{ closed: string; candidates: string[] } | undefined>(undefined);
  const { order } = seen.current;
  for (const { key } of notices) if (!order.has(key)) order.set(key, seen.current.next++);
  // Only the notices shown are remembered (a long day's would pile up otherwise).
  for (const key of order.keys()) if (!notices.some((notice) => notice.key === key)) order.delete(key);
  // Down to one, the stack closes: the next pile starts compact again.
  if (opened && notices.length <= 1) setOpen(false);
  const newestFirst = [...notices].sort((a, b) => order.get(b.key)! - order.get(a.key)!);
  const open = opened || (focused !== undefined && focused !== newestFirst[0]?.key && order.has(focused));
  const more = notices.length - 1;
  const hiddenAt = (index: number) => index > 0 && !open;
  // By value: the same notices shown, told once.
  const shownKeys = JSON.stringify(newestFirst.filter((_, index) => !hiddenAt(index)).map(({ key }) => key));
  useEffect(() => {
    onShown?.(JSON.parse(shownKeys) as string[]);
  }, [shownKeys, onShown]);
  // After the render that took the closed notice away and showed the next: its Close takes the focus.
  useLayoutEffect(() => {
    const pending = focusNext.current;
    focusNext.current = undefined;
    // Still there (its Close did not take it away): the focus stays on that Close.
    if (!pending || !list.current || order.has(pending.closed)) return;
    const next = pending.candidates
      .map((key) => list.current?.querySelector(`[data-notice-key="${CSS.escape(key)}"]:not([hidden])`))
      .find((item) => item);
    const close = next?.querySelector<HTMLElement>('[data-notice-close]');
    if (close) close.focus();
    else focusScreenHeading();
  });
  const closing = (key: string): boolean => {
    const keys = newestFirst.map((notice) => notice.key);
    const at = keys.indexOf(key);
    if (at < 0 || keys.length < 2) return false;
    focusNext.current = { closed: key, candidates: [...keys.slice(at + 1), ...keys.slice(0, at).reverse()] };
    return true;
  };
  return (
    <StackContext.Provider value={closing}>
      <div
        id={listId}
        ref={list}
        className="notice-stack"
        onFocus={(event) =>
          setFocused(
            (event.target as Element).closest<HTMLElement>('[data-notice-key]')?.dataset.noticeKey ?? undefined
          )
        }
        onBlur={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget)) setFocused(undefined);
        }}
      >
        {newestFirst.map(({ key, notice }, index) => (
          <div key={key} className="notice-stack-item" data-notice-key={key} hidden={hiddenAt(index)}>
            {notice}
          </div>
        ))}
      </div>
      {more > 0 ? (
        <div className="notice-stack-actions">
          <button
            type="button"
            className="link-button notice-stack-toggle"
            aria-expanded={open}
            aria-controls={listId}
            onClick={() => setOpen(!open)}
          >
            {open ? `Show only the newest ${noun}` : `and ${more} more ${more === 1 ? noun : `${noun}s`}`}
          </button>
          {closeAll ? (
            <button type="button" className="link-button notice-stack-close-all" onClick={closeAll.close}>
              {closeAll.label}
            </button>
          ) : null}
        </div>
      ) : null}
    </StackContext.Provider>
  );
}

/**
 * Told by a notice's Close which notice it closes (by key), before it goes; true when another
 * notice is left to take the focus.
 */
const StackContext = createContext<((key: string) => boolean) | undefined>(undefined);

/**
 * A notice's Close: `close` takes the notice away, and the focus, which would be left on nothing,
 * goes on to the notice that comes up next in the stack (its Close), or to the screen's heading
 * when none is left (see {@link focusScreenHeading}).
 */
export function NoticeClose({ close }: { close: () => void }) {
  const closing = useContext(StackContext);
  return (
    <button
      type="button"
      data-notice-close=""
      onClick={(event) => {
        const key = event.currentTarget.closest<HTMLElement>('[data-notice-key]')?.dataset.noticeKey;
        const handedOn = key !== undefined && closing?.(key) === true;
        close();
        // The last notice (the stack may go with it), or one outside a stack: to the heading.
        if (!handedOn) focusScreenHeading();
      }}
    >
      Close<span className="sr-only"> notice</span>
    </button>
  );
}
