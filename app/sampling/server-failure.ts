import { assertNever } from '../core/assert-never.js';
import { JsonRpcCode, type ErrorData } from '../core/errors.js';
import { MODEL_RUN_CANCELLED, PROVIDER_FAILURE_KINDS, type ProviderFailureKind } from './provider-failure.js';

/**
 * Why the engine could not run a model on Taskdesk's own side, before any provider answered: no
 * provider lists a model, the provider chosen was removed before the run, or its key could not
 * be read. Its error's `data.kind`, as a provider failure's is.
 */
export const SETUP_FAILURE_KINDS = ['no-model', 'model-removed', 'key-store'] as const;
export type SetupFailureKind = (typeof SETUP_FAILURE_KINDS)[number];

/** What kind of failure ended a model run: its provider's, or Taskdesk's own setup's. */
export type RunFailureKind = ProviderFailureKind | SetupFailureKind;

const PROVIDER_KINDS: ReadonlySet<string> = new Set(PROVIDER_FAILURE_KINDS);
const SETUP_KINDS: ReadonlySet<string> = new Set(SETUP_FAILURE_KINDS);

/** What a server is told of a failure of this kind: one sentence that names nothing of the person's. */
export function serverFailureMessage(kind: RunFailureKind): string {
  switch (kind) {
    case 'no-model':
      return 'Taskdesk could not run a model: none is set up to run this request.';
    case 'model-removed':
      return 'Taskdesk could not run the model: it is no longer set up.';
    case 'key-store':
      return 'Taskdesk could not run the model: it could not read the credentials for its provider.';
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
      return MODEL_RUN_CANCELLED;
    case 'stopped':
      return 'Taskdesk could not run the model: the person using Taskdesk stopped it before it finished.';
    default:
      return assertNever(kind, 'Unknown provider failure kind');
  }
}

/**
 * The kind of failure the engine ended a run with (`data.kind`); undefined for any other error.
 *
 * A provider failure is the engine's when its data names the provider (`data.providerId`); a
 * setup failure's kind is the engine's alone (there may be no provider to name).
 */
export function runFailureKindOf(error: ErrorData): RunFailureKind | undefined {
  const data = error.data as { kind?: unknown; providerId?: unknown } | undefined;
  if (typeof data !== 'object' || data === null || typeof data.kind !== 'string') return undefined;
  if (SETUP_KINDS.has(data.kind)) return data.kind as SetupFailureKind;
  if (typeof data.providerId !== 'string') return undefined;
  return PROVIDER_KINDS.has(data.kind) ? (data.kind as ProviderFailureKind) : undefined;
}

/** The error of a run that failed on Taskdesk's own setup: `message` is the whole reason, for the person. */
export function setupFailure(
  kind: SetupFailureKind,
  message: string,
  where?: { providerId: string; model: string }
): ErrorData {
  return { code: JsonRpcCode.InternalError, message, data: { kind, ...where } };
}

/**
 * The error a server gets for a model run that failed on a provider or on Taskdesk's own setup:
 * the kind of failure in one generic sentence, and `data.kind`, without the provider's name,
 * address, id, model, status or words, nor the advice meant for the person (those are theirs:
 * the audit log, the task's notes, the Desk's notice keep them). Any other error (a request the
 * engine refused, a cancellation the receiver caused) goes as it is.
 */
export function failureForServer(error: ErrorData): ErrorData {
  const kind = runFailureKindOf(error);
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
