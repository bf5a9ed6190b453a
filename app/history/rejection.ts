import { USER_REJECTED } from '../contract/rejected-sampling.js';
import { userRejectedMessage } from '../contract/sampling-policy.js';

/** What History says of a model's answer the person rejected in review. */
export const ANSWER_REJECTED = 'You rejected the model’s answer; its server did not get it.';

/** What History says of a model request the person rejected before any model ran. */
export const REQUEST_REJECTED = 'You rejected the model request; no model ran.';

/** The person's rejection of a model request or of its answer, as History says it. */
export interface Rejection {
  message: string;
  /** The model's answer they rejected, as they reviewed it (its runner's notes keep it). */
  rejectedAnswer?: Record<string, unknown>;
}

/**
 * What the person rejected, when a received model request ended with their rejection (−1 with
 * "User rejected sampling request", what its server is told either way): the model's answer,
 * when the request's last phase was the review of one (its runner's notes say so, with the
 * answer), else the request itself, before any model ran. Undefined for any other end, and for a
 * refusal or a withdrawal by Taskdesk (said by `policyRefusalOf` and `withdrawalOf`, asked first).
 */
export function rejectionOf(
  kind: 'sampling' | 'elicitation',
  notes: ReadonlyArray<Record<string, unknown>> | undefined,
  outcome: { type: string; error?: { code: number; message: string } } | undefined
): Rejection | undefined {
  if (kind !== 'sampling' || outcome?.type !== 'error' || outcome.error?.code !== USER_REJECTED) return undefined;
  if (!outcome.error.message.startsWith(userRejectedMessage)) return undefined;
  const phase = lastPhase(notes ?? []);
  const answer = phase?.phase === 'awaiting-review' ? phase.result : undefined;
  if (typeof answer === 'object' && answer !== null && !Array.isArray(answer))
    return { message: ANSWER_REJECTED, rejectedAnswer: answer as Record<string, unknown> };
  return { message: REQUEST_REJECTED };
}

/** The runner's last phase note (`awaiting-approval`, `model`, `awaiting-review`). */
function lastPhase(notes: ReadonlyArray<Record<string, unknown>>): Record<string, unknown> | undefined {
  return notes.findLast((note) => typeof note.phase === 'string');
}
