/** The provider and model Taskdesk drafted a sampling request for, and why it chose them. */
export interface DraftedChoice {
  providerId: string;
  providerName: string;
  model: string;
  reason: string;
}

/** What the approval card's picker holds now: the provider chosen (absent when it was removed) and the model typed or chosen. */
export interface PickedChoice {
  providerId: string;
  provider: { name: string; models: readonly unknown[]; defaultModel?: string | undefined } | undefined;
  model: string;
}

/**
 * The line above an approval card's form: the provider and model the request runs on when
 * approved, as the card's picker holds them now, and why.
 *
 * Taskdesk's own choice keeps its reason (in place of a failing provider, it says so). A choice the person
 * made says so and names what Taskdesk had chosen. With no model named, it says what Approve does
 * then: run the drafted model on the drafted provider, or (on another provider) ask for one, as
 * Approve refuses without it.
 */
export function modelChoiceText(drafted: DraftedChoice, picked: PickedChoice): string {
  const model = picked.model.trim();
  const sameProvider = picked.providerId === drafted.providerId;
  if (!picked.provider) {
    return `${drafted.providerName} (removed) · ${model || 'no model chosen'} — choose another provider to run it`;
  }
  const name = picked.provider.name;
  if (model === '') {
    if (sameProvider) return `${name} · no model chosen — Approve runs ${drafted.model} (${drafted.reason})`;
    const listsNone = picked.provider.models.length === 0 && !picked.provider.defaultModel;
    return listsNone
      ? `${name} · no model chosen — ${name} lists none: type the name of one it runs to approve`
      : `${name} · no model chosen — choose one to approve`;
  }
  if (sameProvider && model === drafted.model) return `${name} · ${model} — ${drafted.reason}`;
  return `${name} · ${model} — chosen by you, instead of ${drafted.providerName} · ${drafted.model}`;
}

/** How many of a provider's models the card names when a model typed is not among them. */
const MODELS_NAMED = 5;

/**
 * Why Approve was refused for a model `typed` that the provider `name` does not list (`listed`):
 * the models to choose from, named when they are few.
 */
export function unlistedModelText(name: string, typed: string, listed: readonly string[]): string {
  const choose =
    listed.length <= MODELS_NAMED
      ? `choose one it lists: ${listed.join(', ')}`
      : `choose one of the ${listed.length} models it lists (type to see them)`;
  return `${name} lists no model named “${typed}”: ${choose}.`;
}
