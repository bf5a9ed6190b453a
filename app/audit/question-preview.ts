import type { InboxItem } from '../contract/host-api.js';
import { PREVIEW_CHARS, previewLine } from '../contract/request-preview.js';

/**
 * Which question an Inbox item is, in a short line for its audit entries: an elicitation's
 * message, or the last text the person's side wrote in a model request (what History's title
 * quotes), cut at {@link PREVIEW_CHARS}. Never the answer, never a URL-mode elicitation's
 * address (it may carry a token), and only the start of a long text is read: a 1 MB request
 * costs the log no more than the line. Undefined when the request has no such text.
 */
export function questionPreview(item: Pick<InboxItem, 'kind' | 'request'>): string | undefined {
  const text = item.kind === 'elicitation' ? elicitationText(item.request) : samplingText(item.request);
  if (text === undefined) return undefined;
  const line = previewLine(text, PREVIEW_CHARS);
  return line === '' ? undefined : line;
}

function elicitationText(request: Record<string, unknown>): string | undefined {
  return typeof request.message === 'string' ? request.message : undefined;
}

function samplingText(request: Record<string, unknown>): string | undefined {
  const messages = Array.isArray(request.messages) ? (request.messages as unknown[]) : [];
  for (let index = messages.length - 1; index >= 0; index--) {
    const text = userText(messages[index]);
    if (text !== undefined) return text;
  }
  return undefined;
}

/** A user message's first text block that is not blank. */
function userText(message: unknown): string | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const { role, content } = message as { role?: unknown; content?: unknown };
  if (role !== 'user') return undefined;
  const blocks = Array.isArray(content) ? (content as unknown[]) : [content];
  for (const block of blocks) {
    const { type, text } = (block ?? {}) as { type?: unknown; text?: unknown };
    if (type === 'text' && typeof text === 'string' && text.trim() !== '') return text;
  }
  return undefined;
}
