import { USER_REJECTED, userRejectedMessage } from './rejected-sampling.js';

/* The core (History) and the Desk (a task's row and detail on Tasks) say a rejection alike. */

/** What is said of a model's answer the person rejected in review. */
export const ANSWER_REJECTED = 'You rejected the model’s answer; its server did not get it.';

/** What is said of a model request the person rejected before any model ran. */
export const REQUEST_REJECTED = 'You rejected the model request; no model ran.';

/** What is said of a model request the person rejected after the run they approved failed. */
export function rejectedAfterFailure(failure: { message: string; stopped?: boolean }): string {
  if (failure.stopped === true)
    return 'You rejected the model request after you stopped its model run; its server did not get an answer.';
  // The reason is a sentence of its own: inside the brackets, without its full stop.
  const reason = failure.message.trim().replace(/\.+$/, '');
  return `You rejected the model request after its model run failed (${reason}); its server did not get an answer.`;
}

/** The person's rejection of a model request or of its answer, in words. */
export interface Rejection {
  message: string;
  /** The model's answer they rejected, as they reviewed it (its runner's notes keep it). */
  rejectedAnswer?: Record<string, unknown>;
}

/**
 * What the person rejected, when a received model request ended with their rejection (−1 with
 * "User rejected sampling request", what its server is told either way), read from its runner's
 * notes: the model's answer, when the request's last phase was the review of one (the note keeps
 * the answer); the request after the run they approved failed or they stopped it (the request
 * came back to them with `lastFailure`, which says why); else the request itself, before any
 * model ran. Undefined for any other end, and for a refusal or a withdrawal by Taskdesk (said by
 * History's `policyRefusalOf` and `withdrawalOf`, and a task's `withdrawn`, asked first).
 */
export function rejectionOf(
  kind: string,
  notes: ReadonlyArray<Record<string, unknown>> | undefined,
  outcome: { type: string; error?: { code: number; message: string } } | undefined
): Rejection | undefined {
  if (kind !== 'sampling' || outcome?.type !== 'error' || outcome.error?.code !== USER_REJECTED) return undefined;
  if (!outcome.error.message.startsWith(userRejectedMessage)) return undefined;
  const phase = lastPhase(notes ?? []);
  const answer = phase?.phase === 'awaiting-review' ? phase.result : undefined;
  if (isRecord(answer)) return { message: ANSWER_REJECTED, rejectedAnswer: answer };
  const failure = phase?.phase === 'awaiting-approval' ? phase.lastFailure : undefined;
  if (isRecord(failure) && typeof failure.message === 'string')
    return { message: rejectedAfterFailure({ message: failure.message, stopped: failure.stopped === true }) };
  return { message: REQUEST_REJECTED };
}

/** The runner's last phase note (`awaiting-approval`, `model`, `awaiting-review`). */
function lastPhase(notes: ReadonlyArray<Record<string, unknown>>): Record<string, unknown> | undefined {
  return notes.findLast((note) => typeof note.phase === 'string');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
