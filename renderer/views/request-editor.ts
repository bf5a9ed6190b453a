import { h, uid } from '../dom.js';

/** An editor of a sampling request's system prompt and message texts, behind a disclosure button. */
export interface RequestEditor {
  /** The "Edit request…" button. */
  toggle: HTMLButtonElement;
  /** The fields, hidden until the button opens them. */
  panel: HTMLElement;
  /** The request with the edits applied, or undefined when nothing was changed. */
  edited(): Record<string, unknown> | undefined;
}

interface TextSlot {
  message: number;
  /** Index in the content array; undefined when the content is a single block. */
  block: number | undefined;
  input: HTMLTextAreaElement;
}

/**
 * Lets a person edit what a sampling request sends to the model before approving it: the
 * system prompt and every text block of the messages. Other blocks (images, tool use) stay
 * as they are. The edited request is the original with those texts replaced, so everything
 * else the server sent (tools, limits, metadata) goes through unchanged.
 */
export function requestEditor(request: Record<string, unknown>): RequestEditor {
  const panelId = uid('request-editor');
  const systemId = uid('system-prompt');
  const originalSystem = typeof request.systemPrompt === 'string' ? request.systemPrompt : '';
  const system = h('textarea', { id: systemId, rows: 3, value: originalSystem, spellcheck: 'true' });
  const messages = Array.isArray(request.messages)
    ? (request.messages as Array<{ role?: unknown; content?: unknown }>)
    : [];
  const slots: TextSlot[] = [];
  const fields = messages.map((message, index) => {
    const role = typeof message.role === 'string' ? message.role : 'unknown';
    const blocks = Array.isArray(message.content) ? (message.content as unknown[]) : [message.content];
    return blocks.map((block, blockIndex) => {
      const { type, text } = (block ?? {}) as { type?: unknown; text?: unknown };
      if (type !== 'text' || typeof text !== 'string') return null;
      const id = uid('message-text');
      const input = h('textarea', {
        id,
        rows: Math.min(8, Math.max(2, text.split('\n').length)),
        value: text,
        spellcheck: 'true'
      });
      slots.push({ message: index, block: Array.isArray(message.content) ? blockIndex : undefined, input });
      const part = blocks.length > 1 ? `, part ${blockIndex + 1}` : '';
      return h('div', { class: 'field' }, h('label', { for: id }, `Message ${index + 1} (${role}${part})`), input);
    });
  });
  const panel = h(
    'fieldset',
    { id: panelId, class: 'field request-editor', hidden: true },
    h('legend', null, 'Edit the request'),
    h('div', { class: 'field' }, h('label', { for: systemId }, 'System prompt'), system),
    fields,
    slots.length === 0 ? h('p', { class: 'muted' }, 'The messages hold no text to edit.') : null
  );
  const toggle = h('button', { type: 'button', 'aria-expanded': 'false', 'aria-controls': panelId }, 'Edit request…');
  toggle.addEventListener('click', () => {
    const open = panel.hidden;
    panel.hidden = !open;
    toggle.setAttribute('aria-expanded', String(open));
    if (open) system.focus();
  });
  return {
    toggle,
    panel,
    edited() {
      const changedSystem = system.value !== originalSystem;
      const changedSlots = slots.filter((slot) => {
        const content = messages[slot.message]!.content;
        const block = (slot.block === undefined ? content : (content as unknown[])[slot.block]) as { text: string };
        return block.text !== slot.input.value;
      });
      if (!changedSystem && changedSlots.length === 0) return undefined;
      const params = structuredClone(request);
      if (changedSystem) {
        if (system.value === '') delete params.systemPrompt;
        else params.systemPrompt = system.value;
      }
      const editedMessages = params.messages as Array<{ content: unknown }>;
      for (const slot of changedSlots) {
        const message = editedMessages[slot.message]!;
        if (slot.block === undefined) (message.content as { text: string }).text = slot.input.value;
        else ((message.content as unknown[])[slot.block] as { text: string }).text = slot.input.value;
      }
      return params;
    }
  };
}
