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
