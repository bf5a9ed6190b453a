import {
  createContext,
  useContext,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type ReactNode,
  type RefObject
} from 'react';
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
 * The same goes for `closeAll`: a notice it keeps takes the focus.
 */
export function NoticeStack({
  notices,
  noun,
  closeAll,
  onShown
}: {
  notices: readonly StackedNotice[];
  noun: string;
  /** A button beside "and N more" that closes several at once: its words, the notices it closes (by key), and what it does. */
  closeAll?: { label: string; closes: readonly string[]; close: () => void } | undefined;
  /** Called with the keys of the notices shown (the newest, or all while open) as they change: not those hidden. */
  onShown?: ((keys: readonly string[]) => void) | undefined;
}) {
  const listId = useId();
  const [opened, setOpen] = useState(false);
  /** The notice the focus is in, if any: a newer one arriving must not hide it from under the focus. */
  const [focused, setFocused] = useState<string | undefined>(undefined);
  const seen = useRef({ next: 0, order: new Map<string, number>() });
  const list = useRef<HTMLDivElement>(null);
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
  const closing = useFocusHandedOn(
    newestFirst.map((notice) => notice.key),
    list
  );
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
            <button
              type="button"
              className="link-button notice-stack-close-all"
              onClick={() => {
                const handedOn = closing(closeAll.closes);
                closeAll.close();
                // None kept: the stack goes with them.
                if (!handedOn) focusScreenHeading();
              }}
            >
              {closeAll.label}
            </button>
          ) : null}
        </div>
      ) : null}
    </StackContext.Provider>
  );
}

/**
 * Notices shown all at once, one under the other (no stack), whose Closes hand the focus on as a
 * {@link NoticeStack}'s do: to the next one down, the one above the last, the heading once none is left.
 */
export function NoticeList({ notices }: { notices: readonly StackedNotice[] }) {
  const list = useRef<HTMLDivElement>(null);
  const closing = useFocusHandedOn(
    notices.map((notice) => notice.key),
    list
  );
  return (
    <StackContext.Provider value={closing}>
      <div ref={list}>
        {notices.map(({ key, notice }) => (
          <div key={key} data-notice-key={key}>
            {notice}
          </div>
        ))}
      </div>
    </StackContext.Provider>
  );
}

/**
 * Where the focus goes once notices of `list` (their items `[data-notice-key]`, `keys` in the
 * order shown) are closed: the returned function is told which (by key) before they go, and is
 * true when another notice is left to take the focus (its Close takes it after the render that
 * took them away); false when none is, and the caller sends the focus to the screen's heading.
 */
function useFocusHandedOn(
  keys: readonly string[],
  list: RefObject<HTMLElement | null>
): (closed: readonly string[]) => boolean {
  /** The notices closed, and those the focus may go on to in turn once they have gone. */
  const focusNext = useRef<{ closed: readonly string[]; candidates: string[] } | undefined>(undefined);
  // After the render that took the closed notices away and showed the next: its Close takes the focus.
  useLayoutEffect(() => {
    const pending = focusNext.current;
    focusNext.current = undefined;
    // Still there (its Close did not take it away): the focus stays on that Close.
    if (!pending || !list.current || pending.closed.some((key) => keys.includes(key))) return;
    const next = pending.candidates
      .map((key) => list.current?.querySelector(`[data-notice-key="${CSS.escape(key)}"]:not([hidden])`))
      .find((item) => item);
    const close = next?.querySelector<HTMLElement>('[data-notice-close]');
    if (close) close.focus();
    else focusScreenHeading();
  });
  return (closed) => {
    const at = keys.findIndex((key) => closed.includes(key));
    const left = (part: readonly string[]) => part.filter((key) => !closed.includes(key));
    if (at < 0) return false;
    const candidates = [...left(keys.slice(at + 1)), ...left(keys.slice(0, at)).reverse()];
    if (candidates.length === 0) return false;
    focusNext.current = { closed, candidates };
    return true;
  };
}

/**
 * Told by a notice's Close which notices it closes (by key), before they go; true when another
 * notice is left to take the focus.
 */
const StackContext = createContext<((closed: readonly string[]) => boolean) | undefined>(undefined);

/**
 * A notice's Close: `close` takes the notice away, and the focus, which would be left on nothing,
 * goes on to the notice that comes up next in the stack (its Close), or to the screen's heading
 * when none is left (see {@link focusScreenHeading}).
 *
 * It is described by its notice's words (`describedBy`, the ids of the elements that hold them):
 * the focus may come to it from a notice closed before, with nothing else saying what this one is.
 */
export function NoticeClose({ close, describedBy }: { close: () => void; describedBy: string }) {
  const closing = useContext(StackContext);
  return (
    <button
      type="button"
      data-notice-close=""
      aria-describedby={describedBy}
      onClick={(event) => {
        const key = event.currentTarget.closest<HTMLElement>('[data-notice-key]')?.dataset.noticeKey;
        const handedOn = key !== undefined && closing?.([key]) === true;
        close();
        // The last notice (the stack may go with it), or one outside a stack: to the heading.
        if (!handedOn) focusScreenHeading();
      }}
    >
      Close<span className="sr-only"> notice</span>
    </button>
  );
}
