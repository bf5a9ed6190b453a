import { z } from 'zod';
import { ConversationDocumentSchema, type Conversation } from '../contract/assistant.js';
import type { DocumentDir } from '../store/document-dir.js';

/** A stored conversation that could not be read and was moved aside. */
export interface QuarantinedConversation {
  id: string;
  reason: string;
  movedTo: string;
}

/**
 * The assistant's conversations on disk: one document per conversation (so a long chat costs
 * only its own rewrite), each `{ schemaVersion, conversation }` parsed on load. A file that does
 * not parse or match is moved to the corrupt directory, never deleted.
 */
export class ConversationStore {
  readonly #dir: DocumentDir;

  constructor(dir: DocumentDir) {
    this.#dir = dir;
  }

  /** Every stored conversation, and those that had to be moved aside. */
  loadAll(): { conversations: Conversation[]; quarantined: QuarantinedConversation[] } {
    const conversations: Conversation[] = [];
    const quarantined: QuarantinedConversation[] = [];
    for (const id of this.#dir.ids()) {
      const loaded = this.#dir.read(id);
      if (!loaded.ok) {
        quarantined.push({ id, reason: loaded.reason, movedTo: loaded.movedTo });
        continue;
      }
      const parsed = ConversationDocumentSchema.safeParse(loaded.value);
      if (!parsed.success || parsed.data.conversation.id !== id) {
        const reason = parsed.success
          ? `it names conversation ${parsed.data.conversation.id}`
          : z.prettifyError(parsed.error);
        const moved = this.#dir.quarantine(id, reason);
        quarantined.push({ id, reason: moved.reason, movedTo: moved.movedTo });
        continue;
      }
      conversations.push(parsed.data.conversation);
    }
    return { conversations, quarantined };
  }

  /** Writes a conversation whole (an atomic replace; a full disk throws and the old one stays). */
  save(conversation: Conversation): void {
    this.#dir.write(conversation.id, { schemaVersion: 1, conversation });
  }

  remove(id: string): void {
    this.#dir.remove(id);
  }
}
