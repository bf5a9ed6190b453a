/** How large a request or result may be in the history before only its start is kept. */
export const MAX_HISTORY_VALUE_BYTES = 32 * 1024;
/** How much of a value too large for the history is kept, as JSON text. */
const PREVIEW_CHARS = 4096;
const TITLE_CHARS = 200;

/**
 * `value` as the history keeps it: whole up to {@link MAX_HISTORY_VALUE_BYTES} of JSON,
 * otherwise its size and the start of its JSON. A result with a large image stays whole within
 * the task's TTL in the task store; the history is the person's record, and stays small.
 */
export function boundedValue(
  value: Record<string, unknown>,
  maxBytes = MAX_HISTORY_VALUE_BYTES
): Record<string, unknown> | { truncated: true; bytes: number; preview: string } {
  const text = JSON.stringify(value);
  const bytes = Buffer.byteLength(text);
  if (bytes <= maxBytes) return value;
  return { truncated: true, bytes, preview: text.slice(0, PREVIEW_CHARS) };
}

/** A received task's question in a line: the elicitation's message, or the sampling request's last user text. */
export function titleOfReceived(kind: 'sampling' | 'elicitation', request: Record<string, unknown>): string {
  if (kind === 'elicitation') {
    const message = request.message;
    return oneLine(typeof message === 'string' && message.trim() !== '' ? message : 'A question from the server');
  }
  const messages = Array.isArray(request.messages) ? (request.messages as unknown[]) : [];
  for (let index = messages.length - 1; index >= 0; index--) {
    const text = textOf(messages[index]);
    if (text) return oneLine(text);
  }
  return 'A sampling request';
}

/** A requested task in a line: the tool it calls. */
export function titleOfRequested(toolName: string): string {
  return oneLine(`Tool call: ${toolName}`);
}

function textOf(message: unknown): string | undefined {
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

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > TITLE_CHARS ? `${flat.slice(0, TITLE_CHARS - 1)}…` : flat;
}
