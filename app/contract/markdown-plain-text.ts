/** The most of a text {@link markdownPlainText} reads (characters); a notification shows far fewer. */
export const MAX_MARKDOWN = 4000;

/**
 * Markdown as the plain words a system notification can show.
 *
 * A notification's title and body are plain text, on every platform; a server's question is
 * Markdown. The Desk renders Markdown with react-markdown, but the Electron shell (`main/`) must
 * stay thin and ships only the app's runtime dependencies, which react-markdown is not (Vite
 * bundles it into the page). So this is a small pure function here, with no imports, that both
 * the page's Web Notification (browser mode) and the shell's notification call: one reading of
 * a question in both places. It reads the Markdown a question is written in (emphasis, code,
 * links, images, headings, lists, quotes, tables, escapes, entities) as react-markdown with
 * `skipHtml` shows it, raw HTML tags dropped; it is not a full CommonMark parser, and a rare
 * construct may keep a mark or two, which in a notification is harmless. It reads the first
 * {@link MAX_MARKDOWN} characters only.
 */
export function markdownPlainText(markdown: string): string {
  const kept: string[] = [];
  // Code keeps its text as written: set it aside before any other mark is read.
  const keep = (text: string) => `\ue000${kept.push(text) - 1}\ue001`;
  let text = markdown
    .slice(0, MAX_MARKDOWN)
    .replace(/[\ue000\ue001]/g, '\ufffd')
    .replace(/\r\n?/g, '\n')
    .replace(/^ {0,3}(`{3,}|~{3,}).*$/gm, '')
    .replace(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g, (_, _ticks: string, code: string) =>
      keep(code.replace(/\s+/g, ' ').trim())
    )
    .replace(/\\([!-/:-@[-`{-~])/g, (_, mark: string) => keep(mark));
  text = text
    .replace(/<!--[\s\S]*?(-->|$)/g, '')
    .replace(/<((?:https?|mailto):[^\s<>]+)>/gi, (_, url: string) => keep(url))
    .replace(/<\/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?\/?>/g, '')
    .replace(/^(?: {0,3}>\s?)+/gm, '')
    .replace(/^ {0,3}\[[^\]]+\]:\s+\S.*$/gm, '')
    .replace(/!?\[([^\]]*)\](?:\([^)]*\)|\[[^\]]*\])/g, '$1')
    .replace(/^ {0,3}#{1,6}(?:\s+(.*?))?(?:\s+#+)?\s*$/gm, '$1')
    .replace(/^ {0,3}(?:[-*_]\s*){3,}$/gm, '')
    .replace(/^ {0,3}(?:=+|-+)\s*$/gm, '')
    .replace(/^\s*\|?(?:\s*:?-+:?\s*\|)+\s*:?-*:?\s*$/gm, '')
    .replace(/^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?/gm, '')
    .replace(/\|/g, ' ')
    .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '$2')
    .replace(/(^|[^\w*])\*(?=\S)([^*]*?\S)\*(?!\w)/g, '$1$2')
    .replace(/(^|[^\w])_(?=\S)([^_]*?\S)_(?!\w)/g, '$1$2')
    .replace(/~~(?=\S)([\s\S]*?\S)~~/g, '$1')
    .replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos|nbsp);/gi, (_, name: string) => keep(entity(name)));
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\ue000(\d+)\ue001/g, (_, index: string) => kept[Number(index)] ?? '');
}

/** The character an HTML entity names. */
function entity(name: string): string {
  const lower = name.toLowerCase();
  if (lower.startsWith('#')) {
    const code = lower.startsWith('#x') ? parseInt(lower.slice(2), 16) : parseInt(lower.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
  }
  return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }[lower] ?? '';
}
