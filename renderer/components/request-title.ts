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
export function withdrawnWhat(notice: { kind: string; message?: string | undefined }, whose = 'its'): string {
  const quoted = notice.message ? `“${notice.message}”` : undefined;
  if (notice.kind === 'elicitation') return quoted ? `${whose} question ${quoted}` : `${whose} question`;
  const request = quoted ? `${whose} request for a model reply to ${quoted}` : `${whose} request for a model reply`;
  return notice.kind === 'sampling-review' ? `${request}, with the answer you were reviewing` : request;
}

/** A line that may end with a quote, with its full stop: none after a quote that ends with one (“Write one word.”, not “Write one word.”.). */
export function ended(line: string): string {
  return line.endsWith('.”') ? line : `${line}.`;
}

/**
 * A withdrawal in a sentence: by its server, or by Taskdesk (`reason` says why: the task it was
 * for ended), or by its server after the person stopped a call (`afterStoppedCall`, its tool).
 * `heldAnswer`: the person had answered ("Reject"), and Taskdesk held the answer for its undo
 * window when the server withdrew it: it was not sent.
 */
export function withdrawnSentence(notice: {
  kind: string;
  serverName: string;
  message?: string | undefined;
  reason?: string | undefined;
  afterStoppedCall?: string | undefined;
  offline?: boolean | undefined;
  heldAnswer?: string | undefined;
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
    return `${withdrawnWhat(notice, `${notice.serverName}’s`)} ended after you stopped the call of ${notice.afterStoppedCall}, which was running when it was asked${held === '' ? '' : `,${held}`}`;
  return `${notice.serverName} withdrew ${withdrawnWhat(notice)}${held}`;
}
