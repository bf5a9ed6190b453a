import { useCallback, useState } from 'react';
import type { Conversation } from '../../app/contract/assistant.js';
import { toHostCallError } from '../host-client.js';
import { useDesk } from '../shell/desk-context.js';

/**
 * Runs an assistant call that answers with a conversation and folds that answer into the store
 * (the same path as its `assistant.changed`); an error is kept to be shown where the action is.
 */
export function useAssistantCall(): {
  run: (call: () => Promise<Conversation | undefined>) => Promise<boolean>;
  busy: boolean;
  error: string | undefined;
  clearError: () => void;
} {
  const { store } = useDesk();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const run = useCallback(
    async (call: () => Promise<Conversation | undefined>) => {
      setBusy(true);
      setError(undefined);
      try {
        const conversation = await call();
        if (conversation) store.apply('assistant.changed', { conversationId: conversation.id, conversation });
        return true;
      } catch (problem) {
        setError(toHostCallError(problem).message);
        return false;
      } finally {
        setBusy(false);
      }
    },
    [store]
  );
  return { run, busy, error, clearError: useCallback(() => setError(undefined), []) };
}
