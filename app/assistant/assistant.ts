import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { AuditSink } from '../audit/audit-log.js';
import type {
  AssistantMessage,
  AssistantMethods,
  AssistantToolCall,
  AssistantToolPolicy,
  Conversation,
  ConversationSummary,
  MessageSource,
  ResolvedSource,
  ServerSources,
  ToolDecision
} from '../contract/assistant.js';
import { FIRST_MESSAGE_TITLE_LENGTH, UNTITLED_CONVERSATION } from '../contract/assistant.js';
import { byActivity, conversationSummary } from '../contract/conversation-summary.js';
import type { ProviderSettings } from '../contract/providers.js';
import type { Clock } from '../core/clock.js';
import { HostError, JsonRpcCode, toErrorData } from '../core/errors.js';
import { copyJson } from '../core/json-copy.js';
import { ConversationBook } from './conversation-book.js';
import type { ConversationStore, QuarantinedConversation } from './conversation-store.js';
import { Generation, type AssistantProviders } from './generation.js';
import { listSources, resolveSource } from './message-sources.js';
import type { SourceServer } from './source-server.js';
import type { AssistantToolPolicies } from './tool-policies.js';
import { ToolRounds, type AssistantRequestor } from './tool-rounds.js';
import { toolsStillTooLong, toolsTooLong, type ModelFiles } from './tools-fit.js';
import { searchFolded } from '../contract/search-words.js';
import { localModels } from '../sampling/local-model.js';

export type { AssistantRequestor } from './tool-rounds.js';

/** What the assistant is built from. */
export interface AssistantOptions {
  store: ConversationStore;
  policies: AssistantToolPolicies;
  requestor: AssistantRequestor;
  providers: AssistantProviders;
  audit: AuditSink;
  clock: Clock;
  fetch?: typeof fetch;
  events: {
    partial(update: { conversationId: string; messageId: string; text: string; done?: true }): void;
    /** The conversation is given live (copy it to keep it); `undefined` when it was deleted. */
    changed(conversationId: string, conversation: Conversation | undefined): void;
    approval(conversationId: string, toolCall: AssistantToolCall): void;
  };
  /** A connected server, to list its prompts and resources in its era (undefined when not connected). */
  sourceServer(serverId: string): SourceServer | undefined;
  /** A configured server's name, for the audit log (without it, a connected server's name). */
  serverName?(serverId: string): string | undefined;
  /** Told when a conversation could not be written (it is kept in memory and written with the next change). */
  onStoreError(conversationId: string, error: unknown): void;
  /** Loads model files to count what the tools take of their context (default: the process's `localModels`). */
  modelFiles?: ModelFiles;
}

type CreateParams = z.output<(typeof AssistantMethods)['assistant.create']['params']>;
type UpdateParams = z.output<(typeof AssistantMethods)['assistant.update']['params']>;

const BUSY = new Set(['generating', 'tools']);

/**
 * The assistant: conversations with a configured LLM that may call the tools of chosen servers.
 *
 * The model's answer streams in (`partial`); its tool calls go through the requestor as the Tools
 * screen's do (validated, as a task where the server and tool allow it), each after the server's
 * policy (ask, auto, refuse) let it. A task's immediate response reaches the model at once; its
 * result, when it ends (after a restart too: the outbound id is kept in the conversation), is
 * added and the model goes on by itself. Every method that answers the person returns only once
 * what it changed is on disk. Electron-free: the window and browser mode share it.
 */
export class Assistant {
  readonly quarantined: QuarantinedConversation[];
  readonly #o: AssistantOptions;
  readonly #book: ConversationBook;
  readonly #tools: ToolRounds;
  readonly #generation: Generation;
  readonly #off: () => void;
  readonly #models: ModelFiles;
  /** By conversation, the load of its model file New chat started (see {@link #loadModel}): a model call waits for it. */
  readonly #loads = new Map<string, Promise<void>>();

