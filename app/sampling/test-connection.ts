import { systemClock, type Clock } from '../core/clock.js';
import { createProviderClient } from './provider-client.js';
import type { ProviderSettings } from '../contract/providers.js';
import { classifyProviderError, timeoutFailure, type ProviderFailureKind } from './provider-failure.js';
import { Watchdog } from './watchdog.js';
import { redactSecrets } from './redact.js';
import { redactUrlsIn } from '../core/redact-url.js';

/** What "Test connection" found: the models on offer, or why it failed. */
export type ConnectionTestResult =
  { ok: true; models: string[] } | { ok: false; kind: ProviderFailureKind; message: string; status?: number };

/** Options for a connection test. */
export interface ConnectionTestOptions {
  clock?: Clock;
  /** Default 5 s: long enough for a remote API, short enough for a button. */
  timeoutMs?: number;
  signal?: AbortSignal;
  fetch?: typeof fetch;
}

/**
 * Lists a provider's models with the given key, as the "Test connection" button does.
 *
 * A failure comes back as data with a message for the user (unreachable, bad key,
 * timeout...), never with the key in it.
 */
export async function testConnection(
  settings: ProviderSettings,
  apiKey: string | undefined,
  options: ConnectionTestOptions = {}
): Promise<ConnectionTestResult> {
  const clock = options.clock ?? systemClock;
  const timeoutMs = options.timeoutMs ?? 5_000;
  const subject = { providerName: settings.name, baseURL: settings.baseURL, apiKey };
  const controller = new AbortController();
  let expired = false;
  const watchdog = new Watchdog(clock, () => {
    expired = true;
    controller.abort();
  });
  const onAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  watchdog.arm(timeoutMs);
  try {
    const client = createProviderClient(settings, apiKey, options.fetch ? { fetch: options.fetch } : {});
    const models: string[] = [];
    for await (const model of client.models.list({ signal: controller.signal })) {
      models.push(model.id);
    }
    return { ok: true, models };
  } catch (error) {
    const failure = expired ? timeoutFailure(subject, timeoutMs) : classifyProviderError(error, subject);
    return {
      ok: false,
      kind: failure.kind,
      message:
        failure.kind === 'model-not-found'
          ? `${settings.name} has no model list at ${redactUrlsIn(settings.baseURL)}/models (404). Check the base URL (it usually ends in /v1).`
          : redactSecrets(failure.message, [apiKey]),
      ...(failure.status !== undefined ? { status: failure.status } : {})
    };
  } finally {
    watchdog.disarm();
    options.signal?.removeEventListener('abort', onAbort);
  }
}
