import { useCallback, useState } from 'react';
import type { Conversation } from '../../app/contract/assistant.js';
import { useFailure, type Failure } from '../components/action-error.js';
import { useDesk } from '../shell/desk-context.js';

/**
 * Runs an assistant call that answers with a conversation and folds that answer into the store
 * (the same path as its `assistant.changed`); a failure (`what` did not happen, and why) is kept
 * to be shown where the action is, until dismissed or the next run.
 */
export function useAssistantCall(): {
  run: (call: () => Promise<Conversation | undefined>, what: string, next?: string) => Promise<boolean>;
  busy: boolean;
  failure: Failure | undefined;
  clear: () => void;
} {
  const { store } = useDesk();
  const [busy, setBusy] = useState(false);
  const { failure, fail, clear } = useFailure();
  const run = useCallback(
    async (call: () => Promise<Conversation | undefined>, what: string, next?: string) => {
      setBusy(true);
      clear();
      try {
        const conversation = await call();
        if (conversation) store.apply('assistant.changed', { conversationId: conversation.id, conversation });
        return true;
      } catch (problem) {
        fail(what, problem, next);
        return false;
      } finally {
        setBusy(false);
      }
    },
    [store, clear, fail]
  );
  return { run, busy, failure, clear };
}
