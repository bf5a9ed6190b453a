import type { DefaultChoice } from './default-choice.js';

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
 * Taskdesk's own choice keeps its reason. The card's start in place of a failing provider
 * (`start`, see {@link DefaultChoice}) says why, while the picker holds it. A choice the person
 * made says so and names what Taskdesk had chosen. With no model named, it says what Approve does
 * then: run the drafted model on the drafted provider, or (on another provider) ask for one, as
 * Approve refuses without it.
 */
export function modelChoiceText(drafted: DraftedChoice, picked: PickedChoice, start?: DefaultChoice): string {
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
  if (start?.insteadOfFailing && picked.providerId === start.providerId && model === start.model)
    return `${name} · ${model} — instead of ${drafted.providerName} · ${drafted.model}, whose last call failed: the first provider that is not failing`;
  return `${name} · ${model} — chosen by you, instead of ${drafted.providerName} · ${drafted.model}`;
}
