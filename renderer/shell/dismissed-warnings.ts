import type { HostEventPayload } from '../../app/contract/host-api.js';

/** A host warning, as the banners show it. */
export type HostWarning = HostEventPayload<'store.warning'>;

/** Where the warnings dismissed in this window are kept (sessionStorage: this tab, through a reload). */
export const DISMISSED_WARNINGS_KEY = 'taskdesk.dismissedWarnings';

/**
 * What tells one warning from another: its id (the same problem happening again is a new warning,
 * shown again though its words are the same), or, for a warning without one, its words and the
 * file it names.
 */
export function warningKey(warning: HostWarning): string {
  if (warning.id !== undefined) return `id:${warning.id}`;
  return warning.movedTo === undefined ? warning.message : `${warning.message}\n${warning.movedTo}`;
}

/**
 * The keys of the warnings dismissed in this window. A warning is the host's for the whole run, so
 * dismissing it is kept in the window's session: a reload does not bring it back, a new window
 * (or tab) shows it again, and a new warning (a new id, or other words) is shown as it comes.
 */
export function loadDismissedWarnings(storage: Pick<Storage, 'getItem'> | undefined): ReadonlySet<string> {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(DISMISSED_WARNINGS_KEY) ?? '[]');
    return new Set(Array.isArray(parsed) ? parsed.filter((key): key is string => typeof key === 'string') : []);
  } catch {
    // Unreadable (or storage refused): nothing dismissed yet.
    return new Set();
  }
}

/** Keeps `keys` as the dismissed warnings of this window; a storage that refuses only forgets them at reload. */
export function saveDismissedWarnings(storage: Pick<Storage, 'setItem'> | undefined, keys: ReadonlySet<string>): void {
  try {
    storage?.setItem(DISMISSED_WARNINGS_KEY, JSON.stringify([...keys]));
  } catch {
    // Storage full or refused: the warning stays dismissed until the page reloads.
  }
}
