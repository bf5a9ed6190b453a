/* Imports nothing: the core (History's summaries) and the Desk (the Tasks list) say it alike. */

/** How long a preview is at most, in characters, its ellipsis included. */
export const PREVIEW_CHARS = 80;

/**
 * How much of a tool call's arguments the line of them on a call that is followed holds at most:
 * its card on Tools (a task's, and a plain call's while it runs) and its row on Tasks, whose
 * tooltip and search hold that much. The screen cuts the line to its box's width; its tooltip
 * holds all of it.
 */
export const CALL_ARGUMENTS_CHARS = 600;

/**
 * A tool call's arguments in a line, to tell calls of the same tool apart: `name: value` pairs,
 * each value as JSON (`message: "hi", count: 3`), cut with an ellipsis at `max` characters.
 * Walks only as far as the line reaches: a 1 MB argument costs no 1 MB serialization.
 * Undefined when there are no arguments.
 */
export function argumentsPreview(args: unknown, max = PREVIEW_CHARS): string | undefined {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
  const line = { text: '' };
  for (const key in args) {
    if (!Object.hasOwn(args, key)) continue;
    if (line.text !== '') line.text += ', ';
    line.text += `${key}: `;
    writeJson((args as Record<string, unknown>)[key], line, max);
    if (line.text.length > max) break;
  }
  return line.text === '' ? undefined : previewLine(line.text, max);
}

/** `text` in one line of at most `max` characters: runs of white space as one, cut with an ellipsis. */
export function previewLine(text: string, max = PREVIEW_CHARS): string {
  // The start is enough: a long text is not flattened whole.
  const start = text.slice(0, max * 4);
  const flat = start.replace(/\s+/g, ' ').trim();
  if (flat.length <= max && start.length === text.length) return flat;
  let cut = flat.slice(0, max - 1).trimEnd();
  // Not half of a surrogate pair.
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/** Appends `value` as compact JSON to `line`, stopping once the line is past `max`. */
function writeJson(value: unknown, line: { text: string }, max: number): void {
  if (line.text.length > max) return;
  if (typeof value === 'string') {
    // A string longer than what is left is cut before its closing quote is reached.
    line.text += JSON.stringify(value.length > max ? value.slice(0, max) : value);
    return;
  }
  if (typeof value !== 'object' || value === null) {
    line.text += JSON.stringify(value) ?? 'null';
    return;
  }
  if (Array.isArray(value)) {
    line.text += '[';
    for (let index = 0; index < value.length; index++) {
      if (index > 0) line.text += ',';
      writeJson(value[index], line, max);
      if (line.text.length > max) return;
    }
    line.text += ']';
    return;
  }
  line.text += '{';
  let first = true;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    line.text += `${first ? '' : ','}${JSON.stringify(key)}:`;
    first = false;
    writeJson((value as Record<string, unknown>)[key], line, max);
    if (line.text.length > max) return;
  }
  line.text += '}';
}
