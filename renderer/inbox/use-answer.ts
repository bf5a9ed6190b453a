import { useState } from 'react';
import type { InboxAnswerInput, InboxItem } from '../../app/contract/host-api.js';
import { toHostCallError, type HostCallError } from '../host-client.js';
import { useDesk } from '../shell/desk-context.js';

/** Sending an inbox item's answer: busy while on its way, the host's error when refused. */
export interface Answering {
  busy: boolean;
  error: string | undefined;
  setError: (message: string | undefined) => void;
  /**
   * Sends the answer; resolves false when the host refused it. `onRefused` may take the error
   * (per-field messages) and return true; otherwise its message is the form's error.
   */
  send: (answer: InboxAnswerInput, done: string, onRefused?: (error: HostCallError) => boolean) => Promise<boolean>;
}

/** The answer path every inbox card shares. */
export function useAnswer(item: InboxItem): Answering {
  const { client, store, announce } = useDesk();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const send: Answering['send'] = async (answer, done, onRefused) => {
    setError(undefined);
    setBusy(true);
    try {
      await client.call('inbox.answer', { id: item.id, answer });
      announce(done);
      // The host's inbox.removed says the same; the card goes now, not when the event arrives.
      store.apply('inbox.removed', { id: item.id, why: 'answered' });
      return true;
    } catch (thrown) {
      const refused = toHostCallError(thrown);
      if (!onRefused?.(refused)) setError(refused.message);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, send };
}
