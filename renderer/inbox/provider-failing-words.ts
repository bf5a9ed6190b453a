import type { ProviderView } from '../../app/contract/providers.js';
import { formatShortDate, sentence, truncate } from '../components/format.js';
import { failureOf } from '../providers/model-listing.js';

/** Whether a provider's last call failed (its `health`, as LLM providers shows it). */
export function providerFailing(provider: Pick<ProviderView, 'health'> | undefined): boolean {
  return provider?.health?.ok === false;
}

/** As much of a provider's last failure as the approval card's line quotes. */
const FAILURE_LIMIT = 200;

/**
 * What an approval card says of the provider it would run on when that provider's last call
 * failed (its `health`, as LLM providers shows it): since when it fails, and why, in a short line.
 * Undefined while it answers, or before it was called.
 */
export function providerFailingText(provider: ProviderView | undefined, now: Date): string | undefined {
  const health = provider?.health;
  if (!provider || !health || health.ok) return undefined;
  const since = formatShortDate(new Date(health.since), now);
  // A model file's failure starts with its provider's name, said just before it here.
  const why =
    health.message !== undefined
      ? `: ${sentence(truncate(failureOf(health.message, provider.name), FAILURE_LIMIT))}`
      : '.';
  return `${provider.name}’s last call failed (failing since ${since})${why}`;
}
