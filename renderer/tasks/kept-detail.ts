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
 * Where the Tasks screen tells the Desk's Tasks link of the detail it keeps while another screen
 * is shown (see `useKeptDetail`): the link then goes to that detail's address, not to the list.
 */
export interface KeptDetailSlot {
  current: string | undefined;
}

/**
 * Which task's detail the Tasks screen shows: the one its address names (`#tasks/<key>`: Details,
 * Close, Back, Forward and links open and close it; plain `#tasks` is the list). While another
 * screen is shown, the one it showed is kept, and `slot` holds its key for the Desk's Tasks link,
 * which goes to its address (only that link: Back or Forward onto an older `#tasks`, or another
 * link to the list, shows the list); unless its task left the store meanwhile (it expired, or was
 * forgotten): the link goes to the list. Coming back to the kept detail's address (by the link,
 * Back or Forward) shows it where the page was, `returned` saying where, until `done`.
 */
export function useKeptDetail(
  active: boolean,
  openKey: string | undefined,
  slot: KeptDetailSlot | undefined
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
      // Another screen is shown: the detail stays as it is, for the Tasks link.
    } else if (seen.active || openKey === undefined || openKey !== detailKey) {
      // The address says what to show: the list (Back onto an older `#tasks`, a link to the list)
      // or another task's detail.
      setDetailKey(openKey);
    } else {
      setReturned({ key: detailKey, scrollY: scrollPlace.current });
    }
  }
  const kept = !active && detailKey !== undefined && !(seen.heldWhenLeft && !held(detailKey)) ? detailKey : undefined;
  useLayoutEffect(() => {
    if (!slot) return;
    slot.current = kept;
    return () => {
      slot.current = undefined;
    };
  }, [slot, kept]);
  const done = useCallback(() => setReturned(undefined), []);
  return { detailKey, returned, done };
}
