import type { KeyboardEvent } from 'react';

/**
 * A `keydown` handler for a panel that Escape closes (a task's or a History entry's detail), as
 * its Close button does. Not from a dialog opened over it (the dialog's own Escape closes only
 * the dialog), nor a key something inside already handled.
 */
export function escapeCloses(onClose: () => void) {
  return (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    if ((event.target as HTMLElement).closest('dialog')) return;
    event.preventDefault();
    onClose();
  };
}

/**
 * A filter bar's `keydown` handler: Escape in its Search field, once the field is empty, calls
 * `onEscape` (given while a detail is open below it: it closes it, as Escape in the detail does).
 * Escape in a Search that holds words only clears it (the browser's own), so the first Escape
 * takes the words back and the second closes.
 */
export function escapeFromEmptySearch(onEscape: (() => void) | undefined) {
  return (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Escape' || event.defaultPrevented || event.nativeEvent.isComposing || !onEscape) return;
    const target = event.target;
    if (!(target instanceof HTMLInputElement) || target.type !== 'search' || target.value !== '') return;
    event.preventDefault();
    onEscape();
  };
}

/** Whether `element` takes what is typed or chosen (a field, not a button). */
function isField(element: HTMLElement): boolean {
  return element.matches('input, textarea, select') || element.isContentEditable;
}

/**
 * A form's `keydown` handler, for a form that Escape closes: Escape in one of its fields leaves
 * the field for the form itself (which must take the focus: `tabIndex={-1}`), as Escape in an
 * Inbox card's field goes back to the card; Escape on the form, or on one of its buttons, then
 * closes it as {@link escapeCloses} does. A form closed from inside a field, what was typed going
 * out of sight with it, surprised people. A Search that holds words is cleared first (the
 * browser's own), and a key that ends an IME composition is the composition's.
 */
export function escapeLeavesFieldThenCloses(onClose: () => void) {
  const closes = escapeCloses(onClose);
  return (event: KeyboardEvent<HTMLElement>) => {
    if (event.key !== 'Escape' || event.defaultPrevented || event.nativeEvent.isComposing) return;
    const target = event.target as HTMLElement;
    if (!isField(target)) return closes(event);
    if (target.closest('dialog')) return;
    if (target instanceof HTMLInputElement && target.type === 'search' && target.value !== '') return;
    event.preventDefault();
    event.currentTarget.focus();
  };
}