  constructor(options: AssistantOptions) {
    this.#o = options;
    this.#models = options.modelFiles ?? localModels;
    this.#book = new ConversationBook({
      store: options.store,
      clock: options.clock,
      changed: (id, c) => options.events.changed(id, c),
      onStoreError: (id, problem) => options.onStoreError(id, problem)
    });
    this.quarantined = this.#book.quarantined;
    this.#tools = new ToolRounds({
      book: this.#book,
      requestor: options.requestor,
      policies: options.policies,
      audit: options.audit,
      approval: (id, call) => options.events.approval(id, call),
      settled: (c) => this.#generation.maybeContinue(c),
      setPolicy: (serverId, policy) => this.setPolicy(serverId, policy),
      serverName: (serverId) => options.serverName?.(serverId) ?? options.sourceServer(serverId)?.name
    });
    this.#generation = new Generation({
      book: this.#book,
      tools: this.#tools,
      providers: options.providers,
      clock: options.clock,
      ...(options.fetch && { fetch: options.fetch }),
      partial: (update) => options.events.partial(update),
      loading: (conversationId) => this.#loads.get(conversationId)
    });
    const offTasks = options.requestor.on((event) => {
      if (event.type === 'changed') this.#tools.taskChanged(event.task);
    });
    const offExchanges = options.requestor.onExchangeChanged((exchangeId, view) =>
      this.#tools.exchangeChanged(exchangeId, view)
    );
    this.#off = () => {
      offTasks();
      offExchanges();
    };
  }

  /**
   * Picks up what a restart interrupted: an answer that was streaming fails (retry asks again),
   * a plain call in flight is reported to the model as interrupted, a task is followed on (the
   * requestor resumes it) and its result delivered when it comes.
   */
  resume(): void {
    for (const c of this.#book.values()) {
      // A load Taskdesk's closing cut is not started again (the servers whose tools it would count
      // are not connected yet): the first message loads the model, and says so should they not fit.
      if (c.modelLoad?.state === 'loading') {
        delete c.modelLoad;
        this.#book.settle(c);
      }
      let changed = this.#tools.resume(c);
      if (c.status === 'generating') {
        this.#book.push(c, this.#book.error('interrupted', 'Taskdesk was closed while the model was answering.', true));
        c.status = 'failed';
        changed = true;
      }
      if (changed) this.#book.commit(c);
      this.#tools.catchUp(c);
      if (c.status === 'tools') this.#generation.maybeContinue(c);
    }
  }

  /** Stops every generation and writes what is pending; conversations waiting on tasks go on at the next start. */
  close(): void {
    this.#off();
    this.#generation.abortAll();
    this.#book.close();
  }

  list(query?: string): ConversationSummary[] {
    const needle = searchFolded(query?.trim() ?? '');
    return [...this.#book.values()]
      .filter((c) => needle === '' || searchFolded(c.title).includes(needle))
      .map(conversationSummary)
      .sort(byActivity);
  }

  /** A copy of the conversation (JSON data, as stored: walked rather than `structuredClone`d, a few times cheaper). */
  get(conversationId: string): Conversation {
    return copyJson(this.#book.find(conversationId));
  }

  async create({ fitTools, ...params }: CreateParams): Promise<Conversation> {
    const settings = this.#provider(params.providerId);
    const now = this.#book.now();
    const c: Conversation = {
      ...params,
      id: `c-${randomUUID()}`,
      createdAt: now,
      updatedAt: now,
      status: 'idle',
      messages: []
    };
    this.#book.add(c);
    // Known before the first message, which would fail whatever it said: the chat is made at once,
    // and goes without them once its model has loaded.
    if (fitTools === true && settings.modelFile !== undefined && c.serverIds.length > 0) this.#loadModel(c, settings);
    await this.#book.durable(c, now);
    return this.get(c.id);
  }

  /**
   * Loads the chat's model file to know whether the tools it offers fit its context, `modelLoad`
   * saying how far it is: loaded, tools whose descriptions cannot fit are left out (`toolsOff`
   * says why), unless the person changed its tools or its system prompt meanwhile; a load that
   * failed says why. Its model calls wait for it (see `Generation`). The outcome keeps the
   * conversation's `updatedAt` (see `ModelLoadSchema`).
   */
  #loadModel(c: Conversation, settings: ProviderSettings): void {
    const fitted = () => JSON.stringify([c.serverIds, c.toolsOffered ?? null, c.systemPrompt ?? null]);
    const asked = fitted();
    c.modelLoad = { state: 'loading' };
    let percent: number | undefined;
    const progress = (value: number) => {
      const now = Math.floor(Math.min(1, Math.max(0, value)) * 100);
      if (this.#loads.get(c.id) !== load || now === percent) return;
      percent = now;
      c.modelLoad = { state: 'loading', progress: now / 100 };
      // Said, not saved: how far a load was means nothing once Taskdesk has closed.
      this.#o.events.changed(c.id, c);
    };
    /** Whether this load is still the chat's (not deleted, nor moved to another model): it is done now. */
    const own = () => {
      if (this.#loads.get(c.id) !== load) return false;
      this.#loads.delete(c.id);
      return this.#book.lookup(c.id) === c;
    };
    const load: Promise<void> = toolsTooLong(
      this.#models,
      settings,
      () => this.#tools.offer(c),
      c.systemPrompt,
      progress
    ).then(
      (tooLong) => {
        if (!own()) return;
        delete c.modelLoad;
        if (tooLong && fitted() === asked) {
          c.serverIds = [];
          delete c.toolsOffered;
          c.toolsOff = tooLong;
        }
        this.#book.settle(c);
      },
      (problem: unknown) => {
        if (!own()) return;
        c.modelLoad = { state: 'failed', message: toErrorData(problem).message };
        this.#book.settle(c);
      }
    );
    this.#loads.set(c.id, load);
  }

  async update({ conversationId, systemPrompt, ...changes }: UpdateParams): Promise<Conversation> {
    const c = this.#book.find(conversationId);
    if (changes.providerId !== undefined) this.#provider(changes.providerId);
    const { providerId, model } = c;
    for (const [key, value] of Object.entries(changes)) if (value !== undefined) Object.assign(c, { [key]: value });
    // Why it began without tools no longer holds once they are chosen, or for another model.
    if (c.serverIds.length > 0 || c.providerId !== providerId || c.model !== model) delete c.toolsOff;
    // Nor does the load of the model it leaves: its outcome is dropped.
    if (c.providerId !== providerId || c.model !== model) {
      this.#loads.delete(c.id);
      delete c.modelLoad;
    }
    // A choice of tools goes with its server: unticked (as "Turn off tools and retry" does), the
    // server offers all its tools again if ticked later, as on a first tick.
    if (c.toolsOffered !== undefined) {
      const kept = Object.entries(c.toolsOffered).filter(([serverId]) => c.serverIds.includes(serverId));
      if (kept.length === 0) delete c.toolsOffered;
      else c.toolsOffered = Object.fromEntries(kept);
    }
    if (systemPrompt === null) delete c.systemPrompt;
    else if (systemPrompt !== undefined) c.systemPrompt = systemPrompt;
    await this.#book.durable(c);
    return this.get(c.id);
  }

  async delete(conversationId: string): Promise<void> {
    const c = this.#book.find(conversationId);
    await this.stop(c.id);
    this.#loads.delete(c.id);
    this.#generation.forget(c.id);
    this.#tools.forget(c.id);
    await this.#book.remove(c.id);
  }

  /** Adds the person's message and starts the model; refused while the model or its tools are busy. */
  async send(conversationId: string, text: string, sources: readonly MessageSource[] = []): Promise<Conversation> {
    const c = this.#book.find(conversationId);
    this.#assertNotBusy(c);
    const resolved: ResolvedSource[] = [];
    for (const source of sources) {
      const server = this.#sourceServer(source.serverId);
      resolved.push(await resolveSource(this.#o.requestor, source, server.name));
    }
    // Fetching took a while: someone may have sent meanwhile.
    this.#assertNotBusy(c);
    if (c.status === 'failed') dropTrailingErrors(c);
    return this.#startTurnWith(c, text, resolved, []);
  }

  /**
   * Sends the person's last message again (changed to `text` when given), in place of it and of
   * all that followed it; see `assistant.resend`.
   */
  async resend(conversationId: string, messageId: string, text?: string): Promise<Conversation> {
    const c = this.#book.find(conversationId);
    this.#assertNotBusy(c);
    const index = c.messages.findIndex((m) => m.id === messageId);
    const message = c.messages[index];
    if (message?.role !== 'user')
      throw new HostError(JsonRpcCode.InvalidParams, `This conversation has no message ${messageId} of yours.`);
    if (c.messages.slice(index + 1).some((m) => m.role === 'user'))
      throw new HostError(JsonRpcCode.InvalidRequest, 'Only your last message can be sent again.');
    // Its result would come back to a call no longer in the conversation: the person decides.
    const running = c.messages
      .slice(index + 1)
      .flatMap((m) => (m.role === 'assistant' ? m.toolCalls : []))
      .find((call) => call.state === 'task');
    if (running)
      throw new HostError(
        JsonRpcCode.InvalidRequest,
        `A tool call after this message (${running.toolName ?? running.functionName}) still runs as a task: cancel it on its card, or wait for its result, before sending the message again.`
      );
    const removed = c.messages.splice(index);
    const title = c.title;
    // The title its first message gave it follows that message's new words (a title the person
    // gave, or one from before, stays); put back with the messages should the new one not be saved.
    const named = text !== undefined && index === 0 && c.title === titleFromMessage(message.text);
    if (named) c.title = UNTITLED_CONVERSATION;
    try {
      return await this.#startTurnWith(c, text ?? message.text, message.sources ?? [], removed);
    } catch (problem) {
      c.title = title;
      this.#book.commit(c);
      throw problem;
    }
  }

  /**
   * Adds the person's message and asks the model. `removed` were taken from the conversation's
   * end for it (a message sent again): put back should the message not reach the disk.
   */
  async #startTurnWith(
    c: Conversation,
    text: string,
    sources: readonly ResolvedSource[],
    removed: AssistantMessage[]
  ): Promise<Conversation> {
    const message = {
      id: randomUUID(),
      at: this.#book.now(),
      role: 'user' as const,
      text,
      ...(sources.length > 0 && { sources: [...sources] })
    };
    // A load New chat started that failed is no longer the chat's news: this message's model call
    // loads the model itself, and says so should it fail again (the header said it still, with
    // Retry, after the model had answered).
    const failedLoad = c.modelLoad?.state === 'failed' ? c.modelLoad : undefined;
    if (failedLoad) delete c.modelLoad;
    this.#book.push(c, message);
    const before = c.status;
    const title = c.title;
    if (title === UNTITLED_CONVERSATION && !c.messages.some((m) => m !== message && m.role === 'user'))
      c.title = titleFromMessage(text);
    // The model is asked at once, while the message is written; its answer is kept only once the
    // message is on disk (one group-committed sync), and the call returns then.
    c.status = 'generating';
    const saved = this.#book.durable(c);
    this.#generation.startTurn(c, saved);
    try {
      await saved;
    } catch (problem) {
      // Not on disk, so not acknowledged: the model is stopped, its answer dropped, the message taken back.
      this.#generation.abort(c.id);
      c.messages.splice(c.messages.indexOf(message), 1, ...removed);
      c.status = before;
      c.title = title;
      if (failedLoad) c.modelLoad = failedLoad;
      this.#book.commit(c);
      throw problem;
    }
    return this.get(c.id);
  }

  /** A connected server's prompts and resources. */
  sources(serverId: string): Promise<ServerSources> {
    return listSources(this.#sourceServer(serverId));
  }

  /**
   * Asks the model again after a failure (or past the tool-round limit, which starts a new count).
   * After tools too long for a model file's context, refused while those it offers still are by
   * themselves (see `toolsTooLong`): only fewer tools, or none, can change that. A model file whose
   * load failed (`modelLoad`) is loaded again, the model call (if one failed) waiting for it.
   */
  async retry(conversationId: string): Promise<Conversation> {
    const c = this.#book.find(conversationId);
    const reload = c.modelLoad?.state === 'failed';
    if (c.status !== 'failed' && !reload)
      throw new HostError(
        JsonRpcCode.InvalidRequest,
        'Only a conversation whose last model call failed can be retried.'
      );
    const failed = c.messages.at(-1);
    if (c.status === 'failed' && failed?.role === 'error' && failed.reason === 'tools-too-long') {
      // The same input would fail the same way: the model is not asked while the tools offered
      // cannot fit whatever the conversation holds (a count of tries would only say it was asked).
      // A model that does not load says so itself, at the call.
      const settings = this.#o.providers.get(c.providerId);
      const tooLong =
        settings &&
        (await toolsTooLong(this.#models, settings, () => this.#tools.offer(c), c.systemPrompt).catch(() => undefined));
      if (tooLong) throw new HostError(JsonRpcCode.InvalidParams, toolsStillTooLong(tooLong));
      // Retried or changed meanwhile (another window): this retry is no longer the one asked for.
      if (c.status !== 'failed' || c.messages.at(-1) !== failed)
        throw new HostError(JsonRpcCode.InvalidRequest, 'The conversation changed meanwhile: look at it again.');
    }
    if (reload) this.#loadModel(c, this.#provider(c.providerId));
    if (c.status !== 'failed') {
      await this.#book.durable(c);
      return this.get(c.id);
    }
    // Tried again: its failure, if it fails as before, says so (an identical card would not).
    const previous =
      failed?.role === 'error' ? { kind: failed.kind, reason: failed.reason, tries: failed.tries ?? 1 } : undefined;
    dropTrailingErrors(c);
    this.#generation.startTurn(c, undefined, previous);
    await this.#book.durable(c);
    return this.get(c.id);
  }

  /** Stops the answer streaming in and every tool call not yet ended (tasks get `tasks/cancel` where the server allows). */
  async stop(conversationId: string): Promise<Conversation> {
    const c = this.#book.find(conversationId);
    this.#generation.abort(c.id);
    await this.#tools.stopAll(c);
    if (c.status !== 'failed') c.status = 'idle';
    await this.#book.durable(c);
    return this.get(c.id);
  }

  /** The person's answer to a pending tool call; every decision goes to the audit log. */
  async decide(conversationId: string, toolCallId: string, decision: ToolDecision): Promise<Conversation> {
    const c = this.#book.find(conversationId);
    await this.#tools.decide(c, toolCallId, decision);
    await this.#book.durable(c);
    return this.get(c.id);
  }

  policyFor(serverId: string): AssistantToolPolicy {
    return this.#o.policies.get(serverId);
  }

  setPolicy(serverId: string, policy: AssistantToolPolicy): AssistantToolPolicy {
    const saved = this.#o.policies.set(serverId, policy);
    this.#o.audit.record({ type: 'assistant.policy-changed', serverId, detail: { ...saved } });
    return saved;
  }

  #sourceServer(serverId: string): SourceServer {
    const server = this.#o.sourceServer(serverId);
    if (!server) throw new HostError(JsonRpcCode.InvalidRequest, `Server ${serverId} is not connected.`);
    return server;
  }

  #assertNotBusy(c: Conversation): void {
    if (BUSY.has(c.status))
      throw new HostError(
        JsonRpcCode.InvalidRequest,
        `The conversation is busy (${c.status === 'tools' ? 'tool calls are waiting or running' : 'the model is answering'}): wait, or stop it first.`
      );
  }

  #provider(providerId: string): ProviderSettings {
    const settings = this.#o.providers.get(providerId);
    if (!settings)
      throw new HostError(
        JsonRpcCode.InvalidParams,
        `Unknown provider ${providerId}: add it under LLM providers first.`
      );
    return settings;
  }
}

function dropTrailingErrors(c: Conversation): void {
  while (c.messages.at(-1)?.role === 'error') c.messages.pop();
}

/** A conversation's title from its first message: the first line with words, cut at {@link FIRST_MESSAGE_TITLE_LENGTH}. */
export function titleFromMessage(text: string): string {
  const line = text
    .split('\n')
    .map((part) => part.trim().replace(/\s+/g, ' '))
    .find((part) => part !== '');
  if (!line) return UNTITLED_CONVERSATION;
  return line.length > FIRST_MESSAGE_TITLE_LENGTH
    ? `${line.slice(0, FIRST_MESSAGE_TITLE_LENGTH - 1).trimEnd()}…`
    : line;
}
