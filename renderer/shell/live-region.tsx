import { useEffect, useRef, useSyncExternalStore } from 'react';
import type { Announcer } from './announcer.js';

/**
 * The polite live region: empty first, then the messages a frame later, so a repeat is heard
 * again; two announced within one frame (a withdrawn question and the cancel that caused it) are
 * said together rather than the first dropped.
 *
 * The region's text is set on the element, not through React state: an emptying set in an effect
 * and the filling set in the next frame could be rendered together on a busy machine (React
 * schedules the first in a task the frame may come before), and a repeated message would then
 * leave the text as it was, which no screen reader says again.
 */
export function LiveRegion({ announcer }: { announcer: Announcer }) {
  const count = useSyncExternalStore(announcer.subscribe, () => announcer.current().count);
  const region = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = region.current;
    if (count === 0 || !element) return;
    element.textContent = '';
    const frame = requestAnimationFrame(() => {
      element.textContent = announcer.take();
    });
    return () => cancelAnimationFrame(frame);
  }, [announcer, count]);
  return <div ref={region} className="sr-only" role="status" aria-live="polite" />;
}
