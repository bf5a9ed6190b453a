import OpenAI from 'openai';
import type { ProviderSettings } from '../contract/providers.js';
import { acceptPlainCompletions } from './plain-completion-stream.js';

/** Options for building a provider client; `fetch` is for tests and proxies. */
export interface ProviderClientOptions {
  fetch?: typeof fetch;
}

// The SDK refuses to start without some credential; a keyless local server gets this
// placeholder, and the Authorization header is then removed so it is never sent.
const NO_KEY = 'taskdesk-no-key';

/**
 * An `openai` SDK client for one provider.
 *
 * Retries are off (`maxRetries: 0`): the engine retries itself, bounded and on the
 * injected clock. The SDK's own timeout is a far backstop; the engine's timeouts run on
 * the clock too. Nothing is read from the environment (`OPENAI_*`), the SDK logger is
 * off, so no key reaches a log. A plain JSON answer to a streamed request (some local servers
 * send one) is read as the answer, not as a dropped stream.
 */
export function createProviderClient(
  settings: ProviderSettings,
  apiKey: string | undefined,
  options: ProviderClientOptions = {}
): OpenAI {
  return new OpenAI({
    apiKey: apiKey ?? NO_KEY,
    baseURL: settings.baseURL,
    organization: null,
    project: null,
    maxRetries: 0,
    timeout: 24 * 60 * 60 * 1000,
    logLevel: 'off',
    ...(apiKey === undefined ? { defaultHeaders: { Authorization: null } } : {}),
    // A server that answers a stream request with one JSON completion is read as that answer.
    fetch: acceptPlainCompletions(options.fetch ?? ((input, init) => fetch(input, init)))
  });
}
