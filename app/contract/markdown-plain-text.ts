import type { Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';

/** The most of a text {@link markdownPlainText} reads (characters); a notification shows far fewer. */
export const MAX_MARKDOWN = 4000;

/** Nodes whose text is a block of its own: a space is put after each, so blocks do not run together. */
const BLOCKS = new Set<Nodes['type']>([
  'paragraph',
  'heading',
  'blockquote',
  'listItem',
  'code',
  'tableCell',
  'thematicBreak',
  'break'
]);

/**
 * Markdown as the plain words a system notification can show.
 *
 * A notification's title and body are plain text, on every platform; a server's question is
 * Markdown. It is parsed by the parser react-markdown itself uses (`mdast-util-from-markdown`,
 * with GFM as the Desk's `remark-gfm` reads it), and its words are kept as the Desk shows them
 * with `skipHtml`: link and image text without their addresses, code as written, raw HTML
 * dropped. Here in the contract, so that the page's Web Notification (browser mode) and the
 * Electron shell's notification read a question the same way; the shell ships these packages as
 * runtime dependencies (react-markdown is bundled into the page by Vite). It reads the first
 * {@link MAX_MARKDOWN} characters only.
 */
export function markdownPlainText(markdown: string): string {
  const tree = fromMarkdown(markdown.slice(0, MAX_MARKDOWN), {
    extensions: [gfm()],
    mdastExtensions: [gfmFromMarkdown()]
  });
  const words: string[] = [];
  const walk = (node: Nodes): void => {
    if (node.type === 'html' || node.type === 'definition' || node.type === 'footnoteDefinition') return;
    if (node.type === 'image' || node.type === 'imageReference') words.push(node.alt ?? '');
    else if ('value' in node) words.push(node.value);
    else if ('children' in node) for (const child of node.children) walk(child);
    if (BLOCKS.has(node.type)) words.push(' ');
  };
  walk(tree);
  return words.join('').replace(/\s+/g, ' ').trim();
}
