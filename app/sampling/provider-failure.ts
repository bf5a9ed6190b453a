import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { redactSecrets } from './redact.js';
import { errorMessage, inChain } from '../core/errors.js';
import { isBadPort } from '../mcp/network-failure.js';
import { proxyFailure } from '../core/network-proxy.js';
import { LOCAL_MODEL_BASE_URL } from '../contract/providers.js';
import { LocalModelError } from './local-model.js';

/**
 * What a model run stopped by a cancel says (its provider request aborted, or the work of its
 * model request cancelled): to the request's server, and to the person on Tasks, in History and
 * in the Audit log, in the Desk's words for it.
 */
export const MODEL_RUN_CANCELLED = 'The model run was cancelled.';

/** What kind of thing went wrong talking to a provider. */
export const PROVIDER_FAILURE_KINDS = [
  'auth',
  'forbidden',
  'model-not-found',
  'bad-request',
  'rate-limited',
  'server-error',
  'timeout',
  'unreachable',
  'dropped',
  'cancelled',
  'stopped',
  'bad-response'
] as const;
export type ProviderFailureKind = (typeof PROVIDER_FAILURE_KINDS)[number];

/**
 * A provider failure as data, with a message fit for a task's `statusMessage`.
 *
 * The message names the provider and says what the user can do; it never holds a key
 * (provider error bodies are redacted before any part of them is quoted).
 */
export interface ProviderFailure {
  kind: ProviderFailureKind;
  message: string;
  /** HTTP status when the provider answered. */
  status?: number;
  /** Whether trying again may help (rate limits, server errors). */
  retryable: boolean;
  /** How long the provider asked to wait before trying again, in milliseconds. */
  retryAfterMs?: number;
}

/** Where the failure happened, for the message. */
export interface FailureSubject {
  providerName: string;
  baseURL: string;
  model?: string;
  apiKey?: string;
}

/** An error the engine raises itself for a failure it detected (timeout, dropped stream). */
export class ProviderFailureError extends Error {
  readonly failure: ProviderFailure;
  constructor(failure: ProviderFailure) {
    super(failure.message);
    this.name = 'ProviderFailureError';
    this.failure = failure;
  }
}

