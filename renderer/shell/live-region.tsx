import { useEffect, useRef, useSyncExternalStore } from 'react';
import type { Announcer } from './announcer.js';

/** The messages the region keeps after they were added: older ones are taken out (not said). */
export const KEPT_MESSAGES = 3;

/**
 * The polite live region. Each message is added as a line of its own, a frame after it was
 * announced, so that two announced within one frame (a withdrawn question and the cancel that
 * caused it) are said together as one line rather than the first dropped.
 *
 * Lines are added, not put in place of the last one: a message that came within a few
 * milliseconds of the one before (an answer sent, then the next card's arrival) replaced it,
 * and a screen reader that had not yet said the first might never say it. Additions only are said (`aria-relevant`), each alone (`aria-atomic` false, where
 * `role="status"` would make it true): a repeated message is a new line, said again. Past
 * {@link KEPT_MESSAGES} the oldest line is taken out, which no one hears.
 *
 * The lines are added to the element, not rendered from React state: React could render a
 * message's line and the next one's together on a busy machine.
 */
export function LiveRegion({ announcer }: { announcer: Announcer }) {
  const count = useSyncExternalStore(announcer.subscribe, announcer.count);
  const region = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = region.current;
    if (count === 0 || !element) return;
    const frame = requestAnimationFrame(() => {
      const text = announcer.take();
      if (text === '') return;
      const line = document.createElement('p');
      line.textContent = text;
      element.append(line);
      while (element.childElementCount > KEPT_MESSAGES) element.firstElementChild?.remove();
    });
    return () => cancelAnimationFrame(frame);
  }, [announcer, count]);
  return (
    <div
      ref={region}
      className="sr-only"
      role="status"
      aria-live="polite"
      aria-atomic="false"
      aria-relevant="additions"
    />
  );
}
