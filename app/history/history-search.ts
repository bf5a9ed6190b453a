import type { HistoryEntry, HistoryFilter, HistorySummary } from '../contract/history.js';
import { BY_THE_ASSISTANT } from '../contract/call-origin-words.js';
import { answerWordLists } from '../contract/answer-words.js';
import { searchFolded } from '../contract/search-words.js';
import { statusLabel } from '../contract/status-labels.js';
import { CHANGED_BY_YOU, cancelledWords, forCallWords, WAITING_FOR_YOU_LABEL } from '../contract/task-row-words.js';
import { WAITING_IN_INBOX } from '../inbox/inbox-runners.js';

/**
 * The most of an entry's outcome (an answer's values, a model's reply, a tool's result) its
 * search text holds. The texts stay in memory beside the entries, and the filter runs over every
 * entry on each keystroke; a result may be 32 KiB of JSON (`MAX_HISTORY_VALUE_BYTES`) in each of
 * 20,000 entries. The start of it is what a person searches for: 1 KiB keeps the texts to about
 * 20 MB at the most (4 KiB would have been 80).
 */
export const MAX_OUTCOME_SEARCH_CHARS = 1024;

/** A question's answer by its action, as its row says it in place of "Completed". */
const ANSWERED = { accept: 'answered', decline: 'declined', cancel: 'dismissed' } as const;

/**
 * The words of a step in which the person approved a model request (or tried it again after a
 * failed run) and a model went on to write the answer: "Approved by you; fake-small is writing
 * the answer." (the status message `PolicySamplingRunner` sets on their decision).
 */
const APPROVED_BY_YOU = /^(Approved|Tried again) by you\b/;

/**
 * How the person answered what an entry asked them (see `HistorySummary.answer`): a server's
 * question by its result's action; `accept` for a model request they answered, a reply they
 * wrote or one they approved, so that its row says "Answered" as a question's does rather than
 * the protocol's "Completed": the entry keeps it, from its runner's note. One recorded before
 * entries kept it is read from its timeline: the last step before its end is their
 * wait in the Inbox (their answer ended it: a reply they wrote, a model's answer they approved
 * on review) or their approval of the request ("Approved by you; … is writing the answer."). A
 * model request that ran with nobody asked, or that the Inbox handed to a model set up while it
 * waited (a plain working step after the wait), had no answer of theirs: it stays Completed.
 */
export function answerOf(
  entry: Pick<HistoryEntry, 'kind' | 'direction' | 'status' | 'result' | 'timeline' | 'answer'>
): Pick<HistorySummary, 'answer'> {
  if (entry.direction !== 'received') return {};
  if (entry.kind === 'elicitation') {
    const action = (entry.result as { action?: unknown } | undefined)?.action;
    return action === 'accept' || action === 'decline' || action === 'cancel' ? { answer: action } : {};
  }
  if (entry.kind !== 'sampling' || entry.status !== 'completed') return {};
  // Kept on the entry from its runner's note since this version (see `answeredByYou`); an entry
  // recorded before it is read from its timeline's words.
  if (entry.answer === 'accept') return { answer: 'accept' };
  const before = entry.timeline.findLast((step) => step.status === 'working' || step.status === 'input_required');
  const message = before?.label === undefined ? before?.message : undefined;
  return message !== undefined && (message.startsWith(WAITING_IN_INBOX) || APPROVED_BY_YOU.test(message))
    ? { answer: 'accept' }
    : {};
}

/**
 * An entry's status as its row's badge says it, as the Status filter picks it (the Tasks
 * screen's `shownStatus`): how a question to the person ended (`answered`, `declined`,
 * `dismissed`, or `replied` when its entry holds no answer, as one recorded before answers were
 * kept), `answered` for a model request the person answered (see {@link answerOf}), `rejected`
 * for a model request turned down, else its status. A declined question is no Completed row to
 * someone who reads its badge.
 */
export function shownStatusOf(
  summary: Pick<HistorySummary, 'kind' | 'direction' | 'status' | 'answer' | 'rejected'>
): Exclude<NonNullable<HistoryFilter['status']>, 'waiting'> | 'replied' {
  if (summary.direction === 'received' && summary.status === 'completed') {
    if (summary.kind === 'elicitation') return summary.answer === undefined ? 'replied' : ANSWERED[summary.answer];
    if (summary.kind === 'sampling' && summary.answer === 'accept') return 'answered';
  }
  return summary.rejected ? 'rejected' : summary.status;
}

/**
 * Whether a received task's question or model request waits in the Inbox for the person (see
 * `HistorySummary.waitsOnYou`): it runs, and its status message is the one the Inbox's runners
 * give its server while the person has it (`WAITING_IN_INBOX`, with what they are to do after
 * it). The Tasks screen knows it from the Inbox's items; History has what the task's server was
 * told, which says the same: a decision replaces the message at once ("Approved by you; …"), or
 * ends the task.
 */
