import { useEffect, useState } from 'react';

/**
 * The page's time, moving every `everyMs` while a component shows it (a countdown). One
 * interval per user; the page's own clock, so a test can drive it with a fake one. Not `enabled`,
 * it keeps no interval and is the time of each render (a countdown already over need not tick).
 */
export function useNow(everyMs = 1000, enabled = true): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!enabled) return;
    const handle = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => window.clearInterval(handle);
  }, [everyMs, enabled]);
  return enabled ? now : Date.now();
}
