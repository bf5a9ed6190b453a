/**
 * The note (`WorkContext.annotate`) a runner leaves when the person answered a request: the
 * Inbox's answer (`action` as the Inbox gave it: `reply`, `reject`, `accept`…), or their approval
 * of a model request or of its answer in review (`approve`). The Tasks row and History read it
 * (see {@link answeredByYou}), so neither reads the words of a status message.
 */
export type AnsweredNote = { answeredBy: 'user'; action: string };

export function answeredNote(action: string): AnsweredNote {
  return { answeredBy: 'user', action };
}

/**
 * Whether the person answered a received model request that completed: they wrote its reply, or
 * approved it (or its answer, in review) before it went. One run without asking, or answered by
 * Taskdesk (withdrawn), was not; nor one rejected, whose status is `failed`.
 */
export function answeredByYou(record: {
  kind: string;
  task: { status: string };
  notes?: ReadonlyArray<Record<string, unknown>> | undefined;
}): boolean {
  if (record.kind !== 'sampling' || record.task.status !== 'completed') return false;
  return (
    record.notes?.some(
      (note) => note.answeredBy === 'user' && (note.action === 'approve' || note.action === 'reply')
    ) === true
  );
}
