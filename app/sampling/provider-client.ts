import OpenAI from 'openai';
import type { ProviderSettings } from '../contract/providers.js';
import { acceptPlainCompletions } from './plain-completion-stream.js';
import { providerFetch } from './provider-fetch.js';
import { localModels } from './local-model.js';

/** Options for building a provider client; `fetch` is for tests and proxies. */
export interface ProviderClientOptions {
  fetch?: typeof fetch;
}

// A request's stop signal travels in its fetch options under this key, for the client's fetch to read.
const STOP = Symbol('taskdesk.stop');

/**
 * Request options that end the request when `signal` aborts: before the answer comes (the
 * connection is closed) or while it streams in (the stream ends in an error, which the caller
 * reads as stopped since its signal is aborted). Only for clients made by
 * {@link createProviderClient}, whose fetch reads them.
 *
 * The SDK's own `signal` option joins the caller's signal to its own controller with
 * `AbortSignal.any` on every request (weak references and finalization-registry entries for
 * both): about 0.1 ms of main-thread CPU a turn of two requests in `bench:assistant`, by `perf`.
 * The client's fetch joins the two with a listener on each instead; the one on `signal` stays
 * until it aborts or is collected, so give each request a signal of its own.
 */
export function stoppedBy(signal: AbortSignal): OpenAI.RequestOptions {
  return { fetchOptions: { [STOP]: signal } as NonNullable<OpenAI.RequestOptions['fetchOptions']> };
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
    // A model file is run here, by its own fetch: never through a proxy nor a test's fetch.
    fetch: acceptPlainCompletions(
      stoppable(
        settings.modelFile !== undefined ? localModels.fetchFor(settings.modelFile) : (options.fetch ?? providerFetch)
      )
    )
  });
}

/** A `fetch` that also aborts when the request's {@link stoppedBy} signal does. */
function stoppable(fetchImpl: typeof fetch): typeof fetch {
  return (input, init) => {
    const stop = (init as { [STOP]?: AbortSignal } | undefined)?.[STOP];
    if (!stop) return fetchImpl(input, init);
    const { [STOP]: _stop, signal, ...rest } = init as RequestInit & { [STOP]?: AbortSignal };
    const controller = new AbortController();
    const abort = (from: AbortSignal) => () => controller.abort(from.reason);
    // The SDK's signal (its timeout, a cancelled stream) and the stop signal each end the request.
    for (const source of signal ? [signal, stop] : [stop]) {
      if (source.aborted) controller.abort(source.reason);
      else source.addEventListener('abort', abort(source), { once: true });
    }
    return fetchImpl(input, { ...rest, signal: controller.signal });
  };
}
