import type { InboxItem } from '../../app/contract/host-api.js';

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

/**
 * An Inbox item's kind in words, for its card's badge: {@link KIND_WORDS}' words for what the
 * server asks, then what the person is asked to do with it when that is not to answer it.
 */
export function inboxKindWords(item: Pick<InboxItem, 'kind' | 'request'>): string {
  switch (item.kind) {
    case 'elicitation':
      return item.request.mode === 'url' ? `${KIND_WORDS.elicitation} · link` : KIND_WORDS.elicitation;
    case 'sampling':
      return KIND_WORDS.sampling;
    case 'sampling-approval':
      return `${KIND_WORDS.sampling} · approve`;
    case 'sampling-review':
      return 'Model answer · review';
    default: {
      const missed: never = item.kind;
      return String(missed);
    }
  }
}

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
