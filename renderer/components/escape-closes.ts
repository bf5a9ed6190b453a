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
