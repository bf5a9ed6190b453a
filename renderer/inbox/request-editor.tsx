import { useEffect, useRef } from 'react';
import { FieldFrame } from '../forms/field-frame.js';
import type { RequestEdits } from './request-edits.js';

/**
 * The fields that edit a sampling request's system prompt and message texts; focus goes in
 * when the person opens it. Closed, it renders no fields (the edits live in {@link RequestEdits}),
 * so the request's texts appear once on the card, in the conversation.
 */
export function RequestEditor({ id, open, edits }: { id: string; open: boolean; edits: RequestEdits }) {
  const system = useRef<HTMLTextAreaElement>(null);
  // An editor open from the start (restored edits) leaves the focus where it is, or the page's
  // first key (`j` in the Inbox) would be typed into the system prompt.
  const wasOpen = useRef(open);
  useEffect(() => {
    if (open && !wasOpen.current) system.current?.focus();
    wasOpen.current = open;
  }, [open]);
  if (!open) return <fieldset id={id} className="field request-editor" hidden />;
  return (
    <fieldset id={id} className="field request-editor">
      <legend>Edit the request</legend>
      <FieldFrame name="system-prompt" label="System prompt">
        {(wiring) => (
          <textarea
            {...wiring}
            ref={system}
            rows={3}
            spellCheck
            value={edits.system}
            onChange={(event) => edits.setSystem(event.target.value)}
          />
        )}
      </FieldFrame>
      {edits.slots.map((slot) => (
        <FieldFrame key={slot.key} name="message-text" label={slot.label}>
          {(wiring) => (
            <textarea
              {...wiring}
              rows={Math.min(8, Math.max(2, slot.original.split('\n').length))}
              spellCheck
              value={edits.texts[slot.key] ?? ''}
              onChange={(event) => edits.setText(slot.key, event.target.value)}
            />
          )}
        </FieldFrame>
      ))}
      {edits.slots.length === 0 ? <p className="muted">The messages hold no text to edit.</p> : null}
    </fieldset>
  );
}
