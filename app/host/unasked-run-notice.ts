import type { HostEventPayload } from '../contract/host-api.js';
import type { UnaskedRunFailure } from '../sampling/policy-sampling-runner.js';

/** A link of a host warning: its words, and the Desk screen it opens. */
export type WarningLink = NonNullable<HostEventPayload<'store.warning'>['links']>[number];

/**
 * The Desk's notice for a model run made without asking that failed: which server asked, on
 * which provider and model, why (the provider's words, redacted, with what to do), that its
 * server was told only that the model could not be run, and where to look.
 *
 * Its links go where its last sentence sends the person, in that order: the provider's card under
 * LLM providers, then the Servers screen (where each server's card sets its model requests' policy).
 */
export function unaskedRunNotice(
  failure: UnaskedRunFailure,
  providerKept = true
): { message: string; links: WarningLink[] } {
  const { serverName, providerName, model } = failure;
  const why = failure.message.trim();
  const ended = /[.!?]$/.test(why) ? why : `${why}.`;
  return {
    message:
      `A model request from ${serverName} ran without asking (its policy is Run without asking) and failed on ` +
      `${providerName} (${model}): ${ended} ${serverName} was told only that the model could not be run. ` +
      `Check ${providerName} under LLM providers, or set ${serverName} to Ask me first on the Servers screen.`,
    links: [
      // The provider's card, while there is one: one removed as the request was handed to it has none.
      providerKept
        ? {
            label: `Open ${providerName} in LLM providers`,
            href: `#providers/${encodeURIComponent(failure.providerId)}`
          }
        : { label: 'Open LLM providers', href: '#providers' },
      { label: 'Open the Servers screen', href: '#servers' }
    ]
  };
}
