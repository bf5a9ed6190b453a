import { useMemo, useState } from 'react';

/** One text block of a sampling request's messages that a person may edit. */
export interface TextSlot {
  key: string;
  message: number;
  /** Index in the content array; undefined when the content is a single block. */
  block: number | undefined;
  label: string;
  original: string;
}

type Message = { role?: unknown; content?: unknown };

/** Every text block of the messages, with a label saying which message (and part) it is. */
export function textSlots(request: Record<string, unknown>): TextSlot[] {
  const messages = Array.isArray(request.messages) ? (request.messages as Message[]) : [];
  return messages.flatMap((message, index) => {
    const role = typeof message.role === 'string' ? message.role : 'unknown';
    const many = Array.isArray(message.content);
    const blocks = many ? (message.content as unknown[]) : [message.content];
    return blocks.flatMap((block, blockIndex) => {
      const { type, text } = (block ?? {}) as { type?: unknown; text?: unknown };
      if (type !== 'text' || typeof text !== 'string') return [];
      const part = blocks.length > 1 ? `, part ${blockIndex + 1}` : '';
      return [
        {
          key: `${index}:${blockIndex}`,
          message: index,
          block: many ? blockIndex : undefined,
          label: `Message ${index + 1} (${role}${part})`,
          original: text
        }
      ];
    });
  });
}

/**
 * What a person changed of a sampling request's texts, as a card's draft keeps it: the system
 * prompt when changed, and the changed message texts by slot key (only those, to keep it small).
 */
export interface TextEdits {
  system?: string;
  texts?: Record<string, string>;
}

/** The changes of `system` and `texts` from the request's own; undefined when there are none. */
export function textEdits(
  request: Record<string, unknown>,
  slots: TextSlot[],
  system: string,
  texts: Record<string, string>
): TextEdits | undefined {
  const changed = slots.filter((slot) => texts[slot.key] !== undefined && texts[slot.key] !== slot.original);
  const systemChanged = system !== systemPromptOf(request);
  if (!systemChanged && changed.length === 0) return undefined;
  return {
    ...(systemChanged && { system }),
    ...(changed.length > 0 && { texts: Object.fromEntries(changed.map((slot) => [slot.key, texts[slot.key]!])) })
  };
}

/** The request's system prompt, '' when it has none. */
function systemPromptOf(request: Record<string, unknown>): string {
  return typeof request.systemPrompt === 'string' ? request.systemPrompt : '';
}

/** A person's edits of a sampling request: its system prompt and message texts. */
export interface RequestEdits {
  slots: TextSlot[];
  system: string;
  setSystem(text: string): void;
  texts: Record<string, string>;
  setText(key: string, text: string): void;
  /** What was changed, as a draft keeps it ({@link textEdits}); undefined when nothing was. */
  changes: TextEdits | undefined;
  /** The request with the edits applied, or undefined when nothing was changed. */
  edited(): Record<string, unknown> | undefined;
}

/**
 * Edits of what a sampling request sends to the model. Other blocks (images, tool use) stay
 * as they are: the edited request is the original with those texts replaced, so everything
 * else the server sent (tools, limits, metadata) goes through unchanged. `start`: the edits a
 * card starts from (a kept draft that fits the request's slots), over the request's own texts.
 */
export function useRequestEdits(request: Record<string, unknown>, start?: TextEdits): RequestEdits {
  const slots = useMemo(() => textSlots(request), [request]);
  const originalSystem = systemPromptOf(request);
  const [system, setSystem] = useState(() => start?.system ?? originalSystem);
  const [texts, setTexts] = useState(() =>
    Object.fromEntries(slots.map((slot) => [slot.key, start?.texts?.[slot.key] ?? slot.original]))
  );
  const changes = useMemo(() => textEdits(request, slots, system, texts), [request, slots, system, texts]);
  return {
    slots,
    system,
    setSystem,
    texts,
    setText: (key, text) => setTexts((old) => ({ ...old, [key]: text })),
    changes,
    edited() {
      const changed = slots.filter((slot) => texts[slot.key] !== slot.original);
      if (system === originalSystem && changed.length === 0) return undefined;
      const params = structuredClone(request);
      if (system !== originalSystem) {
        if (system === '') delete params.systemPrompt;
        else params.systemPrompt = system;
      }
      const messages = params.messages as Array<{ content: unknown }>;
      for (const slot of changed) {
        const content = messages[slot.message]!.content;
        const block = (slot.block === undefined ? content : (content as unknown[])[slot.block]) as { text: string };
        block.text = texts[slot.key] ?? slot.original;
      }
      return params;
    }
  };
}
