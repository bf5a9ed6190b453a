import Markdown from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { ExternalLink } from './external-link.js';

/**
 * Markdown from a server or a model, rendered safely: react-markdown builds React elements, raw
 * HTML is dropped (`skipHtml`; the library's default never renders it either, but would show its
 * tags as text, where titles, read by `MarkdownLine`, drop them), and links go through
 * {@link ExternalLink}.
 */
export function MarkdownText({ text, className }: { text: string; className?: string }) {
  return (
    <div className={className ? `markdown ${className}` : 'markdown'}>
      <Markdown
        remarkPlugins={[remarkGfm]}
        skipHtml
        components={{
          a: ({ href, children }) => <ExternalLink href={href}>{children}</ExternalLink>,
          // An image in a server's Markdown would load from anywhere: shown as its text only.
          img: ({ alt, src }) => (
            <span className="muted">
              [image{alt ? `: ${alt}` : ''}
              {typeof src === 'string' ? ` (${src})` : ''}]
            </span>
          )
        }}
      >
        {text}
      </Markdown>
    </div>
  );
}
