import { ScrollingPre } from './scrolling-pre.js';

/**
 * A JSON value, pretty-printed as text (never as markup). With `summary`, behind a disclosure
 * (and named by it when it scrolls).
 */
export function JsonView({ value, summary, className }: { value: unknown; summary?: string; className?: string }) {
  const pre = <ScrollingPre className="json" text={JSON.stringify(value, null, 2)} label={summary ?? 'JSON'} />;
  if (!summary) return pre;
  return (
    <details className={className}>
      <summary>{summary}</summary>
      {pre}
    </details>
  );
}
