import { useEffect, useState } from 'react';

/**
 * The page's time, moving every `everyMs` while a component shows it (a countdown). One
 * interval per user; the page's own clock, so a test can drive it with a fake one.
 */
export function useNow(everyMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const handle = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => window.clearInterval(handle);
  }, [everyMs]);
  return now;
}
