import { argumentsPreview, previewLine } from '../contract/request-preview.js';
import { lastRanRequest } from '../contract/request-changes.js';
import type { ErrorData } from '../contract/common.js';
import { markdownPlainText } from '../contract/markdown-plain-text.js';
import { errorWords } from '../contract/error-words.js';
import { jsonPart, textPrefix } from '../store/json-text.js';

/** The longest timeline kept per entry (a chatty task's first and latest steps survive). */
export const MAX_TIMELINE_STEPS = 50;

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
): Record<string, unknown> | { truncated: true; bytes: number; preview: string; action?: AnswerAction } {
  // Through the store's serializer: a task's request was serialized once when it arrived, and its
  // text is used here rather than made again (5 ms for a 1 MB question).
  const part = jsonPart(value) ?? { text: 'null', bytes: 4 };
  if (part.bytes <= maxBytes) return value;
  // From the text's pieces: slicing the text itself would make the whole of it flat, a copy.
  // A question's large answer keeps how it was answered: its row and the Status filter say it.
  const { action } = value;
  return {
    truncated: true,
    bytes: part.bytes,
    preview: detached(textPrefix(part, PREVIEW_CHARS)),
    ...(isAnswerAction(action) && { action })
  };
}

type AnswerAction = 'accept' | 'decline' | 'cancel';

function isAnswerAction(value: unknown): value is AnswerAction {
  return value === 'accept' || value === 'decline' || value === 'cancel';
}

/**
 * A string that holds only its own characters. V8 makes a slice of a long string a view that
 * keeps the whole parent alive: a 4 KiB preview kept in the history would hold on to the 1 MiB
 * text it was cut from, for as long as the history keeps the entry. UTF-16 keeps every code unit
 * as it was (a surrogate cut in half included).
 */
function detached(slice: string): string {
  return Buffer.from(slice, 'utf16le').toString('utf16le');
}

/**
 * The request as it ran, when the person changed it before approving: the last `ranRequest` the
 * runner noted (on the task, or on an ordinary request), bounded as a request is. Undefined when
 * it ran as the server sent it.
 */
export function ranRequestOf(
  notes: ReadonlyArray<Record<string, unknown>> | undefined
): ReturnType<typeof boundedValue> | undefined {
  const ran = lastRanRequest(notes);
  return ran === undefined ? undefined : boundedValue(ran);
}

/** A received task's question in a line: the elicitation's message, or the model request's last user text. */
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
  return 'A model request';
}

/** A requested task in a line: the tool it calls. */
export function titleOfRequested(toolName: string): string {
  return oneLine(`Tool call: ${toolName}`);
}

/**
 * What tells an entry from others of the same title, in a line: a tool call's arguments; for a
 * model request whose last message is not the person's text its title quotes (a tool's result,
 * the model's own turn), that message's text. Undefined when the title says it all (an
 * elicitation's title is its whole question). From a request too large to keep whole, the start
 * of its arguments' JSON.
 */
export function previewOf(entry: {
  kind: 'sampling' | 'elicitation' | 'tool-call';
  title: string;
  request: Record<string, unknown>;
}): string | undefined {
  const { request } = entry;
  if (request.truncated === true) {
    const preview = typeof request.preview === 'string' ? request.preview : '';
    // A tool call's request is `{"name":…,"arguments":…}`; a quote inside the name is escaped.
    const at = entry.kind === 'tool-call' ? preview.indexOf('"arguments":') : -1;
    return at < 0 ? undefined : previewLine(preview.slice(at + '"arguments":'.length));
  }
  if (entry.kind === 'tool-call') return argumentsPreview(request.arguments);
  if (entry.kind !== 'sampling' || !Array.isArray(request.messages)) return undefined;
  const last = textOf(request.messages.at(-1), 'any');
  if (last === undefined) return undefined;
  const line = previewLine(last);
  return line === '' || entry.title.startsWith(line.replace(/…$/, '')) ? undefined : line;
}

/**
 * Why a tool call that ran without a task (`call:`) failed, in a line, when no status message
 * says it (see `HistorySummary.errorLine`): its error in its detail's words, "Error <code>:
 * <message>" (as `ErrorView` and the Tasks row say an error), or the words of a result with
 * `isError` (the detail's Markdown as plain text). Undefined for anything else, and for a result
 * too large to keep whole.
 */
export function errorLineOf(entry: {
  id: string;
  status: string;
  statusMessage?: string | undefined;
  error?: ErrorData | undefined;
  result?: Record<string, unknown> | undefined;
}): string | undefined {
  if (!entry.id.startsWith('call:') || entry.status !== 'failed' || entry.statusMessage !== undefined) return undefined;
  if (entry.error) return previewLine(errorWords(entry.error));
  const content = entry.result?.isError === true ? entry.result.content : undefined;
  if (!Array.isArray(content)) return undefined;
  const texts: string[] = [];
  for (const block of content as unknown[]) {
    const { type, text } = (block ?? {}) as { type?: unknown; text?: unknown };
    if (type === 'text' && typeof text === 'string') texts.push(text);
  }
  const line = previewLine(markdownPlainText(texts.join('\n\n')));
  return line === '' ? undefined : line;
}

function textOf(message: unknown, from: 'user' | 'any' = 'user'): string | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const { role, content } = message as { role?: unknown; content?: unknown };
  if (from === 'user' && role !== 'user') return undefined;
  const blocks = Array.isArray(content) ? (content as unknown[]) : [content];
  for (const block of blocks) {
    const { type, text } = (block ?? {}) as { type?: unknown; text?: unknown };
    if (type === 'text' && typeof text === 'string' && text.trim() !== '') return text;
  }
  return undefined;
}

function oneLine(text: string): string {
  // The start of a long text is enough (a 1 MB question costs no 1 MB replace): more of it only
  // while what was read flattens to fewer characters than a title has.
  let read = Math.min(text.length, TITLE_CHARS * 4);
  let flat = text.slice(0, read).replace(/\s+/g, ' ').trimStart();
  while (read < text.length && flat.trimEnd().length <= TITLE_CHARS) {
    read = Math.min(text.length, read * 4);
    flat = text.slice(0, read).replace(/\s+/g, ' ').trimStart();
  }
  flat = flat.trimEnd();
  return detached(flat.length > TITLE_CHARS ? `${flat.slice(0, TITLE_CHARS - 1)}…` : flat);
}
