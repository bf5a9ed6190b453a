import type { Conversation, ConversationSummary } from '../../app/contract/assistant.js';
import { byActivity, conversationSummary } from '../../app/contract/conversation-summary.js';
import type { HostEventPayload } from '../../app/contract/host-api.js';

/** The model's answer streaming into a conversation now. */
export interface AssistantStream {
  messageId: string;
  text: string;
}

/** What the Desk holds of the assistant: the conversation list, the conversations seen, answers streaming now. */
export interface AssistantSlice {
  /** Newest first, as `assistant.list` orders them. */
  summaries: ConversationSummary[];
  /** Whole conversations by id, as the last `assistant.changed` (or `assistant.get`) carried them. */
  conversations: Record<string, Conversation>;
  /** By conversation id, until the stream's `done`. */
  streams: Record<string, AssistantStream>;
}

export const initialAssistantSlice: AssistantSlice = { summaries: [], conversations: {}, streams: {} };

/**
 * Folds a conversation the host sent (an event, or a call's answer). An older copy never
 * replaces a newer one: answers and events may cross. The load of a chat's model file keeps its
 * `updatedAt` (see `ModelLoadSchema`): of two copies with the same, the one whose load went
 * further is the newer.
 */
export function withConversation(slice: AssistantSlice, c: Conversation): AssistantSlice {
  const known = slice.conversations[c.id];
  if (known && (known.updatedAt > c.updatedAt || (known.updatedAt === c.updatedAt && loadDone(known) > loadDone(c))))
    return slice;
  const summaries = [...slice.summaries.filter((s) => s.id !== c.id), conversationSummary(c)].sort(byActivity);
  return { ...slice, conversations: { ...slice.conversations, [c.id]: c }, summaries };
}

/** How far a copy's model load had gone: its progress while loading (0 when not said), 2 once it ended. */
function loadDone({ modelLoad }: Conversation): number {
  return modelLoad?.state === 'loading' ? (modelLoad.progress ?? 0) : 2;
}

/** Folds one assistant event. */
export function applyAssistantEvent(
  slice: AssistantSlice,
  event: 'assistant.partial' | 'assistant.changed' | 'assistant.approval',
  payload: HostEventPayload<'assistant.partial' | 'assistant.changed' | 'assistant.approval'>
): AssistantSlice {
  switch (event) {
    case 'assistant.partial': {
      const update = payload as HostEventPayload<'assistant.partial'>;
      if (update.done) {
        if (!(update.conversationId in slice.streams)) return slice;
        const { [update.conversationId]: _done, ...streams } = slice.streams;
        return { ...slice, streams };
      }
      return {
        ...slice,
        streams: { ...slice.streams, [update.conversationId]: { messageId: update.messageId, text: update.text } }
      };
    }
    case 'assistant.changed': {
      const { conversationId, conversation } = payload as HostEventPayload<'assistant.changed'>;
      if (conversation) return withConversation(slice, conversation);
      const { [conversationId]: _gone, ...conversations } = slice.conversations;
      const { [conversationId]: _stream, ...streams } = slice.streams;
      return { conversations, streams, summaries: slice.summaries.filter((s) => s.id !== conversationId) };
    }
    // The pending call comes with the conversation's own `assistant.changed` too.
    case 'assistant.approval':
      return slice;
  }
}

/**
 * The list of a snapshot; a conversation held whole that is newer than its line (an event that
 * crossed the fetch) keeps its own line, and one the list no longer has goes.
 */
export function mergeSummaries(slice: AssistantSlice, list: ConversationSummary[]): AssistantSlice {
  const ids = new Set(list.map((s) => s.id));
  const conversations = Object.fromEntries(Object.entries(slice.conversations).filter(([id]) => ids.has(id)));
  const summaries = list
    .map((s) => {
      const held = conversations[s.id];
      return held && held.updatedAt > s.updatedAt ? conversationSummary(held) : s;
    })
    .sort(byActivity);
  return { ...slice, conversations, summaries };
}
