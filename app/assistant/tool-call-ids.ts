import { randomInt } from 'node:crypto';

const ID_CHARACTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/**
 * The ids a model answer's tool calls take in the conversation: the provider's own where it is
 * new to the conversation, a fresh Taskdesk id where it is missing or already taken (by a call of
 * an earlier turn, or by another call of this answer).
 *
 * Providers do not all make ids unique: a restarted local server starts again at `c1`, and
 * llama.cpp-style servers give `call_0` in every answer. A call is known by its id everywhere
 * (approvals, results, the history sent back to the model), so two calls under one id would
 * answer for each other. The fresh id is what the model reads of the call from then on; nine
 * letters and digits, as the strictest providers take (Mistral asks exactly that).
 */
export function takeToolCallIds(taken: Iterable<string>, given: readonly string[]): string[] {
  const used = new Set(taken);
  return given.map((id) => {
    let chosen = id;
    while (chosen === '' || used.has(chosen)) chosen = freshToolCallId();
    used.add(chosen);
    return chosen;
  });
}

function freshToolCallId(): string {
  let id = '';
  for (let i = 0; i < 9; i++) id += ID_CHARACTERS[randomInt(ID_CHARACTERS.length)];
  return id;
}
