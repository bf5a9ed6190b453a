import { busyProps } from '../components/busy-props.js';
import type { Answering } from './use-answer.js';

/** The Decline and Cancel answers an elicitation (form or URL) always offers. */
export function DeclineCancelButtons({ answering, done }: { answering: Answering; done: string }) {
  // aria-disabled while an answer is on its way: it conflicts with this one, and the focus stays put.
  return (
    <>
      <button
        type="button"
        {...busyProps(answering.busy)}
        onClick={() => void answering.send({ action: 'decline' }, done)}
      >
        Decline
      </button>
      <button
        type="button"
        {...busyProps(answering.busy)}
        onClick={() => void answering.send({ action: 'cancel' }, done)}
      >
        Cancel
      </button>
    </>
  );
}
