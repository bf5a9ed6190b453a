/* Imports nothing: the core (the audit, History) and the Desk (History's detail) say it alike. */

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
  other: 'other fields'
};

/** Changed parts in words: "the system prompt and the messages". */
export function partsInWords(parts: readonly string[]): string {
  const words = parts.map((part) => PART_WORDS[part] ?? part);
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)!}`;
}
