/**
 * Text as the Desk's searches compare it: lowercased, and with typographic quotes read as the
 * keyboard's. The Desk writes ’ and “ ” (“the model’s answer”) while a person types ' and ", so
 * both the text searched and the words typed are folded the same way.
 */
export function searchFolded(text: string): string {
  return text
    .toLowerCase()
    .replace(/[‘’‛′]/g, "'")
    .replace(/[“”„″]/g, '"');
}

/** The words of a search box, folded (see {@link searchFolded}): every one of them must be found. */
export function searchWords(query: string | undefined): string[] {
  return searchFolded(query ?? '')
    .split(/\s+/)
    .filter(Boolean);
}
