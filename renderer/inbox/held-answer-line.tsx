import { useId } from 'react';
import type { HeldAnswer } from '../store/held-answers.js';

/** What the live region says after a held answer's words: that it can be undone, and how. */
export function heldWords(windowMs: number): string {
  return `You can undo it for ${Math.round(windowMs / 1000)} seconds: press u.`;
}

/**
 * The line an Inbox card gives its place to while its Decline, Reject or Dismiss waits out its
 * undo window: what the answer does, and Undo, which brings the card back as it was. Once the
 * window has ended the answer is on its way: no Undo any more.
 */
export function HeldAnswerLine({ held, onUndo }: { held: HeldAnswer; onUndo: (id: string) => void }) {
  const id = useId();
  return (
    <p className="inbox-held muted" data-held-id={held.id}>
      <span id={id}>{held.said}</span>
      {held.phase === 'held' ? (
        <>
          {' '}
          <button type="button" aria-describedby={id} onClick={() => onUndo(held.id)}>
            Undo
          </button>
        </>
      ) : null}
    </p>
  );
}
