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
};

/** The note for a request Taskdesk withdrew, answered `action`, for `reason`. */
export function withdrawnNote(action: string, reason: string): WithdrawnNote {
  return { answeredBy: 'taskdesk', action, reason };
}

/** Why Taskdesk withdrew the request whose runner left `notes`; undefined when it did not. */
export function withdrawnReasonOf(notes: ReadonlyArray<Record<string, unknown>> | undefined): string | undefined {
  const note = notes?.findLast((candidate) => 'answeredBy' in candidate);
  return note?.answeredBy === 'taskdesk' && typeof note.reason === 'string' ? note.reason : undefined;
}
