/** How long after a key the next one still adds to the same search (WAI-ARIA's listbox typeahead). */
export const TYPEAHEAD_MS = 500;

/** A typeahead search under way: the characters typed so far, and when the last one was. */
export interface TypeaheadSearch {
  text: string;
  at: number;
}

/** Whether a key at `now` adds to the search `previous` (else it starts a new one). */
export function searching(previous: TypeaheadSearch | undefined, now: number): previous is TypeaheadSearch {
  return previous !== undefined && now - previous.at <= TYPEAHEAD_MS;
}

/**
 * Where a typed character moves a listbox's focus (WAI-ARIA listbox typeahead).
 *
 * Characters typed within {@link TYPEAHEAD_MS} of each other form one search string, and the
 * focus goes to the next label (from the focused one, wrapping) that starts with it, ignoring
 * case; a first character (or one letter typed again and again) skips the focused option, so
 * that repeating a letter cycles through the labels starting with it. `now` is in milliseconds
 * (an event's `timeStamp` does); `index` is undefined when no label matches, and the focus stays.
 */
export function typeahead(
  labels: readonly string[],
  focused: number,
  key: string,
  now: number,
  previous: TypeaheadSearch | undefined
): { index: number | undefined; search: TypeaheadSearch } {
  const text = (searching(previous, now) ? previous.text : '') + key.toLocaleLowerCase();
  const search = { text, at: now };
  const repeated = [...text].every((c) => c === text[0]);
  const needle = repeated ? text[0]! : text;
  const from = Math.max(0, focused);
  for (let step = needle.length === 1 ? 1 : 0; step <= labels.length; step++) {
    const index = (from + step) % labels.length;
    if (labels[index]!.trimStart().toLocaleLowerCase().startsWith(needle)) return { index, search };
  }
  return { index: undefined, search };
}
