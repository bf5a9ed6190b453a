import { useLayoutEffect, useMemo, useRef } from 'react';
import { useDeskState } from '../shell/desk-context.js';
import { OutboundCard } from './outbound-card.js';

/**
 * The tool calls Taskdesk made as tasks, newest first, kept live by the store. When the card
 * holding focus is forgotten, focus goes to the next card itself (or the heading): not to a
 * button in it, where the Enter that forgot one card would forget the next (its first button
 * is Forget once it has ended).
 */
export function OutboundList() {
  const outbound = useDeskState((state) => state.outbound);
  const ordered = useMemo(
    () =>
      Object.values(outbound).sort(
        (a, b) => b.createdAt.localeCompare(a.createdAt) || b.outboundId.localeCompare(a.outboundId)
      ),
    [outbound]
  );
  const list = useRef<HTMLUListElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const focused = useRef<string | undefined>(undefined);
  const previous = useRef(ordered);

  useLayoutEffect(() => {
    const before = previous.current;
    previous.current = ordered;
    const last = focused.current;
    if (!last || ordered.some((task) => task.outboundId === last)) return;
    focused.current = undefined;
    if (document.activeElement && document.activeElement !== document.body) return;
    const index = Math.max(
      0,
      before.findIndex((task) => task.outboundId === last)
    );
    const cards = list.current?.querySelectorAll<HTMLElement>('[data-outbound-id]') ?? [];
    (cards[Math.min(index, cards.length - 1)] ?? heading.current)?.focus();
  }, [ordered]);

  return (
    <section className="outbound" aria-labelledby="heading-outbound">
      <h3 id="heading-outbound" className="section-heading" tabIndex={-1} ref={heading}>
        Tool calls
      </h3>
      <p className="lede">
        Tools Taskdesk called as tasks, newest first, followed until they end. After Taskdesk restarts, a server that
        runs on its own (HTTP) is asked again; a server Taskdesk starts itself (stdio) starts again with it, and its
        running tasks are lost unless it stores them.
      </p>
      <p className="empty" hidden={ordered.length > 0}>
        No tool has been called as a task yet.
      </p>
      <ul
        className="cards outbound-list"
        aria-label="Tool calls"
        ref={list}
        onFocus={(event) => {
          const id = (event.target as HTMLElement).closest<HTMLElement>('[data-outbound-id]')?.dataset.outboundId;
          if (id) focused.current = id;
        }}
      >
        {ordered.map((task) => (
          <OutboundCard key={task.outboundId} task={task} />
        ))}
      </ul>
    </section>
  );
}
