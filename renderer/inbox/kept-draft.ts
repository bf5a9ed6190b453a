import { useEffect, useMemo, useRef } from 'react';
import type { InboxItem } from '../../app/contract/host-api.js';
import type { SchemaField } from '../../app/contract/schema-fields.js';
import type { RawValue } from '../forms/schema-values.js';
import { typedText } from './typed-text.js';
import { useDesk } from '../shell/desk-context.js';

/**
 * Keeps what the person has typed into a card in the store as they type, so that if the server
 * withdraws the request (an ordinary request's server may stop waiting at any time) its notice
 * still holds it to copy. Only a change is told: a second card of the same item (the Assistant's
 * chat shows a task's questions too) does not blank what was typed into the first.
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

/** {@link typedText}, worked out again only when the values change. */
export function useTypedText(fields: SchemaField[], values: Record<string, RawValue>): string {
  return useMemo(() => typedText(fields, values), [fields, values]);
}
