import { useEffect, useState, useSyncExternalStore } from 'react';
import type { Announcer } from './announcer.js';

/**
 * The polite live region: empty first, then the messages a frame later, so a repeat is heard
 * again; two announced within one frame (a withdrawn question and the cancel that caused it) are
 * said together rather than the first dropped.
 */
export function LiveRegion({ announcer }: { announcer: Announcer }) {
  const count = useSyncExternalStore(announcer.subscribe, () => announcer.current().count);
  const [text, setText] = useState('');
  useEffect(() => {
    if (count === 0) return;
    setText('');
    const frame = requestAnimationFrame(() => setText(announcer.take()));
    return () => cancelAnimationFrame(frame);
  }, [announcer, count]);
  return (
    <div className="sr-only" role="status" aria-live="polite">
      {text}
    </div>
  );
}
