import type { HistoryEntry, HistorySummary } from '../../app/contract/host-api.js';
import { cancelledWords, WAITING_FOR_YOU_LABEL } from '../../app/contract/task-row-words.js';
import { questionEndLabel, statusLabel } from '../components/status-words.js';
import { isRejectedSampling } from '../../app/contract/rejected-sampling.js';

/**
 * What a cancelled History entry's badge says: who cancelled it ("Cancelled by Taskdesk"), in
 * place of the bare "Cancelled", so that the row and the detail say it once. Undefined for an
 * entry that was not cancelled (its badge says its status).
 */
export function cancelledLabel(entry: Pick<HistorySummary, 'status' | 'cancelledBy'>): string | undefined {
  return entry.status === 'cancelled' ? cancelledWords(entry.cancelledBy) : undefined;
}

/**
 * What a model request's badge says when the person answered it, a reply they wrote or one they
 * approved (the core's `answer` says so: see `answerOf` in app/history/history-search.ts):
 * "Answered", as a question's, rather than the protocol's "Completed". Undefined otherwise.
 */
export function modelRequestEndLabel(entry: {
  kind: string;
  direction: string;
  status: string;
  answer?: HistorySummary['answer'];
}): string | undefined {
  const answered =
    entry.kind === 'sampling' &&
    entry.direction === 'received' &&
    entry.status === 'completed' &&
    entry.answer === 'accept';
  return answered ? statusLabel('answered') : undefined;
}

/**
 * What an entry's badge says in place of its status: who cancelled it (see `cancelledLabel`),
 * how a question to the person ended ("Answered", "Declined", "Dismissed": see
 * `questionEndLabel`: the whole entry's result, or a list's summary's `answer`, says which),
 * "Answered" for a model request the person answered (see `modelRequestEndLabel`), or "Waiting
 * for you" for a task whose question or model request waits in the Inbox (`waitsOnYou`), as the
 * Tasks screen's badge says it in place of "Working".
 */
export function endLabel(
  entry: Pick<HistorySummary, 'kind' | 'direction' | 'status' | 'cancelledBy' | 'answer' | 'waitsOnYou'> &
    Pick<Partial<HistoryEntry>, 'result'>
): string | undefined {
  return (
    cancelledLabel(entry) ??
    questionEndLabel(entry) ??
    modelRequestEndLabel(entry) ??
    (entry.waitsOnYou === true ? WAITING_FOR_YOU_LABEL : undefined)
  );
}

/** The words a question's end step says after its status, which its label now says itself. */
const ANSWER_MESSAGES = new Set(['You answered', 'You declined', 'Dismissed without an answer']);

/**
 * The timeline as the badge says it: a question's end step labelled "Answered", "Declined" or
 * "Dismissed" (see `endLabel`) in place of "Completed", without the message that said the same;
 * a model request turned down ends "Rejected", as its badge says, not "Failed"; a tool task the
 * person cancelled ends without its server's word on that cancel ("Client cancelled task
 * execution."), as the entry's status line leaves it out.
 */
export function answeredSteps(entry: HistoryEntry): HistoryEntry['timeline'] {
  if (isRejectedSampling(entry))
    return entry.timeline.map((step) =>
      step.status === 'failed' && step.label === undefined ? { ...step, label: statusLabel('rejected') } : step
    );
  if (entry.direction === 'requested' && entry.status === 'cancelled' && entry.cancelledBy === 'you')
    return entry.timeline.map((step) => {
      if (step.status !== 'cancelled' || step.message === undefined) return step;
      const { message: _restated, ...rest } = step;
      return rest;
    });
  const label = entry.status === 'completed' ? endLabel(entry) : undefined;
  if (label === undefined) return entry.timeline;
  return entry.timeline.map((step) => {
    if (step.status !== 'completed' || step.label !== undefined) return step;
    const { message, ...rest } = step;
    return message === undefined || ANSWER_MESSAGES.has(message) ? { ...rest, label } : { ...step, label };
  });
}
