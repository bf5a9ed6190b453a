import { useCallback, useId, useLayoutEffect, useRef } from 'react';
import type { HeldAnswer } from '../store/held-answers.js';

/** What the live region says after a held answer's words: that it can be undone, and how. */
export function heldWords(windowMs: number): string {
  return `You can undo it for ${Math.round(windowMs / 1000)} seconds: press u.`;
}

/**
 * The line an Inbox card gives its place to while its Decline, Reject or Dismiss waits out its
 * undo window: what the answer does, and Undo, which brings the card back as it was. Once the
 * window has ended the answer is on its way: no Undo any more. Undo going with the focus on it
 * calls `onUndoGone` (with this line), to give the focus a place rather than leave it on the page.
 */
export function HeldAnswerLine({
  held,
  onUndo,
  onUndoGone
}: {
  held: HeldAnswer;
  onUndo: (id: string) => void;
  onUndoGone: (line: HTMLElement) => void;
}) {
  const id = useId();
  const line = useRef<HTMLParagraphElement>(null);
  /** Undo had the focus as it went: React detaches its ref before it takes the button out. */
  const focusWent = useRef(false);
  const undoRef = useCallback((button: HTMLButtonElement | null) => {
    if (!button) return;
    return () => {
      focusWent.current = document.activeElement === button;
    };
  }, []);
  useLayoutEffect(() => {
    if (held.phase !== 'sending' || !focusWent.current) return;
    focusWent.current = false;
    const active = document.activeElement;
    if (line.current && (active === null || active === document.body)) onUndoGone(line.current);
  }, [held.phase, onUndoGone]);
  return (
    <p className="inbox-held muted" data-held-id={held.id} ref={line} tabIndex={-1}>
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
