import { truncate } from './format.js';

/**
 * What a server's request asks, in a line of at most `max` characters: an elicitation's
 * question, or the last text among a model request's messages (what the person last said, as a
 * rule). Undefined when it has neither, so that each place says "a question" its own way.
 */
export function requestTitle(kind: string, request: Record<string, unknown>, max = 160): string | undefined {
  if (kind === 'elicitation') {
    const message = typeof request.message === 'string' ? request.message.trim() : '';
    return message === '' ? undefined : truncate(message, max);
  }
  const messages = Array.isArray(request.messages) ? (request.messages as Array<Record<string, unknown>>) : [];
  for (const message of [...messages].reverse()) {
    const content = message.content as { type?: unknown; text?: unknown } | undefined;
    if (content?.type === 'text' && typeof content.text === 'string' && content.text.trim() !== '')
      return truncate(content.text.trim(), max);
  }
  return undefined;
}

/**
 * What was withdrawn, in words: a question, or a model request, quoting what it asked (as given:
 * a notice quotes the whole, cutting it short itself); `whose` says whose ("its", or "Everything’s"
 * when Taskdesk, not the server, withdrew it).
 */
export function withdrawnWhat(
  notice: { kind: string; message?: string | undefined },
  whose = 'its',
  /** Leaves out ", with the answer you were reviewing": the sentence says what became of the answer itself. */
  answerSaid = false
): string {
  const quoted = notice.message ? `“${notice.message}”` : undefined;
  if (notice.kind === 'elicitation') return quoted ? `${whose} question ${quoted}` : `${whose} question`;
  const request = quoted ? `${whose} request for a model reply to ${quoted}` : `${whose} request for a model reply`;
  return notice.kind === 'sampling-review' && !answerSaid ? `${request}, with the answer you were reviewing` : request;
}

/** What a withdrawn notice's Show all shows the whole of: the question, or the model request it quotes. */
export function withdrawnNoun(kind: string): 'question' | 'model request' {
  return kind === 'elicitation' ? 'question' : 'model request';
}

/** A line that may end with a quote, with its full stop: none after a quote that ends with one (“Write one word.”, not “Write one word.”.). */
export function ended(line: string): string {
  return line.endsWith('.”') ? line : `${line}.`;
}

/**
 * A withdrawal in a sentence: by its server, or by Taskdesk (`reason` says why: the task it was
 * for ended), or by its server after the person stopped a call (`afterStoppedCall`, its tool).
 * `heldAnswer`: the person had answered ("Reject"), and Taskdesk held the answer for its undo
 * window when the server withdrew it: it was not sent. `timedOut`: the server's cancellation said
 * the request timed out; without it, what is known is that the server withdrew it, or, of an
 * answer under review, stopped waiting.
 */
export function withdrawnSentence(notice: {
  kind: string;
  serverName: string;
  message?: string | undefined;
  reason?: string | undefined;
  afterStoppedCall?: string | undefined;
  offline?: boolean | undefined;
  heldAnswer?: string | undefined;
  timedOut?: boolean | undefined;
}): string {
  if (notice.offline === true)
    return `${withdrawnWhat(notice, `${notice.serverName}’s`)} went while this page was not connected to Taskdesk (answered in another window, or withdrawn)`;
  if (notice.reason !== undefined)
    return `Taskdesk withdrew ${withdrawnWhat(notice, `${notice.serverName}’s`)}: ${notice.reason}`;
  const held =
    notice.heldAnswer === undefined ? '' : ` while your ${notice.heldAnswer} waited to be sent: it was not sent`;
  // Said in the order it happened, not as the server's change of mind: the stop likely ended it,
  // but nothing the server sends says which call its request was for (see `afterStoppedCall`).
  if (notice.afterStoppedCall !== undefined)
    return `${withdrawnWhat(notice, `${notice.serverName}’s`, true)} ended after you stopped the call of ${notice.afterStoppedCall}, which was running when it was asked${held === '' ? '' : `,${held}`}`;
  // A model's answer under review: one sentence, that the server no longer waits (it timed out,
  // or cancelled: said as its cancellation tells) and that the answer did not go. Not "withdrew
  // its request…, with the answer you were reviewing before you answered".
  const unsent = notice.kind === 'sampling-review' ? ' before you sent the answer you were reviewing' : '';
  if (notice.timedOut === true)
    return `${withdrawnWhat(notice, `${notice.serverName}’s`, true)} timed out${held === '' ? unsent : held}`;
  if (notice.kind === 'sampling-review') {
    const reply = notice.message ? `a model reply to “${notice.message}”` : 'a model reply';
    return `${notice.serverName} stopped waiting for ${reply}${held === '' ? unsent : held}`;
  }
  return `${notice.serverName} withdrew ${withdrawnWhat(notice)}${held}`;
}

/**
 * A withdrawn notice's whole sentence, as the notice shows it and the live region says it: with
 * "before you answered" where its server withdrew a question the person had not answered.
 */
export function withdrawnNoticeSentence(notice: Parameters<typeof withdrawnSentence>[0]): string {
  if (notice.reason !== undefined) return withdrawnSentence(notice);
  // An answer held for its undo window when it went: the person had answered (the sentence says so).
  // A review's sentence says what became of the answer itself.
  return notice.afterStoppedCall !== undefined ||
    notice.offline === true ||
    notice.heldAnswer !== undefined ||
    notice.kind === 'sampling-review'
    ? ended(withdrawnSentence(notice))
    : `${withdrawnSentence(notice)} before you answered.`;
}
