/* Imports nothing but words (list-words, which imports nothing): the core (the audit, History) and the Desk (History's and the Tasks screen's detail) say it alike. */
import { listInWords } from './list-words.js';

/**
 * The parts of a sampling request (`sampling/createMessage` params) a person may change on the
 * approval card, by their protocol names; `other` for any other field.
 */
export const SAMPLING_REQUEST_PARTS = [
  'messages',
  'systemPrompt',
  'maxTokens',
  'temperature',
  'stopSequences',
  'modelPreferences',
  'includeContext',
  'tools',
  'toolChoice',
  'metadata',
  'other'
] as const;
export type SamplingRequestPart = (typeof SAMPLING_REQUEST_PARTS)[number];

/** The parts of a model's answer (`CreateMessageResult`) a person may change in review; `other` for any other field. */
export const SAMPLING_RESULT_PARTS = ['content', 'model', 'stopReason', 'role', 'other'] as const;
export type SamplingResultPart = (typeof SAMPLING_RESULT_PARTS)[number];

/**
 * Which parts differ between what a server sent and what a person changed it to, in the order of
 * `parts`: their names, never their content (what the audit log may hold). A field of no known
 * part counts as `other`, so a field's name is never repeated either.
 */
export function changedParts<P extends string>(
  parts: readonly P[],
  before: Record<string, unknown>,
  after: Record<string, unknown>
): P[] {
  const changed = new Set<string>();
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[key]) === JSON.stringify(after[key])) continue;
    changed.add((parts as readonly string[]).includes(key) ? key : 'other');
  }
  return parts.filter((part) => changed.has(part));
}

/**
 * The request as it ran, when the person changed it on the approval card: the last `ranRequest`
 * its runner noted on the task (`notes`), whole. Undefined when it ran as the server sent it:
 * no such note, or the last one `null` (a try after a failed one ran the server's request again).
 * History keeps it (bounded) beside the server's request; the Tasks screen reads it from the task.
 */
export function lastRanRequest(
  notes: ReadonlyArray<Record<string, unknown>> | undefined
): Record<string, unknown> | undefined {
  for (let index = (notes?.length ?? 0) - 1; index >= 0; index--) {
    const note = notes![index]!;
    if (!Object.hasOwn(note, 'ranRequest')) continue;
    const ran = note.ranRequest;
    return typeof ran === 'object' && ran !== null && !Array.isArray(ran)
      ? (ran as Record<string, unknown>)
      : undefined;
  }
  return undefined;
}

const PART_WORDS: Record<string, string> = {
  messages: 'the messages',
  systemPrompt: 'the system prompt',
  maxTokens: 'the token limit',
  temperature: 'the temperature',
  stopSequences: 'the stop sequences',
  modelPreferences: 'the model preferences',
  includeContext: 'the context to include',
  tools: 'the tools',
  toolChoice: 'the tool choice',
  metadata: 'the metadata',
  model: 'the model',
  // A model's answer under review.
  content: 'the answer',
  stopReason: 'the stop reason',
  role: 'the role',
  other: 'other fields'
};

/** Changed parts in words: "the system prompt and the messages". */
export function partsInWords(parts: readonly string[]): string {
  const words = parts.map((part) => PART_WORDS[part] ?? part);
  return listInWords(words);
}

/**
 * What the person changed before a model request ran, in a sentence (History's and the Tasks
 * screen's detail); a request too large to keep whole says only that it changed.
 */
export function ranRequestSentence(request: Record<string, unknown>, ran: Record<string, unknown>): string {
  const parts =
    request.truncated === true || ran.truncated === true ? [] : changedParts(SAMPLING_REQUEST_PARTS, request, ran);
  return parts.length > 0
    ? `You changed ${partsInWords(parts)} before approving it; this is what the model was sent.`
    : 'You changed this request before approving it; this is what the model was sent.';
}
