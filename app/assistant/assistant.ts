import { randomUUID } from 'node:crypto';
import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import type { AuditSink } from '../audit/audit-log.js';
import type {
  AssistantMethods,
  AssistantMessage,
  AssistantToolCall,
  AssistantToolPolicy,
  Conversation,
  ConversationSummary,
  ToolDecision
} from '../contract/assistant.js';
import type { OutboundTaskEvent, OutboundTaskView, RequestorTool } from '../contract/outbound-tasks.js';
import type { ProviderSettings } from '../contract/providers.js';
import type { Clock, TimerHandle } from '../core/clock.js';
import { HostError, JsonRpcCode, toErrorData } from '../core/errors.js';
import { ArgumentValidator, describeProblems } from '../requestor/argument-validator.js';
import type { CallToolOutcome } from '../contract/outbound-tasks.js';
import { createProviderClient } from '../sampling/provider-client.js';
import { streamModelCall, type ModelCallOutcome } from './model-call.js';
import { toChatMessages, toolResultForModel, type ToolResultForModel } from './chat-messages.js';
import type { ConversationStore, QuarantinedConversation } from './conversation-store.js';
import { functionNames } from './tool-names.js';
import type { AssistantToolPolicies } from './tool-policies.js';
import type { z } from 'zod';
import type OpenAI from 'openai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { MessageSource, ResolvedSource, ServerSources } from '../contract/assistant.js';
import { listSources, resolveSource } from './message-sources.js';
import { WriteQueue } from '../requestor/write-queue.js';

/** The requestor as the assistant uses it (the Tools screen's own path). */
export interface AssistantRequestor {
  listTools(serverId: string, options?: { refresh?: boolean }): Promise<RequestorTool[]>;
  callTool(
    serverId: string,
    name: string,
    args: Record<string, unknown>,
    options: { callId: string }
  ): Promise<CallToolOutcome>;
  get(outboundId: string): OutboundTaskView | undefined;
  cancel(outboundId: string): Promise<OutboundTaskView>;
  on(listener: (event: OutboundTaskEvent) => void): () => void;
  readonly plainCalls: { cancel(callId: string): boolean };
}

/** What the assistant is built from. */
export interface AssistantOptions {
  store: ConversationStore;
  policies: AssistantToolPolicies;
  requestor: AssistantRequestor;
  providers: {
    get(providerId: string): ProviderSettings | undefined;
    apiKey(providerId: string): Promise<string | undefined>;
  };
  audit: AuditSink;
  clock: Clock;
  fetch?: typeof fetch;
  events: {
    partial(update: { conversationId: string; messageId: string; text: string; done?: true }): void;
    changed(conversationId: string, conversation: Conversation | undefined): void;
    approval(conversationId: string, toolCall: AssistantToolCall): void;
  };
  /** The SDK client of a connected server, for its prompts and resources. */
  mcpClient(serverId: string): Client | undefined;
  /** Told when a conversation could not be written (it is kept in memory and written with the next change). */
  onStoreError(conversationId: string, error: unknown): void;
}

type CreateParams = z.output<(typeof AssistantMethods)['assistant.create']['params']>;
type UpdateParams = z.output<(typeof AssistantMethods)['assistant.update']['params']>;

/** A tool offered to the model in the current round. */
interface Offer {
  serverId: string;
  toolName: string;
  inputSchema: Record<string, unknown>;
}

/**
 * How long changes that acknowledge nothing to the person (statuses, tool calls, the model's
 * answer) wait to be written together: a turn changes its conversation several times a second,
 * and every write of it costs a synchronous fsync of the whole document.
 */
const WRITE_DELAY_MS = 250;

const BUSY = new Set(['generating', 'tools']);
const OPEN_CALL = new Set(['pending-approval', 'running', 'task']);

/**
 * The assistant: conversations with a configured LLM that may call the tools of chosen servers.
 *
 * The model's answer streams in (`partial`); its tool calls go through the requestor as the Tools
 * screen's do (validated, as a task where the server and tool allow it), each after the server's
 * policy (ask, auto, refuse) let it. A task's immediate response reaches the model at once; its
 * result, when it ends (after a restart too: the outbound id is kept in the conversation), is
 * added and the model goes on by itself. Electron-free: the window and browser mode share it.
 */
