/** A JSON value, pretty-printed as text (never as markup). With `summary`, behind a disclosure. */
export function JsonView({ value, summary, className }: { value: unknown; summary?: string; className?: string }) {
  const pre = <pre className="json">{JSON.stringify(value, null, 2)}</pre>;
  if (!summary) return pre;
  return (
    <details className={className}>
      <summary>{summary}</summary>
      {pre}
    </details>
  );
}
