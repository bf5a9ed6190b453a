/**
 * The note (`WorkContext.annotate`) a runner leaves when Taskdesk, not the person, answered a
 * request: it withdrew it because nothing waits on it any more (the task it was asked for ended,
 * or was forgotten). Its server was answered as a dismissal (`action`), but the person's record
 * says what happened, and why.
 */
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
};

/** The note for a request Taskdesk withdrew, answered `action`, for `reason`; `byYou` when the person's act is why. */
export function withdrawnNote(action: string, reason: string, byYou = false): WithdrawnNote {
  return { answeredBy: 'taskdesk', action, reason, ...(byYou && { byYou: true as const }) };
}

/**
 * Why Taskdesk withdrew the request whose runner left `notes`, and whether the person's own
 * action was why; undefined when it did not withdraw it.
 */
export function withdrawnOf(
  notes: ReadonlyArray<Record<string, unknown>> | undefined
): { reason: string; byYou: boolean } | undefined {
  const note = notes?.findLast((candidate) => 'answeredBy' in candidate);
  return note?.answeredBy === 'taskdesk' && typeof note.reason === 'string'
    ? { reason: note.reason, byYou: note.byYou === true }
    : undefined;
}
