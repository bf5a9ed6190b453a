import { useContext, useState } from 'react';
import type { InboxAnswerInput, InboxItem, ServerView } from '../../app/contract/host-api.js';
import { failureOf, useFailure, type FailureState } from '../components/action-error.js';
import { toHostCallError, type HostCallError } from '../host-client.js';
import { useDesk, useDeskState } from '../shell/desk-context.js';
import { answerDelivery, answerSaid } from './answer-delivery.js';
import { answerTaken } from './answer-taken.js';
import { itemNoun, namedItem } from './answer-sent-words.js';
import { InInbox } from './answer-place.js';
import { isHeldAction, UNDO_WINDOW_MS } from '../store/held-answers.js';
import { heldWords } from './held-answer-line.js';
import { runLineSaid } from './run-line.js';

/** What an approval says once taken, while its model runs, and once the model's answer went back. */
export interface RunWords {
  running: string;
  answered: string;
  /**
   * Said instead of `running` when the answer came to review before the reply to the approval did
   * (a run that failed first is said as its request comes back: see `DeskStore`).
   */
  reviewed: string;
}

/** Sending an inbox item's answer: busy while on its way, the host's refusal shown on the card. */
export interface Answering {
  busy: boolean;
  /** Why the last answer was not taken, for the card's {@link ActionError}; `clear` is its Dismiss. */
  failure: FailureState;
  /**
   * Sends the answer; resolves false when the host refused it (or one is on its way already).
   * A Decline, Reject or Dismiss given in the Inbox is held for its undo window first (see
   * `HeldAnswers`): it resolves true once held, and the host's refusal, should it come when the
   * window ends, shows on the card as it would have.
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
  /**
   * Sends the answer to the host now; `held`: its undo window has ended (the Inbox said what it
   * does as it was held: not said again).
   */
  const deliver = async (
    answer: InboxAnswerInput,
    done: string | RunWords,
    onRefused: ((error: HostCallError) => boolean) | undefined,
    held: boolean
  ): Promise<boolean> => {
    failure.clear();
    setBusy(true);
    // An approval whose model runs now: should its run end before the reply comes, the store says
    // it as the answer to review (or the request back) arrives, before that (see `approving`).
    const approving =
      typeof done !== 'string' &&
      answer.action === 'approve' &&
      answerDelivery(item, serverOf(store.getState().servers) ?? server).kind === 'now'
        ? store.approving({
            serverId: item.serverId,
            taskId: item.taskId,
            createdAt: item.createdAt,
            reviewed: done.reviewed
          })
        : undefined;
    try {
      await client.call('inbox.answer', { id: item.id, answer });
      const saidAlready = approving?.() ?? false;
      // Said aloud, and shown: the card goes at once, so the Inbox says what was sent where.
      // A task's answer the server is not there to fetch now is kept with the task: said so.
      // The server as it is now: a held answer goes seconds after it was given.
      const delivery = answerDelivery(item, serverOf(store.getState().servers) ?? server);
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
      if (taken !== undefined && !held && !saidAlready) {
        const spoken = inInbox && run ? runLineSaid(store.getState(), taken) : taken;
        if (spoken !== undefined) announce(spoken);
      }
      return true;
    } catch (thrown) {
      approving?.();
      const refused = toHostCallError(thrown);
      if (!onRefused?.(refused)) {
        failure.show(failureOf(`Your answer was not sent to ${item.serverName}.`, refused));
        // Held, it went seconds after it was given, maybe while another screen shows: said too.
        if (held) announce(`Your answer was not sent to ${item.serverName}: ${refused.message}`);
      }
      return false;
    } finally {
      setBusy(false);
    }
  };
  const serverOf = (servers: readonly ServerView[]) => servers.find((candidate) => candidate.id === item.serverId);
  const send: Answering['send'] = async (answer, done, onRefused) => {
    // Submit, Decline and Cancel answer the same question: one answer at a time.
    if (busy) return false;
    // A Decline, Reject or Dismiss given in the Inbox waits out its undo window first (the
    // Inbox shows it held, with Undo, in the card's place); the store sends it as it ends.
    if (inInbox && isHeldAction(answer.action)) {
      failure.clear();
      const words = typeof done === 'string' ? done : done.running;
      const said = answerSaid(item, answer.action, answerDelivery(item, server), words);
      const { id, serverId, serverName } = item;
      const heldAnswer = { id, serverId, serverName, noun: itemNoun(item), named: namedItem(item) };
      const held = store.held.hold({ ...heldAnswer, action: answer.action, said }, () =>
        deliver(answer, done, onRefused, true)
      );
      if (held) announce(`${said} ${heldWords(UNDO_WINDOW_MS)}`);
      return held;
    }
    return deliver(answer, done, onRefused, false);
  };
  return { busy, failure, send };
}
