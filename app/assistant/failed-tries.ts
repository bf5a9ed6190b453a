/** A failed model call as a retry compares it: its kind (the error card's title) and its reason mark. */
export interface FailureShape {
  kind: string;
  reason?: string | undefined;
}

/** The failure a retry follows: its shape, and how many tries in a row failed that way. */
export interface PreviousFailure extends FailureShape {
  tries: number;
}

/**
 * How many tries in a row failed as `failure` did: one more than before when the try before
 * failed the same way (same kind and reason; the words may differ, as a model file's name the
 * number of tools offered), else one. A retry that fails otherwise (a refused key after a rate
 * limit) starts the count again: its card says nothing of tries that failed for another reason.
 */
export function failedTries(previous: PreviousFailure | undefined, failure: FailureShape): number {
  return previous !== undefined && previous.kind === failure.kind && previous.reason === failure.reason
    ? previous.tries + 1
    : 1;
}
