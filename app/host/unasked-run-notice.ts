import type { UnaskedRunFailure } from '../sampling/policy-sampling-runner.js';

/**
 * The Desk's notice for a model run made without asking that failed: which server asked, on
 * which provider and model, why (the provider's words, redacted, with what to do), that its
 * server was told only that the model could not be run, and where to look.
 */
export function unaskedRunNotice(failure: UnaskedRunFailure): string {
  const { serverName, providerName, model } = failure;
  const why = failure.message.trim();
  const ended = /[.!?]$/.test(why) ? why : `${why}.`;
  return (
    `A model request from ${serverName} ran without asking (its policy is Run without asking) and failed on ` +
    `${providerName} (${model}): ${ended} ${serverName} was told only that the model could not be run. ` +
    `Check ${providerName} under LLM providers, or set ${serverName} to Ask me first on the Servers screen.`
  );
}
