import type { InboxItem } from '../../app/contract/host-api.js';
import { markdownPlainText } from '../../app/contract/markdown-plain-text.js';
import { truncate } from '../components/format.js';
import { ended, requestTitle } from '../components/request-title.js';

/** How long a question may be on the Inbox's line before it is cut, as a Tasks row cuts it. */
export const ANSWERED_QUESTION_LIMIT = 60;

type Answered = Pick<InboxItem, 'kind' | 'request' | 'serverName'> & Partial<Pick<InboxItem, 'taskId'>>;

/**
 * What an item asked, in quotes on one line and cut to {@link ANSWERED_QUESTION_LIMIT}: an
 * elicitation's message, or a model request's last text (see {@link requestTitle}). Undefined
 * when it has neither.
 */
export function answeredQuestion(item: Answered): string | undefined {
  // A question is Markdown: the line quotes its words, as a notification does.
  const title = requestTitle(item.kind, item.request);
  const said = title === undefined ? undefined : markdownPlainText(title).replace(/\s+/g, ' ').trim();
  return said ? `“${truncate(said, ANSWERED_QUESTION_LIMIT)}”` : undefined;
}

/**
 * The Inbox's line once an answer went: to which server, and for which question, since two
 * answers to one server would read the same ("Answer sent to Books for “Which shelf?”."). A
 * task's answer is not sent: it ends the task, and is kept for the server to fetch
 * (`tasks/result`), as the Tasks row says ("Not fetched by Books yet"): "Answer kept for Books
 * to fetch: “Which shelf?”.".
 */
export function answerSentText(item: Answered): string {
  return answerWentText(item, 'Answer');
}

/** The line once a reply the person wrote went: to which server, for which request (kept, for a task). */
export function replySentText(item: Answered): string {
  return answerWentText(item, 'Reply');
}

function answerWentText(item: Answered, what: 'Answer' | 'Reply'): string {
  const question = answeredQuestion(item);
  if (item.taskId !== undefined)
    return question
      ? ended(`${what} kept for ${item.serverName} to fetch: ${question}`)
      : `${what} kept for ${item.serverName} to fetch.`;
  return question ? ended(`${what} sent to ${item.serverName} for ${question}`) : `${what} sent to ${item.serverName}.`;
}

/**
 * The line once a model request, or the model's answer to one in review, was rejected, as a
 * question's Decline says it ({@link refusedText}): "Rejected Books’s model request “Summarise
 * chapter one”.", "Rejected the model’s answer to Books’s model request “…”.".
 */
export function requestRejectedText(item: Answered): string {
  return refusedText(item, 'reject');
}

/**
 * The line once a question, or model request, was declined, dismissed or rejected: whose, and
 * which, as {@link answerSentText} names it ("Declined Books’s question “Which shelf?”."). Without
 * words to name it by, the server's alone ("Declined: Books’s question.").
 */
export function refusedText(item: Answered, action: 'decline' | 'cancel' | 'reject'): string {
  const what = action === 'decline' ? 'Declined' : action === 'cancel' ? 'Dismissed' : 'Rejected';
  const question = answeredQuestion(item);
  return question ? ended(`${what} ${namedItem(item)}`) : `${what}: ${namedItem(item)}.`;
}

/** What an item is: a question, or a model request. */
export function itemNoun(item: Pick<InboxItem, 'kind'>): 'question' | 'model request' {
  return item.kind.startsWith('sampling') ? 'model request' : 'question';
}

/**
 * An item named as the Inbox's lines name it: "Books’s question “Which shelf?”", or "Books’s
 * question"; a model's answer in review as what its Reject rejects, "the model’s answer to Books’s
 * model request “…”" (as the audit log says it), so that an Undo names what it brought back.
 */
export function namedItem(item: Answered): string {
  const question = answeredQuestion(item);
  const whose = `${item.serverName}’s ${itemNoun(item)}`;
  const named = question ? `${whose} ${question}` : whose;
  return item.kind === 'sampling-review' ? `the model’s answer to ${named}` : named;
}

/** What the live region says once Undo took an answer back: "Brought back Books’s question “Which shelf?”." */
export function broughtBackText(named: string): string {
  return ended(`Brought back ${named}`);
}
