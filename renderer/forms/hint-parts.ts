/** What a tool argument's hint is made of, each said once (see {@link hintParts}). */
export interface HintWords {
  /** The schema's description of the argument. */
  description?: string | undefined;
  /** What it takes, in plain words ("number", "whole number, 1 to 100", "list of text"). */
  type?: string | undefined;
  /** When a required field in an optional group is asked for ("Required if you fill in options."). */
  condition?: string | undefined;
  /** The server's default, while the control does not show it ("Default: 10"). */
  byDefault?: string | undefined;
}

/** One piece of a hint, with what joins it to the piece before. */
export interface HintPart {
  kind: 'description' | 'type' | 'condition' | 'default';
  text: string;
  /** Put before `text`; empty for the first piece. */
  joiner: string;
  /** The piece stands on a line of its own on screen: its joiner is in the page's text and read, not seen. */
  line: boolean;
}

/**
 * A hint's pieces in the order they are seen and read: the description, what the argument takes
 * in brackets after it on the same line ("Duration of the operation in seconds (number)"), then
 * the condition and the default on lines of their own ("… (number) Default: 10" when read out).
 * The text of the hint is the same on screen, in the page's text and for a screen reader: nothing
 * is shown only, or read twice. (A full stop read only before a line of its own cannot be had:
 * Chromium reads the edges of text hidden off screen as spaces, "(number) . Default: 10".)
 */
export function hintParts({ description, type, condition, byDefault }: HintWords): HintPart[] {
  const parts: HintPart[] = [];
  const add = (kind: HintPart['kind'], text: string, line: boolean) => {
    const joiner = parts.length === 0 ? '' : ' ';
    parts.push({ kind, text, joiner, line });
  };
  // A schema's description may end in a line break or spaces: the type comes a space after its words.
  if (description?.trim()) add('description', description.trim(), false);
  if (type) add('type', `(${type})`, false);
  if (condition) add('condition', condition, true);
  if (byDefault) add('default', byDefault, true);
  return parts;
}

/** A hint as one line of text: what the page holds and a screen reader reads. */
export function hintText(words: HintWords): string {
  return hintParts(words)
    .map((part) => part.joiner + part.text)
    .join('');
}
