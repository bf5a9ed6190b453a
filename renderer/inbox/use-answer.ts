import { useContext, useState } from 'react';
import type { InboxAnswerInput, InboxItem } from '../../app/contract/host-api.js';
import { failureOf, useFailure, type FailureState } from '../components/action-error.js';
import { toHostCallError, type HostCallError } from '../host-client.js';
import { useDesk, useDeskState } from '../shell/desk-context.js';
import { answerDelivery, answerSaid } from './answer-delivery.js';
import { answerTaken } from './answer-taken.js';
import { InInbox } from './answer-place.js';

/** What an approval says once taken, while its model runs, and once the model's answer went back. */
export interface RunWords {
  running: string;
  answered: string;
}

/** Sending an inbox item's answer: busy while on its way, the host's refusal shown on the card. */
export interface Answering {
  busy: boolean;
  /** Why the last answer was not taken, for the card's {@link ActionError}; `clear` is its Dismiss. */
  failure: FailureState;
  /**
   * Sends the answer; resolves false when the host refused it (or one is on its way already).
   * `done` says what was done; {@link RunWords} when a model runs now, said until it ends.
   * `onRefused` may take the error (per-field messages) and return true; otherwise the card
   * says the answer was not sent, and why.
   */
  send: (
    answer: InboxAnswerInput,
    done: string | RunWords,
    onRefused?: (error: HostCallError) => boolean
  ) => Promise<boolean>;
}

/** The answer path every inbox card shares. */
export function useAnswer(item: InboxItem): Answering {
  const { client, store, announce } = useDesk();
  const server = useDeskState((state) => state.servers.find((candidate) => candidate.id === item.serverId));
  const inInbox = useContext(InInbox);
  const [busy, setBusy] = useState(false);
  const failure = useFailure();
  const send: Answering['send'] = async (answer, done, onRefused) => {
    // Submit, Decline and Cancel answer the same question: one answer at a time.
    if (busy) return false;
    failure.clear();
    setBusy(true);
    try {
      await client.call('inbox.answer', { id: item.id, answer });
      // Said aloud, and shown: the card goes at once, so the Inbox says what was sent where.
      // A task's answer the server is not there to fetch now is kept with the task: said so.
      const delivery = answerDelivery(item, server);
      const words = typeof done === 'string' ? { running: done } : done;
      const said = answerSaid(item, answer.action, delivery, words.running);
      const run =
        'answered' in words && answer.action === 'approve' && delivery.kind === 'now'
          ? {
              serverId: item.serverId,
              ...(item.taskId !== undefined && { taskId: item.taskId }),
              createdAt: item.createdAt,
              ended: words.answered
            }
          : undefined;
      const taken = answerTaken(store, item, said, run, inInbox ? 'inbox' : 'elsewhere');
      if (taken !== undefined) announce(taken);
      return true;
    } catch (thrown) {
      const refused = toHostCallError(thrown);
      if (!onRefused?.(refused)) failure.show(failureOf(`Your answer was not sent to ${item.serverName}.`, refused));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, failure, send };
}
