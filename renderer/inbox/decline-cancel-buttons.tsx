import type { Answering } from './use-answer.js';

/** The Decline and Cancel answers an elicitation (form or URL) always offers. */
export function DeclineCancelButtons({ answering, done }: { answering: Answering; done: string }) {
  return (
    <>
      <button type="button" disabled={answering.busy} onClick={() => void answering.send({ action: 'decline' }, done)}>
        Decline
      </button>
      <button type="button" disabled={answering.busy} onClick={() => void answering.send({ action: 'cancel' }, done)}>
        Cancel
      </button>
    </>
  );
}
