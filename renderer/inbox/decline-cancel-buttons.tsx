import { useId } from 'react';
import { busyProps } from '../components/busy-props.js';
import type { Answering } from './use-answer.js';

/**
 * The Decline and Dismiss answers an elicitation (form or URL) always offers: MCP's `decline`
 * (the person said no) and `cancel` (dismissed without a choice). Both answer the server once
 * their undo window has passed (in the Inbox; see `HeldAnswers`), at once elsewhere; "Dismiss"
 * rather than "Cancel", which in every dialog means "close, nothing happens".
 *
 * What sets them apart is written beside them, not in a tooltip that keyboard and touch users
 * never see; each button is described by its half of it.
 */
export function DeclineCancelButtons({ answering, done }: { answering: Answering; done: string }) {
  const id = useId();
  // aria-disabled while an answer is on its way: it conflicts with this one, and the focus stays put.
  return (
    <>
      <button
        type="button"
        {...busyProps(answering.busy)}
        aria-describedby={`${id}-decline`}
        onClick={() => void answering.send({ action: 'decline' }, done)}
      >
        Decline
      </button>
      <button
        type="button"
        {...busyProps(answering.busy)}
        aria-describedby={`${id}-dismiss`}
        onClick={() => void answering.send({ action: 'cancel' }, done)}
      >
        Dismiss
      </button>
      <p className="answer-notes muted small-text">
        <span id={`${id}-decline`}>Decline tells the server no.</span>{' '}
        <span id={`${id}-dismiss`}>Dismiss tells the server you made no choice; it may ask again.</span>
      </p>
    </>
  );
}