/** Turns anything the `openai` SDK (or the engine) threw into a `ProviderFailure`. */
export function classifyProviderError(error: unknown, subject: FailureSubject): ProviderFailure {
  if (error instanceof ProviderFailureError) return error.failure;
  const who = `${subject.providerName} (${hostOf(subject.baseURL)})`;
  // A model file's own failure (missing, not GGUF, would not load or answer) is said as it is; not
  // `unreachable`, whose advice is about a server and its base URL.
  const local = inChain(error, LocalModelError);
  if (local !== undefined)
    return { kind: local.kind, message: `${subject.providerName}: ${local.message}`, retryable: false };
  const quote = (detail: string | undefined) => {
    const clean = detail ? redactSecrets(detail, [subject.apiKey]).trim() : '';
    return clean ? `: ${clean.slice(0, 300)}` : '';
  };

  if (error instanceof APIUserAbortError) {
    return { kind: 'cancelled', message: MODEL_RUN_CANCELLED, retryable: false };
  }
  if (error instanceof APIConnectionTimeoutError) {
    return { kind: 'timeout', message: `${who} did not answer in time.`, retryable: false };
  }
  if (error instanceof APIConnectionError) {
    // Not the provider's doing: the proxy in between could not be reached, or would not connect to it.
    const proxy = proxyFailure(error);
    if (proxy !== undefined)
      return {
        kind: 'unreachable',
        message: `Could not connect to ${who} through the proxy: ${proxy}.`,
        retryable: false
      };
    // No server to start: the port is one Node's fetch refuses, as browsers do.
    if (isBadPort(error))
      return {
        kind: 'unreachable',
        message: `Could not connect to ${who}: Taskdesk cannot connect to this port, one of the ports web clients refuse (as browsers do). Use another port in the base URL.`,
        retryable: false
      };
    return {
      kind: 'unreachable',
      message: `Could not connect to ${who}. Is the server running and the base URL right?`,
      retryable: false
    };
  }
  if (error instanceof APIError) {
    // The SDK's class has `any` type arguments; these are what it holds.
    const api = error as APIError<number | undefined, Headers | undefined>;
    const status = api.status;
    const detail = providerDetail(api);
    if (status === 401) {
      // Never quote a 401 body: providers echo the (masked) key in it.
      return {
        kind: 'auth',
        status,
        message: `${who} rejected the API key (401). Check the key in the provider settings.`,
        retryable: false
      };
    }
    if (status === 403) {
      return { kind: 'forbidden', status, message: `${who} refused access (403)${quote(detail)}`, retryable: false };
    }
    if (status === 404) {
      const model = subject.model ? `model "${subject.model}"` : 'the requested resource';
      return {
        kind: 'model-not-found',
        status,
        message: `${who} does not know ${model} (404)${quote(detail)}`,
        retryable: false
      };
    }
    if (status === 429) {
      const retryAfterMs = retryAfterOf(api.headers);
      return {
        kind: 'rate-limited',
        status,
        message: `${who} is rate limiting requests (429)${quote(detail)}`,
        retryable: true,
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {})
      };
    }
    if (status !== undefined && status >= 500) {
      const retryAfterMs = retryAfterOf(api.headers);
      return {
        kind: 'server-error',
        status,
        message: `${who} had a server error (${status})${quote(detail)}`,
        retryable: true,
        ...(retryAfterMs !== undefined ? { retryAfterMs } : {})
      };
    }
    if (status === undefined) {
      // An error event inside an SSE stream: the provider failed mid-generation.
      return {
        kind: 'server-error',
        message: `${who} reported an error while generating${quote(detail)}`,
        retryable: false
      };
    }
    return {
      kind: 'bad-request',
      status,
      message: `${who} rejected the request (${status})${quote(detail)}`,
      retryable: false
    };
  }
  const text = errorMessage(error);
  if (/terminated|socket|ECONNRESET|other side closed|premature/i.test(text)) {
    return droppedFailure(subject);
  }
  return { kind: 'bad-response', message: `Unexpected failure talking to ${who}${quote(text)}`, retryable: false };
}

/** The failure for a stream that ended before the model finished. */
export function droppedFailure(subject: FailureSubject): ProviderFailure {
  return {
    kind: 'dropped',
    message: `The connection to ${subject.providerName} (${hostOf(subject.baseURL)}) dropped before the model finished.`,
    retryable: false
  };
}

/**
 * The failure of a run the person stopped while the model wrote (the Inbox's Stop): not the
 * provider's doing, so it says nothing of how the provider answers.
 */
export function stoppedFailure(): ProviderFailure {
  return { kind: 'stopped', message: 'Stopped by you.', retryable: false };
}

/** The failure for a provider that stopped sending within the allowed time. */
export function timeoutFailure(subject: FailureSubject, ms: number): ProviderFailure {
  return {
    kind: 'timeout',
    message: `${subject.providerName} (${hostOf(subject.baseURL)}) did not answer within ${Math.round(ms / 1000)} s.`,
    retryable: false
  };
}

function hostOf(baseURL: string): string {
  if (baseURL === LOCAL_MODEL_BASE_URL) return 'a model file on this computer';
  try {
    return new URL(baseURL).host;
  } catch {
    return baseURL;
  }
}

/** The provider's own explanation, from an OpenAI-style `{ error: { message } }` body. */
function providerDetail(error: APIError): string | undefined {
  const body = error.error as { message?: unknown } | string | undefined;
  if (typeof body === 'string') return body;
  if (body && typeof body.message === 'string') return body.message;
  return undefined;
}

/** Reads `retry-after-ms` (OpenAI) or `retry-after` (seconds or an HTTP date). */
export function retryAfterOf(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
