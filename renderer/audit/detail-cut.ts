/** Characters of one detail value shown in the table before a "Show all", about. */
export const DETAIL_VALUE_CHARS = 160;

/**
 * Characters a cut must hide at least: a button to show a few more ("Show all (4 more
 * characters)") takes more room and more doing than the few characters themselves.
 */
export const DETAIL_CUT_MIN_HIDDEN = 60;

/** How far back from {@link DETAIL_VALUE_CHARS} a cut may go to end at a space rather than in a word. */
const WORD_BACK = 30;

/** Where a long detail value is cut, and how many of its characters that hides. */
export interface DetailCut {
  /** What shows, without the "…" that ends it. */
  shown: string;
  /** Characters left out: what the button says it shows. */
  hidden: number;
}

/**
 * Where to cut a detail value for the Audit log's table, or undefined to show it whole: a value
 * shows whole unless cutting it hides at least {@link DETAIL_CUT_MIN_HIDDEN} characters. A cut
 * ends at a space when there is one shortly before {@link DETAIL_VALUE_CHARS} (compact JSON, with
 * none, is cut where it reaches it).
 */
export function detailCut(value: string): DetailCut | undefined {
  if (value.length - DETAIL_VALUE_CHARS < DETAIL_CUT_MIN_HIDDEN) return undefined;
  const space = value.lastIndexOf(' ', DETAIL_VALUE_CHARS);
  let end = space >= DETAIL_VALUE_CHARS - WORD_BACK ? space : DETAIL_VALUE_CHARS;
  // Not between the two halves of a character outside the BMP (an emoji).
  if (/[\uD800-\uDBFF]/.test(value.charAt(end - 1))) end -= 1;
  const shown = value.slice(0, end).trimEnd();
  return { shown, hidden: value.length - shown.length };
}
