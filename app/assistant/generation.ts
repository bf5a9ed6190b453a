import { randomUUID } from 'node:crypto';
import type OpenAI from 'openai';
import type { AssistantMessage, AssistantToolCall, Conversation } from '../contract/assistant.js';
import type { ProviderSettings } from '../contract/providers.js';
import type { Clock } from '../core/clock.js';
import { HostError, JsonRpcCode, toErrorData } from '../core/errors.js';
import { createProviderClient } from '../sampling/provider-client.js';
import { toChatMessages } from './chat-messages.js';
import { failure, toolCalls, type ConversationBook } from './conversation-book.js';
import { failedTries, type PreviousFailure } from './failed-tries.js';
import { streamModelCall, type ModelCallOutcome } from './model-call.js';
import { takeToolCallIds } from './tool-call-ids.js';
import type { ToolRounds } from './tool-rounds.js';

/** The configured providers, as the assistant reads them. */
export interface AssistantProviders {
  get(providerId: string): ProviderSettings | undefined;
  apiKey(providerId: string): Promise<string | undefined>;
  /**
   * A model call of the provider starts; the function it returns is told how it went: `failure`,
   * its words, when it failed (see `ProviderHealth`).
   */
  called?(providerId: string): (failure?: string) => void;
}

/** Options of {@link Generation}. */
export interface GenerationOptions {
  book: ConversationBook;
  tools: ToolRounds;
  providers: AssistantProviders;
  clock: Clock;
  fetch?: typeof fetch;
  partial(update: { conversationId: string; messageId: string; text: string; done?: true }): void;
  /**
   * The load of the conversation's model file under way, if any: which tools the model is offered
   * is known once it ends (it never rejects), so a model call waits for it.
   */
  loading?(conversationId: string): Promise<void> | undefined;
}

/**
 * The model's side of a turn: one streamed call at a time per conversation, its tool calls
 * handed to {@link ToolRounds}, and the next call once no call it waits on is open, up to the
 * conversation's tool-round limit.
 */
export class Generation {
  readonly #o: GenerationOptions;
  readonly #controllers = new Map<string, AbortController>();
  readonly #rounds = new Map<string, number>();
  /** A result arrived while the model was answering: it goes on once this answer ends. */
  readonly #again = new Set<string>();
  /** The failure a retried turn follows, for its first model call: failing the same way, it says how many tries did. */
  readonly #tries = new Map<string, PreviousFailure>();
  /** One client per provider settings and key: its connections are kept alive from one call to the next. */
  readonly #clients = new Map<string, OpenAI>();

  constructor(options: GenerationOptions) {
    this.#o = options;
  }

  /**
   * A new turn (the person's message, or a retry): the tool-round count starts again. With
   * `saved` (the message's write), the model is asked at once but nothing of its answer is kept
   * until the write has landed; if it fails, the answer is dropped (the caller aborts it and
   * takes the message back). `previous`: the failure a retry follows; should the retry fail the
   * same way, its failure says how many tries in a row did (the person sees the retry ran).
   */
  startTurn(c: Conversation, saved?: Promise<void>, previous?: PreviousFailure): void {
    this.#rounds.set(c.id, 0);
    if (previous !== undefined) this.#tries.set(c.id, previous);
    else this.#tries.delete(c.id);
    c.status = 'generating';
    void this.#generate(c, saved);
  }

  /** Aborts the answer streaming in; the model is not asked again by itself. */
  abort(conversationId: string): void {
    this.#controllers.get(conversationId)?.abort();
    this.#again.delete(conversationId);
  }

