import { changedParts, SAMPLING_RESULT_PARTS } from '../contract/request-changes.js';

/**
 * The model's answer as it came, when the person changed it in review before it went back to its
 * server: the answer the runner's review note holds (its last phase, `awaiting-review`), when it
 * differs from what was sent (`outcome`'s result). Undefined for any other end: a model request
 * not reviewed, an answer approved as it was, one rejected (`rejectionOf` keeps that one).
 */
export function modelAnswerOf(
  kind: string,
  notes: ReadonlyArray<Record<string, unknown>> | undefined,
  outcome: { type: string; result?: unknown } | undefined
): Record<string, unknown> | undefined {
  if (kind !== 'sampling' || outcome?.type !== 'result' || !isRecord(outcome.result)) return undefined;
  const phase = (notes ?? []).findLast((note) => typeof note.phase === 'string');
  const answer = phase?.phase === 'awaiting-review' ? phase.result : undefined;
  if (!isRecord(answer)) return undefined;
  return changedParts(SAMPLING_RESULT_PARTS, answer, outcome.result).length > 0 ? answer : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
