import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import { useDeskState } from '../shell/desk-context.js';

/** A detail the Tasks screen kept while another screen was shown, as the screen shows again. */
export interface ReturnedDetail {
  /** The task's key (`received:<taskId>` or `requested:<outboundId>`). */
  key: string;
  /** Where the page was scrolled to when the person left. */
  scrollY: number;
}

/**
 * Which task's detail the Tasks screen shows. While the screen is shown, the one its address
 * names (`#tasks/<key>`: Details, Close, Back and links open and close it). While another screen
 * is, the one it showed, kept as screens keep what is typed in them: coming back by a link to
 * Tasks itself (or Back to the detail's address) shows it again, `returned` saying where the page
 * was, until `done`; unless its task left the store meanwhile (it expired, or was forgotten),
 * which shows the list. A link from elsewhere to another task's detail opens that one.
 */
export function useKeptDetail(
  active: boolean,
  openKey: string | undefined
): { detailKey: string | undefined; returned: ReturnedDetail | undefined; done: () => void } {
  const tasks = useDeskState((state) => state.tasks);
  const outbound = useDeskState((state) => state.outbound);
  const held = (key: string) => {
    const id = key.slice(key.indexOf(':') + 1);
    return key.startsWith('received:') ? id in tasks : key.startsWith('requested:') && id in outbound;
  };
  const [detailKey, setDetailKey] = useState(openKey);
  /** What the screen was given last; `heldWhenLeft`: the store held the kept detail's task as another screen showed. */
  const [seen, setSeen] = useState({ active, openKey, heldWhenLeft: false });
  const [returned, setReturned] = useState<ReturnedDetail | undefined>(undefined);
  /** Where the page is scrolled to while the screen is shown (the screens share the page's scrolling). */
  const scrollPlace = useRef(0);
  // A layout effect: its cleanup runs as the screen hides, before the page, shorter or longer
  // with another screen, scrolls to where that one puts it.
  useLayoutEffect(() => {
    if (!active) return;
    const note = () => {
      scrollPlace.current = window.scrollY;
    };
    note();
    window.addEventListener('scroll', note, { passive: true });
    return () => window.removeEventListener('scroll', note);
  }, [active]);
  if (seen.active !== active || seen.openKey !== openKey) {
    // Set in render, not in an effect: the rows come in this same render, at the page's place.
    const leaving = seen.active && !active;
    setSeen({
      active,
      openKey,
      heldWhenLeft: leaving ? detailKey !== undefined && held(detailKey) : seen.heldWhenLeft
    });
    if (!active) {
      // Another screen is shown: the detail stays as it is, for the return.
    } else if (seen.active || detailKey === undefined || (openKey !== undefined && openKey !== detailKey)) {
      setDetailKey(openKey);
    } else if (openKey === undefined && seen.heldWhenLeft && !held(detailKey)) {
      setDetailKey(undefined);
    } else {
      setReturned({ key: detailKey, scrollY: scrollPlace.current });
    }
  }
  const done = useCallback(() => setReturned(undefined), []);
  return { detailKey, returned, done };
}
