/**
 * The switch between a result as a person reads it and its raw JSON, one click either way (the
 * assistant's tool results, a task's result).
 */
export function RawToggle({ raw, onToggle, what }: { raw: boolean; onToggle: (raw: boolean) => void; what?: string }) {
  return (
    <button type="button" className="link-button small-text" aria-pressed={raw} onClick={() => onToggle(!raw)}>
      {raw ? 'Rendered' : 'Raw JSON'}
      {what ? <span className="sr-only">{raw ? ` view of ${what}` : ` of ${what}`}</span> : null}
    </button>
  );
}
