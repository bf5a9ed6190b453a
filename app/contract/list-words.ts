/** Words as a list in a sentence: "a", "a and b", "a, b and c" ("" for none). */
export function listInWords(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)!}`;
}
