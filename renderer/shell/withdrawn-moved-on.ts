import { useEffect, useRef } from 'react';
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
 * address changes), each shown for {@link WITHDRAWN_READ_MS} (the page in sight since it came, or
 * since the person came back to the window) goes. One moved on from sooner stays until the next
 * move; one that holds what they had written stays until they close it (they may not have copied
 * it), as does one the focus is in. The page's own clock: no timer.
 */
export function useGoneOnMovingOn(store: DeskStore, withdrawn: readonly WithdrawnNotice[]): void {
  /** When each notice was first shown with the page in sight, by id. */
  const shownSince = useRef(new Map<string, number>());
  useEffect(() => {
    const since = shownSince.current;
    for (const id of since.keys()) if (!withdrawn.some((notice) => notice.id === id)) since.delete(id);
    if (document.visibilityState !== 'visible') return;
    for (const { id } of withdrawn) if (!since.has(id)) since.set(id, Date.now());
  }, [withdrawn]);
  useEffect(() => {
    const since = shownSince.current;
    const shown = () => {
      // Back to the window: what the notices say may not have been read yet.
      if (document.visibilityState !== 'visible') return;
      const now = Date.now();
      for (const { id } of store.getState().withdrawn) since.set(id, now);
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
}
