import { useCallback, useId } from 'react';
import type { HeldAnswer } from '../store/held-answers.js';

/** What the live region says after a held answer's words: that it can be undone, and how. */
export function heldWords(windowMs: number): string {
  return `You can undo it for ${Math.round(windowMs / 1000)} seconds: press u.`;
}

/**
 * The line an Inbox card gives its place to while its Decline, Reject or Dismiss waits out its
 * undo window: what the answer does, and Undo, which brings the card back as it was. Once the
 * window has ended the answer is on its way: no Undo any more.
 *
 * The focus in the line as Undo or the line itself goes (the window ended, the answer went, the
 * question was withdrawn) would be left on the page: `onFocusGoing` is called with the line
 * first, while it and the cards around it are still in place, to give the focus somewhere. React
 * runs a ref's cleanup before it takes the element out, which is when this is known.
 */
export function HeldAnswerLine({
  held,
  onUndo,
  onFocusGoing
}: {
  held: HeldAnswer;
  onUndo: (id: string) => void;
  onFocusGoing: (line: HTMLElement) => void;
}) {
  const id = useId();
  const lineRef = useCallback(
    (line: HTMLParagraphElement | null) => {
      if (!line) return;
      return () => {
        if (line.contains(document.activeElement)) onFocusGoing(line);
      };
    },
    [onFocusGoing]
  );
  const undoRef = useCallback(
    (button: HTMLButtonElement | null) => {
      if (!button) return;
      return () => {
        const line = button.closest<HTMLElement>('.inbox-held');
        if (line && document.activeElement === button) onFocusGoing(line);
      };
    },
    [onFocusGoing]
  );
  return (
    <p className="inbox-held muted" data-held-id={held.id} ref={lineRef} tabIndex={-1}>
      <span id={id}>{held.said}</span>
      {held.phase === 'held' ? (
        <>
          {' '}
          <button type="button" aria-describedby={id} onClick={() => onUndo(held.id)} ref={undoRef}>
            Undo
          </button>
        </>
      ) : null}
    </p>
  );
}