  abortAll(): void {
    for (const controller of this.#controllers.values()) controller.abort();
  }

  forget(conversationId: string): void {
    this.#rounds.delete(conversationId);
    this.#tries.delete(conversationId);
    this.#again.delete(conversationId);
  }

  /** The model goes on once no call of its last answer is still open (a call answered by an interim result counts as answered). */
  maybeContinue(c: Conversation): void {
    if (c.status === 'generating') {
      this.#again.add(c.id);
      return;
    }
    if (c.status === 'failed') return;
    const blocking = toolCalls(c).some(
      (call) =>
        call.state === 'pending-approval' || call.state === 'running' || (call.state === 'task' && !call.interimSent)
    );
    if (blocking) {
      if (c.status !== 'tools') {
        c.status = 'tools';
        this.#o.book.commit(c);
      }
      return;
    }
    const last = c.messages.at(-1);
    if (last && (last.role === 'tool' || last.role === 'notice')) {
      c.status = 'generating';
      this.#o.book.commit(c);
      void this.#generate(c);
    } else if (c.status !== 'idle') {
      c.status = 'idle';
      this.#o.book.commit(c);
    }
  }

  /** One model call, streamed; then its tool calls, or the end of the turn. */
  async #generate(c: Conversation, saved?: Promise<void>): Promise<void> {
    const { book, tools } = this.#o;
    const controller = new AbortController();
    this.#controllers.set(c.id, controller);
    const messageId = randomUUID();
    const previous = this.#tries.get(c.id);
    this.#tries.delete(c.id);
    // Its model file still loading (New chat): the tools it is offered are known once it has loaded.
    const loading = this.#o.loading?.(c.id);
    if (loading) await untilStopped(loading, controller.signal).catch(() => undefined);
    // Asked of this model: its answer names it, even once the conversation has moved to another.
    const model = c.model;
    const providerId = c.providerId;
    const answered = this.#o.providers.called?.(providerId);
    let outcome: ModelCallOutcome;
    try {
      controller.signal.throwIfAborted();
      const settings = this.#o.providers.get(providerId);
      if (!settings)
        throw new HostError(
          JsonRpcCode.InvalidParams,
          // Said plainly, not by id: a conversation is only created on a configured provider.
          'The provider of this conversation was removed: choose another one.'
        );
      // Both are usually at hand (a cached key, a cached tool list): asked together, not one after the other.
      const [apiKey, offered] = await Promise.all([this.#o.providers.apiKey(settings.id), tools.offer(c)]);
      outcome = await streamModelCall({
        client: this.#client(settings, apiKey),
        settings,
        apiKey,
        model,
        messages: toChatMessages(c),
        tools: offered,
        signal: controller.signal,
        clock: this.#o.clock,
        onText: (text) => this.#o.partial({ conversationId: c.id, messageId, text })
      });
    } catch (problem) {
      outcome = controller.signal.aborted
        ? { type: 'stopped', text: '' }
        : { type: 'failed', kind: 'setup', message: toErrorData(problem).message, text: '' };
    }
    // What the provider answered, for its card; not a call stopped, nor one that never reached it.
    if (outcome.type === 'done') answered?.();
    else if (outcome.type === 'failed' && outcome.reason !== undefined) answered?.(outcome.reason);
    if (saved) {
      try {
        await saved;
      } catch {
        // The message it answers is not on disk and was taken back: nothing of this call stays.
        if (this.#controllers.get(c.id) === controller) this.#controllers.delete(c.id);
        this.#o.partial({ conversationId: c.id, messageId, text: '', done: true });
        return;
      }
    }
    if (this.#controllers.get(c.id) === controller) this.#controllers.delete(c.id);
    this.#o.partial({ conversationId: c.id, messageId, text: outcome.text, done: true });
    if (outcome.type === 'stopped') {
      // Kept even with no text (Stop before the first word came): the chat shows the answer stopped.
      book.push(c, {
        id: messageId,
        at: book.now(),
        role: 'assistant',
        text: outcome.text,
        toolCalls: [],
        stopped: true,
        model
      });
      book.commit(c);
      return;
    }
    if (outcome.type === 'failed') {
      const reason = outcome.toolsTooLong ? 'tools-too-long' : undefined;
      const tries = failedTries(previous, { kind: outcome.kind, reason });
      book.push(c, book.error(outcome.kind, outcome.message, true, reason, tries));
      c.status = 'failed';
      book.commit(c);
      return;
    }
    // Unique in the conversation whatever ids the provider gave (see `takeToolCallIds`).
    const ids = takeToolCallIds(
      toolCalls(c).map((call) => call.id),
      outcome.toolCalls.map((call) => call.id)
    );
    const calls: AssistantToolCall[] = outcome.toolCalls.map((call, index) => ({
      id: ids[index]!,
      functionName: call.name,
      rawArguments: call.arguments || '{}',
      state: 'pending-approval'
    }));
    const message: AssistantMessage = {
      id: messageId,
      at: book.now(),
      role: 'assistant',
      text: outcome.text,
      toolCalls: calls,
      model,
      ...(outcome.cutOff && { cutOff: outcome.cutOff })
    };
    book.push(c, message);
    if (calls.length === 0) {
      c.status = 'idle';
      book.commit(c);
      if (this.#again.delete(c.id)) this.maybeContinue(c);
      return;
    }
    const rounds = (this.#rounds.get(c.id) ?? 0) + 1;
    this.#rounds.set(c.id, rounds);
    if (rounds > c.maxToolRounds) {
      for (const call of calls)
        tools.addResult(
          c,
          call,
          failure(`Not run: the model reached the limit of ${c.maxToolRounds} tool rounds for one message.`),
          'denied'
        );
      book.push(
        c,
        book.error(
          'tool-limit',
          `The model kept calling tools (${c.maxToolRounds} rounds for this message) and was stopped. Raise the limit in the conversation's settings, then retry to let it go on.`,
          true
        )
      );
      c.status = 'failed';
      book.commit(c);
      return;
    }
    c.status = 'tools';
    book.commit(c);
    for (const call of calls) tools.admit(c, call);
    this.maybeContinue(c);
  }

  #client(settings: ProviderSettings, apiKey: string | undefined): OpenAI {
    const key = JSON.stringify([settings.id, settings.baseURL, apiKey ?? null]);
    let client = this.#clients.get(key);
    if (!client) {
      if (this.#clients.size > 20) this.#clients.clear();
      client = createProviderClient(settings, apiKey, { ...(this.#o.fetch && { fetch: this.#o.fetch }) });
      this.#clients.set(key, client);
    }
    return client;
  }
}

/** Waits for `loading`; rejects with the signal's reason once it aborts first (Stop while a model loads). */
function untilStopped(loading: Promise<void>, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const stop = () => reject(signal.reason);
    if (signal.aborted) return stop();
    signal.addEventListener('abort', stop, { once: true });
    void loading.then(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    });
  });
}
