import type { ProviderView } from '../../app/contract/providers.js';
import { modelNamesOf } from '../../app/contract/model-names.js';
import type { DraftedChoice } from './model-choice-words.js';

/** The provider and model an approval card's picker starts from, and whether it is not the one Taskdesk drafted. */
export interface DefaultChoice {
  providerId: string;
  model: string;
  /** Set when the drafted provider is failing and another was taken in its place. */
  insteadOfFailing?: true;
}

/** Whether a provider's last call failed (its `health`, as LLM providers and the approval card's warning show it). */
export function providerFailing(provider: Pick<ProviderView, 'health'> | undefined): boolean {
  return provider?.health?.ok === false;
}

/**
 * The provider and model an approval card's picker starts from: what Taskdesk drafted, unless
 * the drafted provider is failing (see {@link providerFailing}) and the draft is only the
 * default, the first provider's default model: then the first provider in the person's order
 * that lists a model and is not failing, with its default model (or its first), as Taskdesk
 * takes the first provider's. When every provider with a model fails, the draft, as before.
 *
 * A choice already made is kept: the server's model preferences (a hint that names a model
 * of some provider, or priorities weighed against rated models), or the person's (the run they
 * approved that failed, `lastFailure`, ran on what they picked). What the person changed on the
 * card before (a kept draft) is not looked at here: it goes over this.
 */
export function defaultChoice(
  providers: readonly ProviderView[],
  drafted: DraftedChoice & { lastFailure?: unknown },
  request: Record<string, unknown>
): DefaultChoice {
  const draftedChoice = { providerId: drafted.providerId, model: drafted.model };
  if (drafted.lastFailure !== undefined) return draftedChoice;
  const offering = providers.filter((provider) => modelNamesOf(provider).length > 0);
  const first = offering[0];
  // Not the engine's default (the first provider's default model): a choice was made.
  if (!first || first.id !== drafted.providerId || firstModel(first) !== drafted.model) return draftedChoice;
  if (!providerFailing(first) || preferencesDecide(offering, request.modelPreferences)) return draftedChoice;
  const answering = offering.find((provider) => !providerFailing(provider));
  if (!answering) return draftedChoice;
  return { providerId: answering.id, model: firstModel(answering), insteadOfFailing: true };
}

/** The model Taskdesk takes of a provider when nothing else decides: its default, or its first. */
function firstModel(provider: ProviderView): string {
  return provider.defaultModel ?? modelNamesOf(provider)[0]!;
}

/**
 * Whether the server's model preferences (the request's `modelPreferences`) chose the model, as
 * Taskdesk's model selection reads them: a hint that is part of some provider's model name, or a
 * priority above zero with some model rated to weigh it against.
 */
function preferencesDecide(providers: readonly ProviderView[], preferences: unknown): boolean {
  if (typeof preferences !== 'object' || preferences === null) return false;
  const { hints, costPriority, speedPriority, intelligencePriority } = preferences as Record<string, unknown>;
  const names = providers.flatMap((provider) => modelNamesOf(provider).map((name) => name.toLowerCase()));
  const hinted =
    Array.isArray(hints) &&
    hints.some((hint: unknown) => {
      const name = (hint as { name?: unknown } | null)?.name;
      const needle = typeof name === 'string' ? name.trim().toLowerCase() : '';
      return needle !== '' && names.some((candidate) => candidate.includes(needle));
    });
  if (hinted) return true;
  const weighed = [costPriority, speedPriority, intelligencePriority].some(
    (priority) => typeof priority === 'number' && priority > 0
  );
  return weighed && providers.some((provider) => provider.models.some((model) => model.ratings !== undefined));
}
