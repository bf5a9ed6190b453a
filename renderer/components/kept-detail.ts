import { useCallback, useLayoutEffect, useRef, useState, type MouseEvent } from 'react';

/** A detail a screen kept while another screen was shown, as the screen shows again. */
export interface ReturnedDetail {
  /** The detail's key: a task's (`received:<taskId>` or `requested:<outboundId>`), a History entry's id. */
  key: string;
  /** Where the page was scrolled to when the person left. */
  scrollY: number;
}

/**
 * Where a screen tells its link in the Desk's bar of the detail it keeps while another screen is
 * shown (see `useKeptDetail`): the link then goes to that detail's address, not to the list.
 */
export interface KeptDetailSlot {
  current: string | undefined;
}

/**
 * What a bar's link does on a plain click while its screen keeps a detail (`slot`): goes to that
 * detail's address (`href` of its key), a new entry of the browser's history in place of the
 * plain screen's, so that Back goes to the screen the person came from, and Back or Forward onto
 * an older plain address shows the list, as any other link to the list does. A click with a
 * modifier opens the link elsewhere, as ever.
 */
export function followKeptDetail(
  slot: KeptDetailSlot,
  href: (key: string) => string
): (event: MouseEvent<HTMLAnchorElement>) => void {
  return (event) => {
    const key = slot.current;
    if (key === undefined || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
      return;
    event.preventDefault();
    location.hash = href(key);
  };
}

/**
 * Which detail a screen shows (a task's on Tasks, an entry's on History): the one its address
 * names (`#tasks/<key>`, `#history/<id>`: Details, Close, Back, Forward and links open and close
 * it; the plain address is the list). While another screen is shown, the one it showed is kept,
 * and `slot` holds its key for the screen's link in the Desk's bar, which goes to its address
 * (only that link: Back or Forward onto an older plain address, or another link to the list,
 * shows the list); unless what it showed left meanwhile (`present`: a task that expired, or was
 * forgotten): the link goes to the list. Coming back to the kept detail's address (by the link,
 * Back or Forward) shows it where the page was, `returned` saying where, until `done`.
 */
export function useKeptDetail(
  active: boolean,
  openKey: string | undefined,
  slot: KeptDetailSlot | undefined,
  present: (key: string) => boolean = () => true
): { detailKey: string | undefined; returned: ReturnedDetail | undefined; done: () => void } {
  const [detailKey, setDetailKey] = useState(openKey);
  /** What the screen was given last; `heldWhenLeft`: the kept detail's item was present as another screen showed. */
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
      heldWhenLeft: leaving ? detailKey !== undefined && present(detailKey) : seen.heldWhenLeft
    });
    if (!active) {
      // Another screen is shown: the detail stays as it is, for the screen's link.
    } else if (seen.active || openKey === undefined || openKey !== detailKey) {
      // The address says what to show: the list (Back onto an older plain address, a link to the
      // list) or another detail.
      setDetailKey(openKey);
    } else {
      setReturned({ key: detailKey, scrollY: scrollPlace.current });
    }
  }
  const kept =
    !active && detailKey !== undefined && !(seen.heldWhenLeft && !present(detailKey)) ? detailKey : undefined;
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
