import type { ReactNode } from 'react';
import Markdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';

/** The inline formatting a line keeps. */
const INLINE_ELEMENTS = ['strong', 'em', 'del', 'code'];

const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'] as const;

/** Blocks whose words become one run each, set apart from the next (see `.md-block` in styles.css). */
const BLOCKS = ['p', 'li', 'blockquote', 'pre', 'tr'] as const;

function Block({ children }: { children?: ReactNode }) {
  return <span className="md-block">{children}</span>;
}

function Heading({ children }: { children?: ReactNode }) {
  return <strong className="md-block">{children}</strong>;
}

const COMPONENTS: Components = {
  ...Object.fromEntries(BLOCKS.map((tag) => [tag, Block])),
  ...Object.fromEntries(HEADINGS.map((tag) => [tag, Heading]))
};

/**
 * Markdown from a server or a model as a run of words in a line (a table cell): parsed as
 * {@link MarkdownText} parses it, headings in bold, paragraphs and list items one after another,
 * links as their words; lists, tables, raw HTML and images give way to the text inside them.
 */
export function MarkdownLine({ text }: { text: string }) {
  return (
    <Markdown
      remarkPlugins={[remarkGfm]}
      allowedElements={[...INLINE_ELEMENTS, ...HEADINGS, ...BLOCKS]}
      unwrapDisallowed
      skipHtml
      components={COMPONENTS}
    >
      {text}
    </Markdown>
  );
}
