import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { CopyButton } from './copy-button.js';
import { ExternalLink } from './external-link.js';

/** The bits of a hast node (react-markdown's HTML tree) these helpers read. */
interface HastNode {
  type: string;
  tagName?: string;
  value?: string;
  children?: HastNode[];
}

/** Elements that start a block of their own inside a list item. */
const BLOCKS = new Set(['p', 'ul', 'ol', 'pre', 'blockquote', 'table', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr']);

const isBlock = (node: HastNode | undefined) => node?.type === 'element' && BLOCKS.has(node.tagName ?? '');

/**
 * Drops the line breaks between a list item's blocks (its text and a nested list, say), which
 * the Markdown tree keeps as text: list items keep a tool's line breaks (`white-space: pre-line`),
 * and these showed as blank lines around every nested list. A small rehype plugin of our own: no
 * library does just this, and it is a walk of a few lines.
 */
function tidyListItems() {
  const walk = (node: HastNode): void => {
    if (!node.children) return;
    if (node.type === 'element' && node.tagName === 'li')
      node.children = node.children.filter(
        (child, i, all) =>
          !(child.type === 'text' && child.value?.trim() === '' && (isBlock(all[i - 1]) || isBlock(all[i + 1])))
      );
    node.children.forEach(walk);
  };
  return (tree: HastNode) => walk(tree);
}

/** The text of a hast node, as it reads (a code block's code, to copy). */
function textOf(node: HastNode | undefined): string {
  if (!node) return '';
  if (node.type === 'text') return node.value ?? '';
  return (node.children ?? []).map(textOf).join('');
}

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'] as const;

/**
 * Markdown's headings moved below a heading of level `under`: `#` one level below it, `##` two,
 * and so on, h6 at most. A server's report starts with `#`, and as an h1 it outranked the screen
 * and the card it sits in, for the eye and in a screen reader's list of headings alike.
 */
function headingsBelow(under: number): Components {
  return Object.fromEntries(HEADINGS.map((tag, depth) => [tag, HEADINGS[Math.min(5, under + depth)]]));
}

/**
 * Markdown from a server or a model, rendered safely: react-markdown builds React elements, raw
 * HTML is dropped (`skipHtml`; the library's default never renders it either, but would show its
 * tags as text, where titles, read by `MarkdownLine`, drop them), and links go through
 * {@link ExternalLink}. A code block has Copy in its corner (its code as written, without the
 * last line break Markdown adds). Its headings are moved below the heading the text sits under
 * (`headingLevel`, see `headingsBelow`): by default an h4, since the Desk's texts sit under a
 * card's h3 title (an Inbox card, a chat) or an h4 section (a task's Request), so that a
 * server's or a model's `#` never outranks the screen's own headings.
 */
export function MarkdownText({
  text,
  className,
  headingLevel = 4
}: {
  text: string;
  className?: string;
  headingLevel?: number;
}) {
  return (
    <div className={className ? `markdown ${className}` : 'markdown'}>
      <Markdown
        remarkPlugins={[remarkGfm]}
        rehypePlugins={[tidyListItems]}
        skipHtml
        components={{
          ...headingsBelow(headingLevel),
          a: ({ href, children }) => <ExternalLink href={href}>{children}</ExternalLink>,
          // An image in a server's Markdown would load from anywhere: shown as its text only.
          img: ({ alt, src }) => (
            <span className="muted">
              [image{alt ? `: ${alt}` : ''}
              {typeof src === 'string' ? ` (${src})` : ''}]
            </span>
          ),
          pre: ({ node, children }) => (
            <div className="code-block">
              <pre>{children}</pre>
              <CopyButton text={textOf(node).replace(/\n$/, '')} label="Copy this code" />
            </div>
          )
        }}
      >
        {text}
      </Markdown>
    </div>
  );
}
