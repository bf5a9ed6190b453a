import { useEffect, useMemo, useRef, useState } from 'react';
import type { InboxDraftValues, InboxItem } from '../../app/contract/host-api.js';
import { DraftSender } from './draft-sender.js';
import type { SchemaField } from '../../app/contract/schema-fields.js';
import type { RawValue } from '../forms/schema-values.js';
import { writtenText } from './elicitation-written.js';
import { useDesk } from '../shell/desk-context.js';
import { startDraft } from '../store/desk-state.js';

/**
 * Keeps what the person has typed into a card (or chosen in its form) in the store as they go, so
 * that if the server withdraws the request (an ordinary request's server may stop waiting at any
 * time, a task's may cancel it) its notice still holds it to copy. Only a change is told: a second
 * card of the same item (the Assistant's chat shows a task's questions too) does not blank what
 * was typed into the first.
 */
export function useKeptDraft(item: InboxItem, text: string): void {
  const { store } = useDesk();
  const last = useRef(text);
  useEffect(() => {
    if (last.current === text) return;
    last.current = text;
    store.dispatch({ type: 'inbox-draft', id: item.id, text: text.trim() === '' ? undefined : text });
  }, [store, item.id, text]);
}

/**
 * {@link writtenText}: what was typed or chosen in a question's form, worked out again only when
 * the values change.
 */
export function useWrittenText(fields: SchemaField[], values: Record<string, RawValue>): string {
  return useMemo(() => writtenText(fields, values), [fields, values]);
}

/**
 * The draft a card starts from as it mounts ({@link startDraft}): what was last typed into a card
 * of the item, else the one the host kept. Read once: a card's values are its own from then on.
 */
export function useStartDraft(item: InboxItem): InboxDraftValues | undefined {
  const { store } = useDesk();
  const [kept] = useState(() => startDraft(store.getState(), item));
  return kept;
}

/**
 * Keeps what was typed into a task's question with the host (`inbox.keepDraft`), so that it is
 * back in the card (`item.keptDraft`) when the question is back after a restart of Taskdesk, and
 * in the store, for a card of the item that mounts later. `kept` is the draft the card was given
 * ({@link useStartDraft}); `values` what the card would start from again (null: nothing typed);
 * `start` what it started from (null: not the draft given, which then goes). Sent once typing
 * rests, and at once when the window loses focus or is hidden, or the card goes. An ordinary
 * request's card keeps nothing with the host: its question does not outlive a restart.
 */
export function useHostDraft(
  item: InboxItem,
  kept: InboxDraftValues | undefined,
  values: InboxDraftValues | null,
  start: InboxDraftValues | null
): void {
  const { client, store } = useDesk();
  const { id, taskId } = item;
  const [sender] = useState(() =>
    taskId === undefined
      ? undefined
      : new DraftSender(
          // A draft is a help, not a promise: one the host could not keep is still in the card,
          // and goes again with the next change or flush.
          (next) => client.call('inbox.keepDraft', { id, values: next }).then((reply) => reply.kept),
          kept ?? null
        )
  );
  // A kept draft the card could not start from (its form changed) is forgotten.
  const stale = kept !== undefined && start === null;
  useEffect(() => {
    if (stale) sender?.change(null);
  }, [sender, stale]);
  const json = JSON.stringify(values);
  const latest = useRef(values);
  latest.current = values;
  const first = useRef(true);
  useEffect(() => {
    // What the card started with is not news.
    if (first.current) {
      first.current = false;
      return;
    }
    sender?.change(latest.current);
    store.dispatch({ type: 'inbox-draft', id, values: latest.current });
  }, [sender, store, id, json]);
  useEffect(() => {
    if (!sender) return;
    const flush = () => sender.flush();
    const hidden = () => {
      if (document.visibilityState === 'hidden') sender.flush();
    };
    window.addEventListener('blur', flush);
    window.addEventListener('pagehide', flush);
    document.addEventListener('visibilitychange', hidden);
    return () => {
      window.removeEventListener('blur', flush);
      window.removeEventListener('pagehide', flush);
      document.removeEventListener('visibilitychange', hidden);
      sender.flush();
    };
  }, [sender]);
}
