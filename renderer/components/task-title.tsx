import { MarkdownLine } from './markdown-line.js';

/**
 * A task's title as it reads in a line: a server's question or a model request's last message is
 * Markdown (its words, bold and code kept, links as their words, no raw HTML); a tool call's
 * title is its tool's name, shown as it is.
 */
export function TaskTitle({ kind, title }: { kind: 'sampling' | 'elicitation' | 'tool-call'; title: string }) {
  return kind === 'tool-call' ? title : <MarkdownLine text={title} />;
}
