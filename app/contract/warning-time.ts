/* Imports nothing: the core (inbox items) and the Desk (task countdowns) warn at the same time. */

/** The longest warning before an item expires: five minutes. */
const MAX_WARNING_MS = 5 * 60 * 1000;
/** The share of an item's life its warning covers when that is shorter (a one-minute TTL warns 12 s before). */
const WARNING_SHARE = 0.2;

/**
 * When an item that expires at `expiresAt` should warn: five minutes before, or the last fifth of
 * its life when that is shorter. The UI's countdown turns to a warning, and a notification goes
 * out, at this one moment.
 */
export function warningTime(createdAt: string, expiresAt: string): string {
  const end = Date.parse(expiresAt);
  const life = Math.max(0, end - Date.parse(createdAt));
  return new Date(end - Math.min(MAX_WARNING_MS, life * WARNING_SHARE)).toISOString();
}