export function waitsOnYouOf(entry: Pick<HistoryEntry, 'id' | 'status' | 'statusMessage'>): boolean {
  return (
    entry.id.startsWith('received:') &&
    (entry.status === 'working' || entry.status === 'input_required') &&
    entry.statusMessage?.startsWith(WAITING_IN_INBOX) === true
  );
}

/**
 * What the text filter searches in an entry, lowercased: what its row shows (title, preview,
 * server, status message, error line, its badge's words as the Desk says them ("Cancelled by the
 * server", "Waiting for you") and its status's, "unanswered", "changed by you", "by the
 * Assistant", and the call a question or model request was asked for or while, "for the call of
 * lookup", from `summary.forCall`), its ids, and how it ended: a question's answer as its detail
 * says it and as it was sent, a model's reply text, a tool's result text and structured content
 * (at most {@link MAX_OUTCOME_SEARCH_CHARS} of these). Made when a search first reads the entry
 * and kept until it changes or its call's words do, not on each keystroke.
 */
export function searchTextOf(entry: HistoryEntry, summary: HistorySummary): string {
  // A call the Assistant made is found by the words its row shows; the conversation's title
  // lives with the Assistant, not here, so the words have to do.
  const origin = entry.origin?.kind === 'assistant' ? BY_THE_ASSISTANT : '';
  // The badge's words: its status's (found as on the Tasks screen, "Working" for a task waiting
  // on the person too), and what it says in their place (who cancelled it, that it waits on you).
  const shown = statusLabel(shownStatusOf(summary));
  const badge =
    summary.status === 'cancelled'
      ? cancelledWords(summary.cancelledBy)
      : summary.waitsOnYou === true
        ? WAITING_FOR_YOU_LABEL
        : '';
  const outcome = outcomeText(entry).slice(0, MAX_OUTCOME_SEARCH_CHARS);
  const text = [
    entry.title,
    summary.preview ?? '',
    entry.serverName,
    entry.serverId,
    entry.statusMessage ?? '',
    summary.errorLine ?? '',
    entry.taskId ?? '',
    entry.relatedTaskId ?? '',
    entry.askedFor ?? '',
    origin,
    shown,
    badge,
    summary.unanswered ? 'unanswered' : '',
    summary.edited === true ? CHANGED_BY_YOU : '',
    summary.forCall === undefined ? '' : forCallWords(summary.forCall),
    outcome
  ].join('\n');
  return searchFolded(text);
}

/**
 * The words of how an entry ended, by its kind, and of a model answer the person rejected (shown
 * under "Rejected answer"); a value too large to keep whole gives the start of its JSON.
 */
function outcomeText(entry: HistoryEntry): string {
  const rejected =
    entry.rejectedAnswer === undefined ? '' : keptText(entry.rejectedAnswer, (answer) => blockTexts(answer.content));
  if (entry.result === undefined) return rejected;
  return [keptText(entry.result, (result) => resultText(entry, result)), rejected].filter(Boolean).join('\n');
}

/** A kept value's words, as `words` reads it whole; the start of its JSON when it was too large to keep. */
function keptText(
  value: NonNullable<HistoryEntry['result']>,
  words: (whole: Record<string, unknown>) => string
): string {
  if (value.truncated === true) return typeof value.preview === 'string' ? value.preview : '';
  const whole: Record<string, unknown> = value;
  return words(whole);
}

/** A whole result's words, by its entry's kind. */
function resultText(entry: HistoryEntry, result: Record<string, unknown>): string {
  switch (entry.kind) {
    case 'elicitation':
      return answerWords(result.content, (entry.request as Record<string, unknown>).requestedSchema);
    case 'sampling':
      return blockTexts(result.content);
    case 'tool-call': {
      const structured = result.structuredContent === undefined ? '' : (JSON.stringify(result.structuredContent) ?? '');
      return `${blockTexts(result.content)}\n${structured}`;
    }
  }
}

/**
 * An elicitation answer in words, space-separated: each field as its detail shows it
 * (`answerFields`: the requested schema's title for it, else its name; an option's title, Yes or
 * No) and each value as it was sent (`prod`, `true`), which the answer's JSON shows. A request too
 * large to keep has no schema left: its answer's values are said without titles.
 */
function answerWords(content: unknown, requestedSchema: unknown): string {
  if (typeof content !== 'object' || content === null) return '';
  const words = answerWordLists(content, requestedSchema).flatMap((field) => [field.title, ...field.values]);
  // An answer's values are strings, numbers and booleans, or lists of them (the schema allows no objects).
  for (const value of Object.values(content as Record<string, unknown>))
    for (const one of Array.isArray(value) ? (value as unknown[]) : [value])
      if (typeof one === 'string' || typeof one === 'number' || typeof one === 'boolean') words.push(String(one));
  return words.join(' ');
}

/** The text of a content block or of a list of them (a model's reply may be either). */
function blockTexts(content: unknown): string {
  const blocks = Array.isArray(content) ? (content as unknown[]) : [content];
  const texts: string[] = [];
  for (const block of blocks) {
    const { type, text } = (block ?? {}) as { type?: unknown; text?: unknown };
    if (type === 'text' && typeof text === 'string') texts.push(text);
  }
  return texts.join('\n');
}
