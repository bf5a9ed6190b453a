/**
 * Puts the focus in a tool form's first control as the form opens (Call…, Call again…), and
 * selects the text a field of it holds, kept from the last call or filled from the call to make
 * again: what the person types replaces it, and an arrow key keeps it. Only as the form opens;
 * a click or Tab into the field later is the browser's own.
 */
export function focusFirstField(container: HTMLElement | null | undefined): HTMLElement | undefined {
  const first = container?.querySelector<HTMLElement>('input, select, textarea, button') ?? undefined;
  first?.focus();
  if (first instanceof HTMLInputElement || first instanceof HTMLTextAreaElement) first.select();
  return first;
}
