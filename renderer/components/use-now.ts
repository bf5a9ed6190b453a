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

/**
 * The page's time for a countdown to `endMs` said in whole `unitMs`: it moves only when that
 * count changes (and at `warnAtMs`), so every countdown to one end changes its words at the same
 * moment (a list's row and its detail agree) and a countdown in minutes renders once a minute.
 * Not `enabled`, or with no end to count to, it keeps no timer. Each render reads the page's own
 * clock (a test can drive it with a fake one).
 */
export function useNowCounting(endMs: number, unitMs: number, enabled = true, warnAtMs = NaN): number {
  const [tick, setTick] = useState(0);
  const now = Date.now();
  useEffect(() => {
    if (!enabled || !(endMs > Date.now())) return;
    const at = Date.now();
    // The count of units left changes when what is left crosses a whole unit.
    let delay = (endMs - at) % unitMs || unitMs;
    if (warnAtMs > at) delay = Math.min(delay, warnAtMs - at);
    const handle = window.setTimeout(() => setTick((n) => n + 1), delay);
    return () => window.clearTimeout(handle);
  }, [endMs, unitMs, enabled, warnAtMs, tick]);
  return now;
}
