/** Texts longer than this are shown without looking for JSON in them. */
const JSON_SCAN_CHARS = 200_000;

/**
 * A text that ends in a JSON object or array (`Raw result: {…}`, or nothing but JSON), split
 * there; undefined when it does not. Tried from each of the first few `{` or `[`.
 */
export function trailingJson(text: string): { prose: string; json: string } | undefined {
  if (text.length > JSON_SCAN_CHARS) return undefined;
  let at = text.search(/[{[]/);
  for (let tries = 0; at >= 0 && tries < 8; tries++) {
    const json = text.slice(at).trim();
    try {
      const value: unknown = JSON.parse(json);
      if (typeof value === 'object' && value !== null) return { prose: text.slice(0, at), json };
    } catch {
      // Not JSON from here: the next bracket.
    }
    const next = text.slice(at + 1).search(/[{[]/);
    at = next < 0 ? -1 : at + 1 + next;
  }
  return undefined;
}
