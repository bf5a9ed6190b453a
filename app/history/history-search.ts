import type { HistoryEntry, HistoryFilter, HistorySummary } from '../contract/history.js';
import { BY_THE_ASSISTANT } from '../contract/call-origin-words.js';
import { searchFolded } from '../contract/search-words.js';
import { statusLabel } from '../contract/status-labels.js';

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
 * An entry's status as its row's badge says it, as the Status filter picks it (the Tasks
 * screen's `shownStatus`): how a question to the person ended (`answered`, `declined`,
 * `dismissed`, or `replied` when its entry holds no answer, as one recorded before answers were
 * kept), `rejected` for a model request
 * turned down, else its status. A declined question is no Completed row to someone who reads
 * its badge.
 */
export function shownStatusOf(
  summary: Pick<HistorySummary, 'kind' | 'direction' | 'status' | 'answer' | 'rejected'>
): NonNullable<HistoryFilter['status']> | 'replied' {
  if (summary.kind === 'elicitation' && summary.direction === 'received' && summary.status === 'completed')
    return summary.answer === undefined ? 'replied' : ANSWERED[summary.answer];
  return summary.rejected ? 'rejected' : summary.status;
}

/**
 * What the text filter searches in an entry, lowercased: what its row shows (title, preview,
 * server, status message, error line, its badge's words, "unanswered", "by the Assistant"), its
 * ids, and how it ended: a question's answer values, a model's reply text, a tool's result text
 * and structured content (at most {@link MAX_OUTCOME_SEARCH_CHARS} of these). Made when a
 * search first reads the entry and kept until it changes, not on each keystroke.
 */
export function searchTextOf(entry: HistoryEntry, summary: HistorySummary): string {
  // A call the Assistant made is found by the words its row shows; the conversation's title
  // lives with the Assistant, not here, so the words have to do.
  const origin = entry.origin?.kind === 'assistant' ? BY_THE_ASSISTANT : '';
  const shown = statusLabel(shownStatusOf(summary));
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
    summary.unanswered ? 'unanswered' : '',
    outcome
  ].join('\n');
  return searchFolded(text);
}

/** The words of how an entry ended, by its kind; a result too large to keep whole gives the start of its JSON. */
function outcomeText(entry: HistoryEntry): string {
  if (entry.result === undefined) return '';
  if (entry.result.truncated === true) return typeof entry.result.preview === 'string' ? entry.result.preview : '';
  const result: Record<string, unknown> = entry.result;
  switch (entry.kind) {
    case 'elicitation':
      return answerValues(result.content);
    case 'sampling':
      return blockTexts(result.content);
    case 'tool-call': {
      const structured = result.structuredContent === undefined ? '' : (JSON.stringify(result.structuredContent) ?? '');
      return `${blockTexts(result.content)}\n${structured}`;
    }
  }
}

/** An elicitation answer's values (strings, numbers, booleans, lists of strings), space-separated. */
function answerValues(content: unknown): string {
  if (typeof content !== 'object' || content === null) return '';
  const values: string[] = [];
  for (const value of Object.values(content as Record<string, unknown>)) {
    if (Array.isArray(value)) values.push(...value.map(String));
    // An answer's values are strings, numbers and booleans (the schema allows no objects).
    else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      values.push(String(value));
  }
  return values.join(' ');
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
