import type { InboxItem } from '../contract/host-api.js';
import { PREVIEW_CHARS, previewLine } from '../contract/request-preview.js';
import { maskSecretsInText, secretForms } from '../core/secret-mask.js';

/**
 * Which question an Inbox item is, in a short line for its audit entries: an elicitation's
 * message, or the last text the person's side wrote in a model request (what History's title
 * quotes), cut at {@link PREVIEW_CHARS}. Never the answer, never a URL-mode elicitation's
 * address (it may carry a token), and only the start of a long text is read: a 1 MB request
 * costs the log no more than the line. Undefined when the request has no such text.
 *
 * `secrets` (the values Taskdesk holds as secrets) are masked in the text before it is cut, so
 * that a secret the cut would leave half of is masked too.
 */
export function questionPreview(
  item: Pick<InboxItem, 'kind' | 'request'>,
  secrets: Iterable<string | undefined> = []
): string | undefined {
  const text = item.kind === 'elicitation' ? elicitationText(item.request) : samplingText(item.request);
  if (text === undefined) return undefined;
  const line = previewLine(masked(text, secretForms(secrets)), PREVIEW_CHARS);
  return line === '' ? undefined : line;
}

/**
 * `text` with `forms` masked as far as its preview reads it ({@link previewLine} reads four times
 * its length), and a secret begun there runs: a 1 MB text is not searched whole. Masks shorten
 * what they cover, so the part masked grows until it is long enough.
 */
function masked(text: string, forms: readonly string[]): string {
  if (forms.length === 0) return text;
  const needed = PREVIEW_CHARS * 4 + forms[0]!.length;
  for (let end = needed; ; end *= 2) {
    if (end >= text.length) return maskSecretsInText(text, forms);
    const start = maskSecretsInText(text.slice(0, end), forms);
    // A secret the end cuts in two is past what the preview reads.
    if (start.length >= needed) return start + text.slice(end);
  }
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
