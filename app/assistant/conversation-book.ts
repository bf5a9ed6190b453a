import { randomUUID } from 'node:crypto';
import type { AssistantMessage, AssistantToolCall, Conversation } from '../contract/assistant.js';
import type { Clock } from '../core/clock.js';
import { HostError, JsonRpcCode, toErrorData } from '../core/errors.js';
import type { ToolResultForModel } from './chat-messages.js';
import type { ConversationStore, QuarantinedConversation } from './conversation-store.js';

/** Options of {@link ConversationBook}. */
export interface ConversationBookOptions {
  store: ConversationStore;
  clock: Clock;
  /** A conversation changed (given live: copy it to keep it), or was deleted (`undefined`). */
  changed(conversationId: string, conversation: Conversation | undefined): void;
  /** A save nobody waited for failed; the conversation is kept in memory and saved with its next change. */
  onStoreError(conversationId: string, error: unknown): void;
}

/**
 * The conversations in memory, their saving and their announcement.
 *
 * Every change is committed: saved through the store (whose journal syncs in the thread pool,
 * one sync for every save of the same moment) and announced, each at most once per turn of the
 * event loop however many changes the turn made. {@link durable} is for what is acknowledged to
 * the person: its promise settles only once the conversation is on disk, and rejects when the
 * disk refused it.
 */
export class ConversationBook {
  readonly quarantined: QuarantinedConversation[];
  readonly #o: ConversationBookOptions;
  readonly #conversations = new Map<string, Conversation>();
  readonly #dirty = new Set<Conversation>();
  #scheduled = false;
  #closed = false;

  constructor(options: ConversationBookOptions) {
    this.#o = options;
    const loaded = options.store.loadAll();
    this.quarantined = loaded.quarantined;
    for (const conversation of loaded.conversations) this.#conversations.set(conversation.id, conversation);
  }

  values(): IterableIterator<Conversation> {
    return this.#conversations.values();
  }

  lookup(conversationId: string): Conversation | undefined {
    return this.#conversations.get(conversationId);
  }

  find(conversationId: string): Conversation {
    const c = this.#conversations.get(conversationId);
    if (!c) throw new HostError(JsonRpcCode.InvalidParams, `Unknown conversation ${conversationId}`);
    return c;
  }

  add(c: Conversation): void {
    this.#conversations.set(c.id, c);
  }

  /** Forgets a conversation; resolves once its removal is on disk. */
  async remove(conversationId: string): Promise<void> {
    const c = this.#conversations.get(conversationId);
    if (c) this.#dirty.delete(c);
    this.#conversations.delete(conversationId);
    this.#o.changed(conversationId, undefined);
    await this.#o.store.remove(conversationId);
  }

  /** Records a change: saved and announced at the end of this turn, with any other change of it. */
  commit(c: Conversation): void {
    c.updatedAt = this.#stamp(c);
    this.settle(c);
  }

  /**
   * Records what is not a change of the conversation's own (its model file's load ended, see
   * `ModelLoadSchema`): saved and announced as a commit is, its `updatedAt` kept.
   */
  settle(c: Conversation): void {
    this.#dirty.add(c);
    if (this.#scheduled || this.#closed) return;
    this.#scheduled = true;
    // Closed meanwhile: `close` wrote what was pending then, and what changes after it (a call
    // Taskdesk's closing broke off) is not the conversation's: the next start says so itself.
    setImmediate(() => {
      if (!this.#closed) this.#flush();
    });
  }

  /**
   * Commits a change someone is told about: resolves once it is on disk (a refusing disk rejects).
   * `at` is the change's time: a conversation just made passes its `createdAt`, so that it reads
   * as untouched (the Desk's New chat replaces such a one) even when the clock ticked meanwhile.
   */
  async durable(c: Conversation, at = this.#stamp(c)): Promise<void> {
    c.updatedAt = at;
    this.#dirty.delete(c);
    this.#o.changed(c.id, c);
    try {
      await this.#o.store.save(c, true);
    } catch (problem) {
      throw new HostError(
        JsonRpcCode.InternalError,
        `The conversation could not be saved: ${toErrorData(problem).message}. Taskdesk keeps it and saves it with the next change.`
      );
    }
  }

  /** Saves and announces what waits, then releases the store. */
  close(): void {
    this.#flush();
    this.#closed = true;
    this.#o.store.close();
  }

  #flush(): void {
    this.#scheduled = false;
    const dirty = [...this.#dirty];
    this.#dirty.clear();
    for (const c of dirty) {
      if (this.#conversations.get(c.id) !== c) continue; // deleted meanwhile
      this.#o.changed(c.id, c);
      this.#o.store.save(c, false).catch((problem: unknown) => this.#o.onStoreError(c.id, problem));
    }
  }

  now(): string {
    return new Date(this.#o.clock.now()).toISOString();
  }

  /**
   * A change's `updatedAt`: now, or a millisecond after the last change when the clock has not
   * moved past it (two changes in one millisecond, or a clock set back). No two states of a
   * conversation share a stamp, so the Desk, which keeps the newer of two copies that crossed (a
   * call's answer and the events after it), never takes an earlier state for the later one.
   */
  #stamp(c: Conversation): string {
    const now = this.#o.clock.now();
    const last = Date.parse(c.updatedAt);
    return new Date(Number.isNaN(last) || now > last ? now : last + 1).toISOString();
  }

  push(c: Conversation, message: AssistantMessage): void {
    c.messages.push(message);
  }

  /**
   * A failure for the person; `reason`, when known, what they can change for a retry to work;
   * `tries`, how many times in a row it was tried and failed this way (the person's retries), when more than once.
   */
  error(kind: string, message: string, retryable: boolean, reason?: string, tries?: number): AssistantMessage {
    return {
      id: randomUUID(),
      at: this.now(),
      role: 'error',
      kind,
      message,
      retryable,
      ...(reason !== undefined && { reason }),
      ...(tries !== undefined && tries > 1 && { tries })
    };
  }
}

/** Every tool call of a conversation, in order. */
export function toolCalls(c: Conversation): AssistantToolCall[] {
  return c.messages.flatMap((message) => (message.role === 'assistant' ? message.toolCalls : []));
}

/** A failed tool result with this text. */
export function failure(text: string): ToolResultForModel {
  return { text, images: [], isError: true };
}
