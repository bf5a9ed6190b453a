/**
 * The note (`WorkContext.annotate`) a runner leaves when Taskdesk, not the person, answered a
 * request: it withdrew it because nothing waits on it any more (the task it was asked for ended,
 * or was forgotten). Its server was answered as a dismissal (`action`), but the person's record
 * says what happened, and why.
 */
/**
 * Why Taskdesk withdrew a request, for a machine: `policy` when the person set its server's
 * sampling policy to refuse while it waited. History tells such a refusal by it, not by words.
 */
export type WithdrawalCause = 'policy';

export type WithdrawnNote = {
  answeredBy: 'taskdesk';
  /** What its server was told: an elicitation's `cancel`, a model request's `reject` (−1). */
  action: string;
  /** Why, in words for a person (the Inbox notice's words). */
  reason: string;
  /**
   * Set when the person's own action is why (they cancelled, or forgot, the task it was asked
   * for): Taskdesk answered, but History says the person cancelled it, as the task beside it says.
   */
  byYou?: true;
  /** Why, for a machine, when there is a cause History tells apart (see {@link WithdrawalCause}). */
  cause?: WithdrawalCause;
};

/**
 * The note for a request Taskdesk withdrew, answered `action`, for `reason`; `byYou` when the
 * person's act is why; `cause` when it is one History tells apart.
 */
export function withdrawnNote(action: string, reason: string, byYou = false, cause?: WithdrawalCause): WithdrawnNote {
  return {
    answeredBy: 'taskdesk',
    action,
    reason,
    ...(byYou && { byYou: true as const }),
    ...(cause !== undefined && { cause })
  };
}

/**
 * Why Taskdesk withdrew the request whose runner left `notes`, and whether the person's own
 * action was why; undefined when it did not withdraw it.
 */
export function withdrawnOf(
  notes: ReadonlyArray<Record<string, unknown>> | undefined
): { reason: string; byYou: boolean; cause?: unknown } | undefined {
  const note = notes?.findLast((candidate) => 'answeredBy' in candidate);
  return note?.answeredBy === 'taskdesk' && typeof note.reason === 'string'
    ? { reason: note.reason, byYou: note.byYou === true, ...('cause' in note && { cause: note.cause }) }
    : undefined;
}
