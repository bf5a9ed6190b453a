import type { InboundTask } from '../../app/contract/host-api.js';
import { isRejectedSampling } from '../../app/contract/rejected-sampling.js';
import { errorWords } from '../../app/contract/error-words.js';
import { answerActionWords, answerFields, type AnswerField } from '../../app/contract/answer-words.js';
import { asText, truncate } from '../components/format.js';
import { isTerminal } from '../store/task-status.js';

/**
 * How a task ended or stands, in a line: Taskdesk's own words, words that say there is none
 * (muted), a server's plain words with a note after them (muted; empty for none), a result's text
 * (Markdown, cut to {@link OUTCOME_TEXT_LIMIT} characters) with words before it and a note after
 * it, or a form's answer: the action in words and the fields answered.
 */
export type OutcomeLine =
  | string
  | { muted: string }
  | { text: string; note: string }
  | { before: string; markdown: string; after: string }
  | { action: string; fields: AnswerField[] };

/** A cancelled task's outcome: who cancelled it is said under its status badge, once. */
export const NO_RESULT: OutcomeLine = { muted: 'No result' };

/** A question declined or dismissed: its badge says which ("Declined", "Dismissed"). */
export const NO_ANSWER: OutcomeLine = { muted: 'No answer' };

/** Enough of a result's text for the lines a summary shows; the rest is in the task's details. */
export const OUTCOME_TEXT_LIMIT = 1000;

/** How a task ended, in a line: the elicitation answer, the reply's text, or the error. */
export function outcomeSummary(inbound: InboundTask): OutcomeLine {
  // Taskdesk withdrew it: the dismissal its server was told is no answer of the person's.
  if (inbound.withdrawn !== undefined) return inbound.withdrawn;
  const outcome = inbound.outcome;
  // A cancelled task's stored −32800 says nothing beyond who cancelled it, said under its badge.
  if (inbound.task.status === 'cancelled' && outcome?.type !== 'result') return NO_RESULT;
  if (!outcome) return isTerminal(inbound.task.status) ? '—' : 'Pending';
  if (outcome.type === 'error') {
    if (!isRejectedSampling({ kind: inbound.kind, direction: 'received', error: outcome.error }))
      return errorWords(outcome.error);
    // The person's Reject: which they rejected, as History says it (the core reads it from the
    // whole record: a list's notes may be cut short); else (a policy's) its words.
    return inbound.rejection ?? `Rejected: ${outcome.error.message}`;
  }
  const result = outcome.result;
  if (inbound.kind === 'elicitation') {
    // Its badge says how the person ended it (`questionEndLabel`): no answer to show.
    if (result.action === 'decline' || result.action === 'cancel') return NO_ANSWER;
    const fields = answerFields(result.content, inbound.request.requestedSchema);
    return { action: answerActionWords(result.action), fields };
  }
  const content = result.content as { type?: unknown; text?: unknown } | undefined;
  const model = typeof result.model === 'string' ? result.model : undefined;
  if (content?.type === 'text' && typeof content.text === 'string')
    return { before: '', markdown: truncate(content.text, OUTCOME_TEXT_LIMIT), after: model ? `(${model})` : '' };
  const text = `[${asText(content?.type, 'no')} content]`;
  return model ? `${text} (${model})` : text;
}
