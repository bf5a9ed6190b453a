import type { ModelPreferences } from '@modelcontextprotocol/sdk/types.js';
import { modelNamesOf, type ModelRatings, type ProviderSettings } from '../contract/providers.js';

/** The model a sampling request will run on, and why, in words a user can read. */
export interface ModelChoice {
  providerId: string;
  providerName: string;
  model: string;
  reason: string;
}

interface Candidate {
  provider: ProviderSettings;
  model: string;
  ratings: ModelRatings | undefined;
}

/**
 * Chooses a model for a request from the server's `modelPreferences`.
 *
 * 1. Hints, in the server's order: the first hint whose name is a case-insensitive
 *    substring of some model's name wins; when several models match one hint, the
 *    priorities break the tie, then the user's provider and model order.
 * 2. Priorities: with any priority above zero and at least one rated model, the rated
 *    model with the best score wins, where
 *    score = cost·(1 − ratings.cost) + speed·ratings.speed + intelligence·ratings.intelligence
 *    (a missing rating counts as 0.5).
 * 3. Otherwise the first provider's default model (or its first model). With `passOver.failing`
 *    (a person is to approve the choice), a first provider whose last call failed gives way to
 *    the first in the person's order that is not failing; when every one fails, the first.
 *
 * Returns undefined when no provider offers any model.
 */
export function chooseModel(
  providers: readonly ProviderSettings[],
  preferences: ModelPreferences | undefined,
  passOver: { failing?: (providerId: string) => boolean } = {}
): ModelChoice | undefined {
  const candidates: Candidate[] = providers.flatMap((provider) =>
    modelNamesOf(provider).map((model) => ({
      provider,
      model,
      ratings: provider.models.find((m) => m.name === model)?.ratings
    }))
  );
  if (candidates.length === 0) return undefined;

  const priorities = prioritiesOf(preferences);
  const hasPriorities = priorities.cost > 0 || priorities.speed > 0 || priorities.intelligence > 0;
  const hints = (preferences?.hints ?? []).map((h) => h.name?.trim()).filter((n): n is string => !!n);

  for (const hint of hints) {
    const needle = hint.toLowerCase();
    const matches = candidates.filter((c) => c.model.toLowerCase().includes(needle));
    if (matches.length === 0) continue;
    const best = hasPriorities ? bestByScore(matches, priorities) : matches[0]!;
    const tie =
      matches.length > 1
        ? hasPriorities
          ? `; ${matches.length} models matched, best score for the priorities`
          : `; ${matches.length} models matched, first in your order`
        : '';
    const skipped = hints.indexOf(hint) > 0 ? ` (earlier hints matched nothing)` : '';
    return choice(best, `server hint "${hint}" matched model "${best.model}"${skipped}${tie}`);
  }

  const hintNote =
    hints.length > 0 ? `no model matched the server's hints (${hints.map((h) => `"${h}"`).join(', ')}); ` : '';
  const rated = candidates.filter((c) => c.ratings !== undefined);
  if (hasPriorities && rated.length > 0) {
    const best = bestByScore(rated, priorities);
    return choice(
      best,
      `${hintNote}best score ${score(best.ratings, priorities).toFixed(2)} for the server's priorities ` +
        `(cost ${priorities.cost}, speed ${priorities.speed}, intelligence ${priorities.intelligence}) among ${rated.length} rated model${rated.length === 1 ? '' : 's'}`
    );
  }

  const offering = providers.filter((p) => modelNamesOf(p).length > 0);
  const first = offering[0]!;
  const why = hasPriorities ? 'no model has ratings to weigh the priorities against; ' : '';
  const { failing } = passOver;
  const answering = failing?.(first.id) ? offering.find((p) => !failing(p.id)) : undefined;
  if (answering) {
    const instead = candidates.find((c) => c.provider === answering && c.model === defaultModelOf(answering))!;
    return choice(
      instead,
      `${hintNote}${why}instead of ${first.name} · ${defaultModelOf(first)}, whose last call failed: the first provider that is not failing`
    );
  }
  const fallback = candidates.find((c) => c.provider === first && c.model === defaultModelOf(first))!;
  return choice(fallback, `${hintNote}${why}using the default model of ${first.name}`);
}

/** The model Taskdesk takes of a provider when nothing else decides: its default, or its first. */
function defaultModelOf(provider: ProviderSettings): string {
  return provider.defaultModel ?? modelNamesOf(provider)[0]!;
}

interface Priorities {
  cost: number;
  speed: number;
  intelligence: number;
}

function prioritiesOf(preferences: ModelPreferences | undefined): Priorities {
  return {
    cost: preferences?.costPriority ?? 0,
    speed: preferences?.speedPriority ?? 0,
    intelligence: preferences?.intelligencePriority ?? 0
  };
}

function score(ratings: ModelRatings | undefined, p: Priorities): number {
  const cost = ratings?.cost ?? 0.5;
  const speed = ratings?.speed ?? 0.5;
  const intelligence = ratings?.intelligence ?? 0.5;
  return p.cost * (1 - cost) + p.speed * speed + p.intelligence * intelligence;
}

// Stable: on equal scores the earlier candidate (the user's order) wins.
function bestByScore(candidates: readonly Candidate[], p: Priorities): Candidate {
  let best = candidates[0]!;
  for (const c of candidates.slice(1)) if (score(c.ratings, p) > score(best.ratings, p) + 1e-12) best = c;
  return best;
}

function choice(c: Candidate, reason: string): ModelChoice {
  return { providerId: c.provider.id, providerName: c.provider.name, model: c.model, reason };
}
