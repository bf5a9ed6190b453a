/** The kinds of task the host API names (received sampling and elicitation, requested tool calls). */
export type TaskKind = 'sampling' | 'elicitation' | 'tool-call';

/**
 * Each kind of task in words, as every screen names it: the Tasks table, its filter and detail,
 * and History's list and filter.
 *
 * The Inbox's words: a server's elicitation is a question, its sampling request a model request.
 */
export const KIND_WORDS: Readonly<Record<TaskKind, string>> = {
  sampling: 'Model request',
  elicitation: 'Question',
  'tool-call': 'Tool call'
};

/** The kinds as a filter offers them: `[kind, words]`, in {@link KIND_WORDS}' order. */
export const KIND_CHOICES = Object.entries(KIND_WORDS) as ReadonlyArray<readonly [TaskKind, string]>;

/** Which way a task went, as the Tasks and History filters offer it: `[direction, words]`. */
export const DIRECTION_CHOICES: ReadonlyArray<readonly ['received' | 'requested', string]> = [
  ['received', 'Received from servers'],
  ['requested', 'Requested by Taskdesk']
];

/** A kind in words; one the Desk does not know (from a newer host) as the host names it. */
export function kindWords(kind: string): string {
  return Object.hasOwn(KIND_WORDS, kind) ? KIND_WORDS[kind as TaskKind] : kind;
}
