import { useId, useRef, useState, type ReactNode } from 'react';

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
 * reader reads, and the button (`aria-expanded`) is the way to them; each keeps its Dismiss.
 *
 * Newest is by when this window first showed a notice (`notices` may join lists of several
 * kinds); those shown at once keep their order, the last the newest.
 */
export function NoticeStack({ notices, noun }: { notices: readonly StackedNotice[]; noun: string }) {
  const listId = useId();
  const [open, setOpen] = useState(false);
  const seen = useRef(new Map<string, number>());
  for (const { key } of notices) if (!seen.current.has(key)) seen.current.set(key, seen.current.size);
  // Down to one, the stack closes: the next pile starts compact again.
  if (open && notices.length <= 1) setOpen(false);
  const newestFirst = [...notices].sort((a, b) => seen.current.get(b.key)! - seen.current.get(a.key)!);
  const more = notices.length - 1;
  return (
    <>
      <div id={listId} className="notice-stack">
        {newestFirst.map(({ key, notice }, index) => (
          <div key={key} className="notice-stack-item" hidden={index > 0 && !open}>
            {notice}
          </div>
        ))}
      </div>
      {more > 0 ? (
        <button
          type="button"
          className="link-button notice-stack-toggle"
          aria-expanded={open}
          aria-controls={listId}
          onClick={() => setOpen(!open)}
        >
          {open ? `Show only the newest ${noun}` : `and ${more} more ${more === 1 ? noun : `${noun}s`}`}
        </button>
      ) : null}
    </>
  );
}
