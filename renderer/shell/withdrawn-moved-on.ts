import { useCallback, useEffect, useRef } from 'react';
import type { WithdrawnNotice } from '../store/desk-state.js';
import type { DeskStore } from '../store/desk-store.js';
import { SCREENS } from './use-screen.js';

/**
 * How long a withdrawn question's notice is shown (the page in sight) before the person's next
 * move to another screen or a detail takes it away: time to have read it.
 */
export const WITHDRAWN_READ_MS = 15_000;

/**
 * Takes away the notices of withdrawn questions the person has moved on from, as the Inbox's
 * "Answer sent" line goes once they leave the Inbox: at a move to another screen or a detail (the
 * address changes), each in sight for {@link WITHDRAWN_READ_MS} goes. In sight is shown by the
 * stack, not one of the older notices it keeps hidden ("and 1 more notice"), with the page in
 * sight: since it came, since the stack was opened or it became the newest shown, or since the
 * person came back to the window. One moved on from sooner stays until the next move, as does one
 * never in sight; one that holds what they had written stays until they close it (they may not
 * have copied it), as does one the focus is in. The page's own clock: no timer.
 *
 * Returns what the stack is to call with the notices it shows (`NoticeStack`'s `onShown`).
 */
export function useGoneOnMovingOn(
  store: DeskStore,
  withdrawn: readonly WithdrawnNotice[]
): (shown: readonly string[]) => void {
  /** The notices the stack shows, by id: those it keeps hidden are not in sight. */
  const inSight = useRef<readonly string[]>([]);
  /** Since when each notice in sight has been, the page too, by id: only those in sight have one. */
  const shownSince = useRef(new Map<string, number>());
  useEffect(() => {
    // Closed or gone: forgotten (the stack, gone with the last notice, tells nothing more).
    const since = shownSince.current;
    for (const id of since.keys()) if (!withdrawn.some((notice) => notice.id === id)) since.delete(id);
  }, [withdrawn]);
  useEffect(() => {
    const since = shownSince.current;
    const shown = () => {
      // Back to the window: what the notices say may not have been read yet.
      if (document.visibilityState !== 'visible') return;
      const now = Date.now();
      for (const id of inSight.current) since.set(id, now);
    };
    const moved = () => {
      // The skip link's #main, or any other fragment that names no screen, is no move.
      const screen = location.hash.slice(1).split('/')[0] ?? '';
      if (!(SCREENS as readonly string[]).includes(screen)) return;
      const now = Date.now();
      for (const notice of store.getState().withdrawn) {
        if (notice.draft !== undefined) continue;
        const at = since.get(notice.id);
        if (at === undefined || now - at < WITHDRAWN_READ_MS) continue;
        if (document.activeElement?.closest(`[data-inbox-id="${CSS.escape(notice.id)}"]`)) continue;
        store.dispatch({ type: 'notice-dismissed', id: notice.id });
      }
    };
    document.addEventListener('visibilitychange', shown);
    window.addEventListener('hashchange', moved);
    return () => {
      document.removeEventListener('visibilitychange', shown);
      window.removeEventListener('hashchange', moved);
    };
  }, [store]);
  return useCallback((shown: readonly string[]) => {
    inSight.current = shown;
    const since = shownSince.current;
    // Hidden in the stack again (a newer one came, or it was shut): out of sight until shown again.
    for (const id of since.keys()) if (!shown.includes(id)) since.delete(id);
    if (document.visibilityState !== 'visible') return;
    const now = Date.now();
    for (const id of shown) if (!since.has(id)) since.set(id, now);
  }, []);
}
