import { useId } from 'react';
import { busyProps } from '../components/busy-props.js';
import type { Answering } from './use-answer.js';

/**
 * The Decline and Dismiss answers an elicitation (form or URL) always offers: MCP's `decline`
 * (the person said no) and `cancel` (dismissed without a choice). Both answer the server at
 * once; "Dismiss" rather than "Cancel", which in every dialog means "close, nothing happens".
 */
export function DeclineCancelButtons({ answering, done }: { answering: Answering; done: string }) {
  const id = useId();
  // aria-disabled while an answer is on its way: it conflicts with this one, and the focus stays put.
  return (
    <>
      <button
        type="button"
        {...busyProps(answering.busy)}
        title="Tell the server no"
        aria-describedby={`${id}-decline`}
        onClick={() => void answering.send({ action: 'decline' }, done)}
      >
        Decline
      </button>
      <button
        type="button"
        {...busyProps(answering.busy)}
        title="Tell the server you made no choice; it may ask again"
        aria-describedby={`${id}-dismiss`}
        onClick={() => void answering.send({ action: 'cancel' }, done)}
      >
        Dismiss
      </button>
      <span hidden id={`${id}-decline`}>
        Tells the server no.
      </span>
      <span hidden id={`${id}-dismiss`}>
        Tells the server you made no choice; it may ask again.
      </span>
    </>
  );
}
