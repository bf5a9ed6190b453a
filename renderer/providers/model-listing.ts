import type { SavedProvider } from '../../app/contract/host-api.js';

/** What a provider answered when its save asked it for its models (see `providers.save`). */
export type ModelListing = NonNullable<SavedProvider['modelListing']>;

/** At most this many model names in a sentence; the card's list shows them all. */
const NAMED = 3;

/**
 * How many models the provider lists, said as the card says it: "It lists one model", "It lists 2
 * models"; a colon and the names follow.
 */
export function listsWords(count: number): string {
  return `It lists ${count === 1 ? 'one model' : `${count} models`}`;
}

/**
 * What the provider lists, said of it: "It lists one model: a.", "It lists 2 models: a, b." (the
 * first few names, then how many more).
 */
export function foundSentence(models: readonly string[]): string {
  const named = models.slice(0, NAMED).join(', ');
  const more = models.length > NAMED ? ` and ${models.length - NAMED} more` : '';
  return `${listsWords(models.length)}: ${named}${more}.`;
}

/**
 * A provider's failure as said where its name is already in sight (its card, its form): without
 * the "<name>: " that a model file's failure starts with, which names the provider elsewhere (the
 * Inbox, a chat).
 */
export function failureOf(message: string, name: string): string {
  const named = `${name}: `;
  return message.startsWith(named) ? message.slice(named.length) : message;
}

/**
 * What the Desk announces after a save that asked the provider `name` for its models, just after
 * "Saved <name>.": a failure without its name again (see {@link failureOf}).
 */
export function listingAnnouncement(listing: ModelListing, name: string): string {
  if (!listing.ok) return `No model could be listed: ${failureOf(listing.message, name)}`;
  return listing.models.length > 0
    ? foundSentence(listing.models)
    : 'The provider names no models: add one by name with Edit.';
}

/**
 * Whether a base URL is on this computer (loopback): a local server there needs no key, so a
 * provider without one is as it should be.
 */
export function isLocalAddress(baseURL: string): boolean {
  let host: string;
  try {
    host = new URL(baseURL).hostname.toLowerCase();
  } catch {
    return false;
  }
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}
