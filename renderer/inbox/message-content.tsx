import { asText } from '../components/format.js';
import { MarkdownText } from '../components/markdown-text.js';

/**
 * One message's content (a block or, since 2025-11-25, a list of blocks): text as Markdown, as a
 * server's question is rendered (no raw HTML, links through the guarded path), tool calls and
 * results in words.
 */
export function MessageContent({ content }: { content: unknown }) {
  const blocks = Array.isArray(content) ? (content as unknown[]) : [content];
  return (
    <>
      {blocks.map((block, index) => {
        const {
          type,
          text,
          name,
          input,
          content: inner
        } = (block ?? {}) as { type?: unknown; text?: unknown; name?: unknown; input?: unknown; content?: unknown };
        if (type === 'text' && typeof text === 'string') return <MarkdownText key={index} text={text} />;
        if (type === 'tool_use')
          return (
            <p key={index} className="tool-use">
              Calls <code>{asText(name, '?')}</code> with <code>{JSON.stringify(input ?? {})}</code>
            </p>
          );
        if (type === 'tool_result')
          return (
            <div key={index} className="tool-use">
              <p className="muted">Tool result:</p>
              <MessageContent content={inner} />
            </div>
          );
        return (
          <p key={index} className="muted">
            [{typeof type === 'string' ? type.replace('_', ' ') : 'unknown'} content]
          </p>
        );
      })}
    </>
  );
}
