import { useEffect, useState } from 'react';
import { unitFor, type CountUnit } from './format.js';

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
 * The page's time for a countdown to `endMs` said in whole `unitMs` (a unit, or the unit for what
 * is left: see `CountUnit`): it moves only when that count changes (and at `warnAtMs`), so every
 * countdown to one end changes its words at the same moment (a list's row and its detail agree)
 * and a countdown in minutes renders once a minute. Not `enabled`, or with no end to count to, it
 * keeps no timer. Each render reads the page's own clock (a test can drive it with a fake one).
 */
export function useNowCounting(endMs: number, unitMs: CountUnit, enabled = true, warnAtMs = NaN): number {
  const [tick, setTick] = useState(0);
  const now = Date.now();
  useEffect(() => {
    if (!enabled || !(endMs > Date.now())) return;
    const handle = window.setTimeout(() => setTick((n) => n + 1), nextTurnIn(endMs, unitMs, Date.now(), warnAtMs));
    return () => window.clearTimeout(handle);
  }, [endMs, unitMs, enabled, warnAtMs, tick]);
  return now;
}

/**
 * How long from `at` until a countdown to `endMs` in whole `unitMs` (what is left, rounded down;
 * the unit for what is left at `at`, when it depends on it) says another number, or `warnAtMs`
 * comes, whichever is first. The number changes once what is left falls below a whole unit: a
 * millisecond past the boundary. A timer due on the boundary itself may run with exactly a whole
 * unit left (a clock that moves in whole milliseconds), which still reads as that unit; waiting a
 * whole unit from there left the words a unit behind another line on the same task (a Tasks row
 * and its detail) for a minute.
 */
export function nextTurnIn(endMs: number, unitMs: CountUnit, at: number, warnAtMs = NaN): number {
  const turn = ((endMs - at) % unitFor(unitMs, endMs - at)) + 1;
  return warnAtMs > at ? Math.min(turn, warnAtMs - at) : turn;
}