export class Assistant {
  readonly quarantined: QuarantinedConversation[];
  readonly #o: AssistantOptions;
  readonly #conversations = new Map<string, Conversation>();
  readonly #controllers = new Map<string, AbortController>();
  readonly #rounds = new Map<string, number>();
  /** A result arrived while the model was answering: it goes on once this answer ends. */
  readonly #again = new Set<string>();
  readonly #offers = new Map<string, Map<string, Offer>>();
  readonly #byOutbound = new Map<string, { conversationId: string; toolCallId: string }>();
  readonly #validator = new ArgumentValidator();
  readonly #off: () => void;
  readonly #writes: WriteQueue<PendingWrite>;
  readonly #pendingWrites = new Map<string, PendingWrite>();
  /** Changed conversations whose write waits for the next flush. */
  readonly #dirty = new Set<PendingWrite>();
  #flushTimer: TimerHandle | undefined;
  /** One client per provider settings and key: its connections are kept alive from one call to the next. */
  readonly #clients = new Map<string, OpenAI>();

  constructor(options: AssistantOptions) {
    this.#o = options;
    this.#writes = new WriteQueue<PendingWrite>({
      clock: options.clock,
      save: (item) => options.store.save(item.conversation),
      written: () => undefined,
      failed: (item, problem) => options.onStoreError(item.conversation.id, problem)
    });
    const loaded = options.store.loadAll();
    this.quarantined = loaded.quarantined;
    for (const conversation of loaded.conversations) this.#conversations.set(conversation.id, conversation);
    this.#off = options.requestor.on((event) => {
      if (event.type === 'changed') this.#taskChanged(event.task);
    });
  }

  /**
   * Picks up what a restart interrupted: an answer that was streaming fails (retry asks again),
   * a plain call in flight is reported to the model as interrupted, a task is followed on (the
   * requestor resumes it) and its result delivered when it comes.
   */
  resume(): void {
    for (const c of this.#conversations.values()) {
      let changed = false;
      for (const call of toolCalls(c)) {
        if (call.state === 'running') {
          this.#addResult(c, call, failure('Taskdesk was closed while this call ran; it may or may not have run.'));
          changed = true;
        } else if (call.state === 'task' && call.outboundId) {
          this.#byOutbound.set(call.outboundId, { conversationId: c.id, toolCallId: call.id });
          const task = this.#o.requestor.get(call.outboundId);
          if (!task) {
            this.#addResult(c, call, failure('The task of this call is no longer known to Taskdesk.'));
            changed = true;
          }
        }
      }
      if (c.status === 'generating') {
        this.#push(c, this.#error('interrupted', 'Taskdesk was closed while the model was answering.', true));
        c.status = 'failed';
        changed = true;
      }
      if (changed) this.#commit(c);
      for (const call of toolCalls(c)) {
        const task = call.state === 'task' && call.outboundId ? this.#o.requestor.get(call.outboundId) : undefined;
        if (task) this.#taskChanged(task);
      }
      if (c.status === 'tools') this.#maybeContinue(c);
    }
  }

  /** Stops every generation and writes what is pending; conversations waiting on tasks go on at the next start. */
  close(): void {
    this.#off();
    for (const controller of this.#controllers.values()) controller.abort();
    this.#flushDirty();
    this.#writes.flush(true);
  }

  list(query?: string): ConversationSummary[] {
    const needle = query?.trim().toLowerCase() ?? '';
    return [...this.#conversations.values()]
      .filter((c) => needle === '' || c.title.toLowerCase().includes(needle))
      .sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0))
      .map((c) => ({
        id: c.id,
        title: c.title,
        providerId: c.providerId,
        model: c.model,
        updatedAt: c.updatedAt,
        status: c.status,
        messageCount: c.messages.length,
        pendingApprovals: toolCalls(c).filter((call) => call.state === 'pending-approval').length
      }));
  }

  get(conversationId: string): Conversation {
    return structuredClone(this.#find(conversationId));
  }

  create(params: CreateParams): Conversation {
    this.#provider(params.providerId);
    const now = this.#now();
    const c: Conversation = {
      ...params,
      id: `c-${randomUUID()}`,
      createdAt: now,
      updatedAt: now,
      status: 'idle',
      messages: []
    };
    this.#conversations.set(c.id, c);
    this.#commit(c, { throwOnStoreError: true });
    return this.get(c.id);
  }

  update({ conversationId, systemPrompt, ...changes }: UpdateParams): Conversation {
    const c = this.#find(conversationId);
    if (changes.providerId !== undefined) this.#provider(changes.providerId);
    for (const [key, value] of Object.entries(changes)) if (value !== undefined) Object.assign(c, { [key]: value });
    if (systemPrompt === null) delete c.systemPrompt;
    else if (systemPrompt !== undefined) c.systemPrompt = systemPrompt;
    this.#commit(c, { throwOnStoreError: true });
    return this.get(c.id);
  }

  async delete(conversationId: string): Promise<void> {
    const c = this.#find(conversationId);
    await this.stop(c.id);
    const pending = this.#pendingWrites.get(c.id);
    if (pending) {
      this.#writes.delete(pending);
      this.#dirty.delete(pending);
    }
    this.#pendingWrites.delete(c.id);
    this.#o.store.remove(c.id);
    this.#conversations.delete(c.id);
    this.#o.events.changed(c.id, undefined);
  }

  /** Adds the person's message and starts the model; refused while the model or its tools are busy. */
  async send(conversationId: string, text: string, sources: readonly MessageSource[] = []): Promise<Conversation> {
    const c = this.#find(conversationId);
    this.#assertNotBusy(c);
    const resolved: ResolvedSource[] = [];
    for (const source of sources) resolved.push(await resolveSource(this.#client(source.serverId), source));
    // Fetching took a while: someone may have sent meanwhile.
    this.#assertNotBusy(c);
    if (c.status === 'failed') this.#dropTrailingErrors(c);
    this.#push(c, {
      id: randomUUID(),
      at: this.#now(),
      role: 'user',
      text,
      ...(resolved.length > 0 && { sources: resolved })
    });
    this.#rounds.set(c.id, 0);
    c.status = 'generating';
    // The person's message is on disk before the call returns.
    this.#commit(c, { throwOnStoreError: true });
    void this.#generate(c);
    return this.get(c.id);
  }

  /** A connected server's prompts and resources. */
  sources(serverId: string): Promise<ServerSources> {
    return listSources(this.#client(serverId));
  }

  #client(serverId: string): Client {
    const client = this.#o.mcpClient(serverId);
    if (!client) throw new HostError(JsonRpcCode.InvalidRequest, `Server ${serverId} is not connected.`);
    return client;
  }

  #assertNotBusy(c: Conversation): void {
    if (BUSY.has(c.status))
      throw new HostError(
        JsonRpcCode.InvalidRequest,
        `The conversation is busy (${c.status === 'tools' ? 'tool calls are waiting or running' : 'the model is answering'}): wait, or stop it first.`
      );
  }

  /** Asks the model again after a failure (or past the tool-round limit, which starts a new count). */
  retry(conversationId: string): Conversation {
    const c = this.#find(conversationId);
    if (c.status !== 'failed')
      throw new HostError(
        JsonRpcCode.InvalidRequest,
        'Only a conversation whose last model call failed can be retried.'
      );
    this.#dropTrailingErrors(c);
    this.#rounds.set(c.id, 0);
    this.#startGeneration(c);
    return this.get(c.id);
  }

  /** Stops the answer streaming in and every tool call not yet ended (tasks get `tasks/cancel` where the server allows). */
  async stop(conversationId: string): Promise<Conversation> {
    const c = this.#find(conversationId);
    this.#controllers.get(c.id)?.abort();
    this.#again.delete(c.id);
    const cancels: Array<Promise<void>> = [];
    for (const call of toolCalls(c)) {
      if (!OPEN_CALL.has(call.state)) continue;
      const was = call.state;
      const interim = call.interimSent === true;
      call.state = 'cancelled';
      if (was === 'running' && call.callId) this.#o.requestor.plainCalls.cancel(call.callId);
      if (was === 'task' && call.outboundId) {
        const outboundId = call.outboundId;
        cancels.push(
          this.#o.requestor.cancel(outboundId).then(
            () => this.#addStopped(c, call, interim, 'The person stopped this call; its task was cancelled.'),
            (problem: unknown) =>
              this.#addStopped(
                c,
                call,
                interim,
                `The person stopped this call; its task could not be cancelled (${toErrorData(problem).message}).`
              )
          )
        );
      } else {
        this.#addStopped(
          c,
          call,
          false,
          was === 'pending-approval' ? 'The person stopped this call before it ran.' : 'The person stopped this call.'
        );
      }
    }
    await Promise.all(cancels);
    if (c.status !== 'failed') c.status = 'idle';
    this.#commit(c);
    return this.get(c.id);
  }

  /** The person's answer to a pending tool call; every decision goes to the audit log. */
  async decide(conversationId: string, toolCallId: string, decision: ToolDecision): Promise<Conversation> {
    const c = this.#find(conversationId);
    const call = toolCalls(c).find((candidate) => candidate.id === toolCallId);
    if (!call || call.state !== 'pending-approval')
      throw new HostError(
        JsonRpcCode.InvalidParams,
        `No tool call ${toolCallId} waits for a decision in this conversation.`
      );
    const { serverId, toolName } = call as Required<AssistantToolCall>;
    const edited = decision.action === 'approve' && decision.arguments !== undefined;
    if (edited) {
      // The person's edit is checked here, so that a mistake is theirs to fix, not the model's.
      const schema = await this.#inputSchema(c.id, serverId, toolName);
      const problems = this.#validator.validate(schema, decision.arguments!);
      if (problems.length > 0)
        throw new HostError(
          JsonRpcCode.InvalidParams,
          `Invalid arguments for tool "${toolName}": ${describeProblems(problems)}`,
          {
            problems
          }
        );
      call.arguments = structuredClone(decision.arguments!);
    }
    this.#auditDecision(c, call, decision.action, {
      edited,
      ...(decision.action === 'deny' && decision.reason && { reason: decision.reason })
    });
    if (decision.action === 'deny') {
      call.state = 'denied';
      this.#addResult(
        c,
        call,
        {
          text: `The user denied this tool call${decision.reason ? `: ${decision.reason}` : '.'} It was not made.`,
          images: [],
          isError: true
        },
        'denied'
      );
      this.#commit(c);
      this.#maybeContinue(c);
      return this.get(c.id);
    }
    if (decision.action === 'always') {
      const policy = this.#o.policies.get(serverId);
      if (!policy.alwaysAllow.includes(toolName))
        this.setPolicy(serverId, { ...policy, alwaysAllow: [...policy.alwaysAllow, toolName] });
    }
    this.#run(c, call);
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

  #startGeneration(c: Conversation): void {
    c.status = 'generating';
    this.#commit(c);
    void this.#generate(c);
  }

  /** One model call, streamed; then its tool calls, or the end of the turn. */
  async #generate(c: Conversation): Promise<void> {
    const controller = new AbortController();
    this.#controllers.set(c.id, controller);
    const messageId = randomUUID();
    let outcome: ModelCallOutcome;
    try {
      const settings = this.#o.providers.get(c.providerId);
      if (!settings)
        throw new HostError(
          JsonRpcCode.InvalidParams,
          `The provider ${c.providerId} is no longer configured: choose another one.`
        );
      const apiKey = await this.#o.providers.apiKey(settings.id);
      const tools = await this.#offerTools(c);
      outcome = await streamModelCall({
        client: this.#providerClient(settings, apiKey),
        settings,
        apiKey,
        model: c.model,
        messages: toChatMessages(c),
        tools,
        signal: controller.signal,
        clock: this.#o.clock,
        onText: (text) => this.#o.events.partial({ conversationId: c.id, messageId, text })
      });
    } catch (problem) {
      outcome = controller.signal.aborted
        ? { type: 'stopped', text: '' }
        : { type: 'failed', kind: 'setup', message: toErrorData(problem).message, text: '' };
    }
    if (this.#controllers.get(c.id) === controller) this.#controllers.delete(c.id);
    this.#o.events.partial({ conversationId: c.id, messageId, text: outcome.text, done: true });
    if (outcome.type === 'stopped') {
      if (outcome.text !== '')
        this.#push(c, {
          id: messageId,
          at: this.#now(),
          role: 'assistant',
          text: outcome.text,
          toolCalls: [],
          stopped: true
        });
      this.#commit(c);
      return;
    }
    if (outcome.type === 'failed') {
      this.#push(c, this.#error(outcome.kind, outcome.message, true));
      c.status = 'failed';
      this.#commit(c);
      return;
    }
    const done = outcome;
    const calls: AssistantToolCall[] = done.toolCalls.map((call, index) => ({
      id: call.id || `call_${index}_${messageId.slice(0, 8)}`,
      functionName: call.name,
      rawArguments: call.arguments || '{}',
      state: 'pending-approval'
    }));
    const message: AssistantMessage = {
      id: messageId,
      at: this.#now(),
      role: 'assistant',
      text: done.text,
      toolCalls: calls
    };
    this.#push(c, message);
    if (calls.length === 0) {
      c.status = 'idle';
      this.#commit(c);
      if (this.#again.delete(c.id)) this.#maybeContinue(c);
      return;
    }
    const rounds = (this.#rounds.get(c.id) ?? 0) + 1;
    this.#rounds.set(c.id, rounds);
    if (rounds > c.maxToolRounds) {
      for (const call of calls)
        this.#addResult(
          c,
          call,
          failure(`Not run: the model reached the limit of ${c.maxToolRounds} tool rounds for one message.`),
          'denied'
        );
      this.#push(
        c,
        this.#error(
          'tool-limit',
          `The model kept calling tools (${c.maxToolRounds} rounds for this message) and was stopped. Raise the limit in the conversation's settings, then retry to let it go on.`,
          true
        )
      );
      c.status = 'failed';
      this.#commit(c);
      return;
    }
    c.status = 'tools';
    this.#commit(c);
    for (const call of calls) this.#admit(c, call);
    this.#maybeContinue(c);
  }

  /** The tools of the conversation's connected servers, as functions (a server that cannot list them is left out). */
  async #offerTools(c: Conversation): Promise<ChatCompletionTool[]> {
    const found: Array<{ serverId: string; tool: RequestorTool }> = [];
    for (const serverId of c.serverIds) {
      try {
        for (const tool of await this.#o.requestor.listTools(serverId, { refresh: false }))
          if (tool.callMode !== 'unavailable') found.push({ serverId, tool });
      } catch {
        // Not connected now: its tools are not offered this round.
      }
    }
    const named = functionNames(found.map(({ serverId, tool }) => ({ serverId, toolName: tool.name })));
    const offers = new Map<string, Offer>();
    const tools = named.map((name, index) => {
      const { tool } = found[index]!;
      offers.set(name.functionName, {
        serverId: name.serverId,
        toolName: name.toolName,
        inputSchema: tool.inputSchema
      });
      return {
        type: 'function' as const,
        function: {
          name: name.functionName,
          ...(tool.description !== undefined && { description: tool.description }),
          parameters: tool.inputSchema
        }
      };
    });
    this.#offers.set(c.id, offers);
    return tools;
  }

  /** A tool call the model made, through the server's policy. */
  #admit(c: Conversation, call: AssistantToolCall): void {
    const offer = this.#offers.get(c.id)?.get(call.functionName);
    if (!offer) {
      this.#addResult(c, call, failure(`There is no tool named "${call.functionName}".`), 'failed');
      return;
    }
    call.serverId = offer.serverId;
    call.toolName = offer.toolName;
    let args: unknown;
    try {
      args = JSON.parse(call.rawArguments);
    } catch {
      args = undefined;
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      this.#addResult(c, call, failure('The arguments were not a JSON object; the call was not made.'), 'failed');
      return;
    }
    call.arguments = args as Record<string, unknown>;
    const policy = this.#o.policies.get(offer.serverId);
    if (policy.mode === 'refuse') {
      this.#auditDecision(c, call, 'refused-by-policy', {});
      this.#addResult(
        c,
        call,
        {
          text: `The user's settings refuse tool calls to this server; "${offer.toolName}" was not called.`,
          images: [],
          isError: true
        },
        'denied'
      );
      return;
    }
    if (policy.mode === 'ask' && !policy.alwaysAllow.includes(offer.toolName)) {
      call.state = 'pending-approval';
      this.#commit(c);
      this.#o.events.approval(c.id, structuredClone(call));
      return;
    }
    this.#auditDecision(c, call, policy.mode === 'auto' ? 'auto' : 'always-allowed', {});
    this.#run(c, call);
  }

  /** Calls the tool through the requestor; a task is followed by its outbound id. */
  #run(c: Conversation, call: AssistantToolCall): void {
    call.state = 'running';
    call.callId = `as-${randomUUID()}`;
    this.#commit(c);
    this.#o.requestor.callTool(call.serverId!, call.toolName!, call.arguments ?? {}, { callId: call.callId }).then(
      (outcome) => {
        if (call.state !== 'running') return; // stopped meanwhile
        if (outcome.type === 'result') {
          this.#addResult(c, call, toolResultForModel(outcome.result));
          this.#commit(c);
          this.#maybeContinue(c);
          return;
        }
        const task = outcome.task;
        call.state = 'task';
        call.outboundId = task.outboundId;
        this.#byOutbound.set(task.outboundId, { conversationId: c.id, toolCallId: call.id });
        if (task.immediateResponse !== undefined) {
          call.interimSent = true;
          this.#push(c, {
            id: randomUUID(),
            at: this.#now(),
            role: 'tool',
            toolCallId: call.id,
            text: task.immediateResponse,
            interim: true
          });
        }
        this.#commit(c);
        this.#taskChanged(this.#o.requestor.get(task.outboundId) ?? task);
        if (call.state === 'task') this.#maybeContinue(c);
      },
      (problem: unknown) => {
        if (call.state !== 'running') return;
        this.#addResult(c, call, failure(`The tool call failed: ${toErrorData(problem).message}`), 'failed');
        this.#commit(c);
        this.#maybeContinue(c);
      }
    );
  }

  /** An outbound task changed: when it has ended, its result goes to its conversation. */
  #taskChanged(task: OutboundTaskView): void {
    const owner = this.#byOutbound.get(task.outboundId);
    if (!owner) return;
    const c = this.#conversations.get(owner.conversationId);
    const call = c && toolCalls(c).find((candidate) => candidate.id === owner.toolCallId);
    if (!c || !call || call.state !== 'task') {
      this.#byOutbound.delete(task.outboundId);
      return;
    }
    let result: ToolResultForModel | undefined;
    if (task.outcome?.type === 'result') result = toolResultForModel(task.outcome.result);
    else if (task.outcome?.type === 'error') result = failure(`The task failed: ${task.outcome.error.message}`);
    else if (task.state === 'cancelled' || task.state === 'expired' || task.state === 'lost')
      result = failure(`The task ended without a result (${task.state}${task.reason ? `: ${task.reason}` : ''}).`);
    if (!result) return;
    this.#byOutbound.delete(task.outboundId);
    this.#addResult(c, call, result);
    this.#commit(c);
    this.#maybeContinue(c);
  }

  /** The model goes on once no call of its last answer is still open (a call answered by an interim result counts as answered). */
  #maybeContinue(c: Conversation): void {
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
        this.#commit(c);
      }
      return;
    }
    const last = c.messages.at(-1);
    const waiting = last && (last.role === 'tool' || last.role === 'notice');
    if (waiting) this.#startGeneration(c);
    else if (c.status !== 'idle') {
      c.status = 'idle';
      this.#commit(c);
    }
  }

  /** A call's result as the model reads it: a `tool` message, or a notice when an interim result already answered the call. */
  #addResult(
    c: Conversation,
    call: AssistantToolCall,
    result: ToolResultForModel,
    state?: AssistantToolCall['state']
  ): void {
    call.state = state ?? (result.isError ? 'failed' : 'completed');
    const images = {
      ...(result.images.length > 0 && { images: result.images }),
      ...(result.raw !== undefined && { result: result.raw })
    };
    if (call.interimSent) {
      this.#push(c, {
        id: randomUUID(),
        at: this.#now(),
        role: 'notice',
        toolCallId: call.id,
        text: `The task started by tool call ${call.id} (${call.toolName ?? call.functionName}) has ended. Its result:\n${result.text}`,
        ...images
      });
      return;
    }
    this.#push(c, {
      id: randomUUID(),
      at: this.#now(),
      role: 'tool',
      toolCallId: call.id,
      text: result.text,
      ...(result.isError && { isError: true }),
      ...images
    });
  }

  #addStopped(c: Conversation, call: AssistantToolCall, interim: boolean, text: string): void {
    if (interim) this.#push(c, { id: randomUUID(), at: this.#now(), role: 'notice', toolCallId: call.id, text });
    else this.#push(c, { id: randomUUID(), at: this.#now(), role: 'tool', toolCallId: call.id, text, isError: true });
  }

  async #inputSchema(conversationId: string, serverId: string, toolName: string): Promise<Record<string, unknown>> {
    for (const offer of this.#offers.get(conversationId)?.values() ?? [])
      if (offer.serverId === serverId && offer.toolName === toolName) return offer.inputSchema;
    const tool = (await this.#o.requestor.listTools(serverId, { refresh: false })).find((t) => t.name === toolName);
    if (!tool) throw new HostError(JsonRpcCode.InvalidParams, `Server ${serverId} has no tool "${toolName}" now.`);
    return tool.inputSchema;
  }

  #auditDecision(c: Conversation, call: AssistantToolCall, decision: string, extra: Record<string, unknown>): void {
    this.#o.audit.record({
      type: 'assistant.tool-decision',
      ...(call.serverId !== undefined && { serverId: call.serverId }),
      detail: {
        conversationId: c.id,
        toolCallId: call.id,
        tool: call.toolName,
        decision,
        arguments: call.arguments,
        ...extra
      }
    });
  }

  #dropTrailingErrors(c: Conversation): void {
    while (c.messages.at(-1)?.role === 'error') c.messages.pop();
  }

  #push(c: Conversation, message: AssistantMessage): void {
    c.messages.push(message);
  }

  /**
   * Announces a conversation and saves it: at once when the caller acknowledges something to the
   * person (a new conversation, their message, settings; a failure then throws), else within
   * `WRITE_DELAY_MS` with every other change of that time (each write is a synchronous fsync'd
   * file: fifty conversations streaming at once would queue behind the disk). Closing writes what
   * waits; a queued write that fails is reported and tried again.
   */
  #commit(c: Conversation, options: { throwOnStoreError?: boolean } = {}): void {
    c.updatedAt = this.#now();
    let pending = this.#pendingWrites.get(c.id);
    if (!pending) this.#pendingWrites.set(c.id, (pending = { settling: false, conversation: c }));
    if (options.throwOnStoreError) {
      this.#writes.delete(pending);
      this.#dirty.delete(pending);
      this.#o.store.save(c);
    } else {
      this.#dirty.add(pending);
      this.#flushTimer ??= this.#o.clock.setTimeout(() => this.#flushDirty(), WRITE_DELAY_MS);
    }
    this.#o.events.changed(c.id, structuredClone(c));
  }

  #flushDirty(): void {
    if (this.#flushTimer !== undefined) this.#o.clock.clearTimeout(this.#flushTimer);
    this.#flushTimer = undefined;
    for (const pending of this.#dirty) this.#writes.mark(pending);
    this.#dirty.clear();
  }

  #providerClient(settings: ProviderSettings, apiKey: string | undefined): OpenAI {
    const key = JSON.stringify([settings.id, settings.baseURL, apiKey ?? null]);
    let client = this.#clients.get(key);
    if (!client) {
      if (this.#clients.size > 20) this.#clients.clear();
      client = createProviderClient(settings, apiKey, { ...(this.#o.fetch && { fetch: this.#o.fetch }) });
      this.#clients.set(key, client);
    }
    return client;
  }

  #find(conversationId: string): Conversation {
    const c = this.#conversations.get(conversationId);
    if (!c) throw new HostError(JsonRpcCode.InvalidParams, `Unknown conversation ${conversationId}`);
    return c;
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

  #error(kind: string, message: string, retryable: boolean): AssistantMessage {
    return { id: randomUUID(), at: this.#now(), role: 'error', kind, message, retryable };
  }

  #now(): string {
    return new Date(this.#o.clock.now()).toISOString();
  }
}

/** A conversation waiting to be written (the write queue's item). */
interface PendingWrite {
  readonly settling: false;
  readonly conversation: Conversation;
}

function toolCalls(c: Conversation): AssistantToolCall[] {
  return c.messages.flatMap((message) => (message.role === 'assistant' ? message.toolCalls : []));
}

function failure(text: string): ToolResultForModel {
  return { text, images: [], isError: true };
}
