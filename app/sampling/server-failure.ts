import { assertNever } from '../core/assert-never.js';
import type { ErrorData } from '../core/errors.js';
import { PROVIDER_FAILURE_KINDS, type ProviderFailureKind } from './provider-failure.js';

const KINDS: ReadonlySet<string> = new Set(PROVIDER_FAILURE_KINDS);

/** What a server is told of a failure of this kind: one sentence that names nothing of the person's. */
export function serverFailureMessage(kind: ProviderFailureKind): string {
  switch (kind) {
    case 'unreachable':
      return 'Taskdesk could not run the model: its provider could not be reached.';
    case 'auth':
      return 'Taskdesk could not run the model: its provider did not accept the credentials.';
    case 'forbidden':
      return 'Taskdesk could not run the model: its provider refused access.';
    case 'model-not-found':
      return 'Taskdesk could not run the model: its provider does not offer it.';
    case 'bad-request':
      return 'Taskdesk could not run the model: its provider rejected the request.';
    case 'rate-limited':
      return 'Taskdesk could not run the model: its provider is limiting requests.';
    case 'server-error':
      return 'Taskdesk could not run the model: its provider had an error.';
    case 'timeout':
      return 'Taskdesk could not run the model: its provider did not answer in time.';
    case 'dropped':
      return 'Taskdesk could not run the model: the connection to its provider dropped before the model finished.';
    case 'bad-response':
      return 'Taskdesk could not run the model: its provider returned an answer Taskdesk could not use.';
    case 'cancelled':
      return 'Sampling was cancelled.';
    default:
      return assertNever(kind, 'Unknown provider failure kind');
  }
}

/** The kind of a provider failure the engine ended a run with (`data.kind`); undefined for any other error. */
export function providerFailureKindOf(error: ErrorData): ProviderFailureKind | undefined {
  const data = error.data as { kind?: unknown; providerId?: unknown } | undefined;
  if (typeof data !== 'object' || data === null || typeof data.providerId !== 'string') return undefined;
  return typeof data.kind === 'string' && KINDS.has(data.kind) ? (data.kind as ProviderFailureKind) : undefined;
}

/**
 * The error a server gets for a model run that failed on a provider: the kind of failure in one
 * generic sentence, and `data.kind`, without the provider's name, address, id, status or words,
 * nor the advice meant for the person (those are theirs: the audit log, the task's notes, the
 * Desk's notice keep them). Any other error (a request the engine refused, a cancellation the
 * receiver caused) goes as it is.
 */
export function failureForServer(error: ErrorData): ErrorData {
  const kind = providerFailureKindOf(error);
  if (kind === undefined) return error;
  return { code: error.code, message: serverFailureMessage(kind), data: { kind } };
}

/** The note a failed run leaves on its task: the whole reason, which its server was not told. */
export type FailureNote = { failure: string };

/** The note (`WorkContext.annotate`) for a run that failed for `message`. */
export function failureNote(message: string): FailureNote {
  return { failure: message };
}

/** The whole reason of the last failed run noted on a task or request (see `failureNote`); undefined when none. */
export function failureOf(notes: ReadonlyArray<Record<string, unknown>> | undefined): string | undefined {
  const note = notes?.findLast((candidate) => 'failure' in candidate);
  return typeof note?.failure === 'string' ? note.failure : undefined;
}
