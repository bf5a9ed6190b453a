/** A form's error summary: an alert, announced when it changes, hidden when empty. */
export function FormError({ message }: { message: string | undefined }) {
  return (
    <p className="form-error" role="alert" hidden={!message}>
      {message ?? ''}
    </p>
  );
}

/** "One field needs correcting." or "3 fields need correcting." */
export function correctingSummary(count: number, noun: 'field' | 'answer' = 'field'): string {
  return count === 1 ? `One ${noun} needs correcting.` : `${count} ${noun}s need correcting.`;
}
