import { randomUUID } from 'node:crypto';
import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import type { AuditSink } from '../audit/audit-log.js';
import type { AssistantToolCall, Conversation, ToolDecision } from '../contract/assistant.js';
import type {
  CallToolOutcome,
  OutboundTaskEvent,
  OutboundTaskView,
  RequestorTool
} from '../contract/outbound-tasks.js';
import { HostError, JsonRpcCode, toErrorData } from '../core/errors.js';
import { ArgumentValidator, describeProblems } from '../requestor/argument-validator.js';
import { STOPPED_WHILE_RUNNING, TaskdeskCancelled } from '../requestor/plain-calls.js';
import { thrownCallDetail } from '../audit/tool-call-entry.js';
import type { InputExchanges } from '../requestor/input-exchanges.js';
import type { InputExchangeView } from '../contract/input-exchanges.js';
import { auditArguments } from './audit-arguments.js';
import { toolResultForModel, type ToolResultForModel } from './chat-messages.js';
import { failure, toolCalls, type ConversationBook } from './conversation-book.js';
import { addStoppedResult, addToolResult, endedWithoutResult } from './tool-results.js';
import { functionNames } from './tool-names.js';
import type { AssistantToolPolicies } from './tool-policies.js';

/** The requestor as the assistant uses it (the Tools screen's own path). */
export interface AssistantRequestor {
  listTools(serverId: string, options?: { refresh?: boolean }): Promise<RequestorTool[]>;
  callTool(
    serverId: string,
    name: string,
    args: Record<string, unknown>,
    options: {
      callId: string;
      origin?: { kind: 'assistant'; conversationId: string; callId?: string };
      onExchange?: (exchangeId: string) => void;
    }
  ): Promise<CallToolOutcome>;
  /** Requests whose server asked for input first, kept through a restart (see `InputExchanges`). */
  readonly exchanges?: Pick<InputExchanges, 'get' | 'cancel' | 'forget'> | undefined;
  onExchangeChanged(listener: (exchangeId: string, view: InputExchangeView | undefined) => void): () => void;
  get(outboundId: string): OutboundTaskView | undefined;
  cancel(outboundId: string): Promise<OutboundTaskView>;
  on(listener: (event: OutboundTaskEvent) => void): () => void;
  readonly plainCalls: { cancel(callId: string): boolean };
  /** `prompts/get` and `resources/read` in the server's era (a multi round-trip request to a 2026-07-28 server). */
  getPrompt(serverId: string, name: string, args?: Record<string, string>): Promise<Record<string, unknown>>;
  readResource(serverId: string, uri: string): Promise<Record<string, unknown>>;
}

/** A tool offered to the model in the current round. */
interface Offer {
  serverId: string;
  toolName: string;
  inputSchema: Record<string, unknown>;
}

/** Tool-call states whose call has not ended. */
const OPEN_CALL = new Set(['pending-approval', 'running', 'task']);

/**
 * Whether a plain call ended by `tools.cancelCall` (the person's Cancel): the requestor rejects it
 * with its abort reason, a {@link TaskdeskCancelled} by `you`. Taskdesk's closing cancels with
 * the same code, and a server may answer −32800 of its own: neither is the person's doing.
 */
function cancelledByPerson(problem: unknown): boolean {
  return problem instanceof TaskdeskCancelled && problem.by === 'you';
}

/** Options of {@link ToolRounds}. */
export interface ToolRoundsOptions {
  book: ConversationBook;
  requestor: AssistantRequestor;
  policies: AssistantToolPolicies;
  audit: AuditSink;
  /** Approval is asked for a tool call. */
  approval(conversationId: string, call: AssistantToolCall): void;
  /** A call of the conversation ended (or was admitted): the model may go on. */
  settled(c: Conversation): void;
  /** A server's tool-call policy changed (the "always" decision). */
  setPolicy(serverId: string, policy: ReturnType<AssistantToolPolicies['get']>): void;
  /** The server's name as the person gave it, for the audit log (undefined when not known now). */
  serverName?(serverId: string): string | undefined;
}

/**
 * The model's tool calls: the tools offered as functions, each call through its server's
 * policy and the requestor, a task followed by its outbound id until its result is in the
 * conversation, and every decision in the audit log (arguments redacted and cut).
 */
export class ToolRounds {
  readonly #o: ToolRoundsOptions;
  readonly #offers = new Map<string, Map<string, Offer>>();
  readonly #byOutbound = new Map<string, { conversationId: string; toolCallId: string }>();
  /** Running calls whose exchange outlived a restart, by exchange id: its outcome is delivered when it ends. */
  readonly #byExchange = new Map<string, { conversationId: string; toolCallId: string }>();
  readonly #validator = new ArgumentValidator();
  readonly #serverNames = new Map<string, string>();

  constructor(options: ToolRoundsOptions) {
    this.#o = options;
  }

  /**
   * The tools of the conversation's connected servers, as functions (a server that cannot list
   * them is left out); of a server the person chose tools of (`toolsOffered`), those only.
   */
  async offer(c: Conversation): Promise<ChatCompletionTool[]> {
    const found: Array<{ serverId: string; tool: RequestorTool }> = [];
    for (const serverId of c.serverIds) {
      const only = c.toolsOffered?.[serverId];
      try {
        for (const tool of await this.#o.requestor.listTools(serverId, { refresh: false }))
          if (tool.callMode !== 'unavailable' && (only === undefined || only.includes(tool.name)))
            found.push({ serverId, tool });
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
  admit(c: Conversation, call: AssistantToolCall): void {
    const offer = this.#offers.get(c.id)?.get(call.functionName);
    if (!offer) {
      this.addResult(c, call, failure(`There is no tool named "${call.functionName}".`), 'failed');
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
      this.addResult(c, call, failure('The arguments were not a JSON object; the call was not made.'), 'failed');
      return;
    }
    call.arguments = args as Record<string, unknown>;
    const policy = this.#o.policies.get(offer.serverId);
    if (policy.mode === 'refuse') {
      this.#audit(c, call, 'refused-by-policy', {});
      this.addResult(
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
    // Checked as the requestor would check them once approved: a call that cannot be made is
    // not offered to the person, and the model reads why at once, in the requestor's words.
    const invalid = this.#invalidArguments(offer.toolName, offer.inputSchema, call.arguments);
    if (invalid) {
      this.#audit(c, call, 'invalid-arguments', { error: invalid.message });
      this.addResult(c, call, failure(`${invalid.message}. The call was not made.`), 'denied');
      return;
    }
    if (policy.mode === 'ask' && !policy.alwaysAllow.includes(offer.toolName)) {
      call.state = 'pending-approval';
      this.#o.book.commit(c);
      this.#o.approval(c.id, structuredClone(call));
      return;
    }
    this.#audit(c, call, policy.mode === 'auto' ? 'auto' : 'always-allowed', {});
    this.#run(c, call);
  }

  /** The person's answer to a pending call (edited arguments are checked against the tool's schema first). */
  async decide(c: Conversation, toolCallId: string, decision: ToolDecision): Promise<void> {
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
      const invalid = this.#invalidArguments(toolName, schema, decision.arguments!);
      if (invalid) throw invalid;
      // Checked while the schema was fetched: someone may have decided meanwhile.
      if (call.state !== 'pending-approval')
        throw new HostError(
          JsonRpcCode.InvalidParams,
          `No tool call ${toolCallId} waits for a decision in this conversation.`
        );
      call.arguments = structuredClone(decision.arguments!);
      call.edited = true;
    }
    this.#audit(c, call, decision.action, {
      edited,
      ...(decision.action === 'deny' && decision.reason && { reason: decision.reason })
    });
    if (decision.action === 'deny') {
      this.addResult(
        c,
        call,
        {
          text: `The user denied this tool call${decision.reason ? ` (their reason: ${decision.reason})` : ''}. It was not made.`,
          images: [],
          isError: true
        },
        'denied'
      );
      this.#o.book.commit(c);
      this.#o.settled(c);
      return;
    }
    if (decision.action === 'always') {
      const policy = this.#o.policies.get(serverId);
      if (!policy.alwaysAllow.includes(toolName))
        this.#o.setPolicy(serverId, { ...policy, alwaysAllow: [...policy.alwaysAllow, toolName] });
    }
    this.#run(c, call);
  }

  /** Stops every call of the conversation not yet ended (tasks get `tasks/cancel`); resolves once each is answered. */
  async stopAll(c: Conversation): Promise<void> {
    const cancels: Array<Promise<void>> = [];
    for (const call of toolCalls(c)) {
      if (!OPEN_CALL.has(call.state)) continue;
      const was = call.state;
      const interim = call.interimSent === true;
      call.state = 'cancelled';
      const exchangeId = call.exchangeId;
      delete call.exchangeId;
      if (was === 'running') {
        if (call.callId && !this.#o.requestor.plainCalls.cancel(call.callId)) {
          // Not a call of this run: a restart left it waiting on its exchange, which ends here.
          if (exchangeId !== undefined) this.#cancelExchange(exchangeId);
        }
        // Its own end is not heard (the call is no longer running for it): Stop's is said here.
        this.#audited(c, call, { outcome: 'cancelled', cancelledBy: 'you' });
      }
      if (was === 'task' && call.outboundId) {
        const outboundId = call.outboundId;
        cancels.push(
          this.#o.requestor.cancel(outboundId).then(
            () => this.#addStopped(c, call, interim, 'The person stopped this call; its task was cancelled.'),
            (problem: unknown) => {
              // Its task runs on: the Desk follows it as running, not as being cancelled.
              call.cancelFailed = true;
              this.#addStopped(
                c,
                call,
                interim,
                `The person stopped this call; its task could not be cancelled (${toErrorData(problem).message}).`
              );
            }
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
  }

  /**
   * After a restart: a plain call that was in flight is reported interrupted, a task is followed
   * again (the requestor resumed it). Says whether the conversation changed.
   */
  resume(c: Conversation): boolean {
    let changed = false;
    for (const call of toolCalls(c)) {
      if (call.state === 'running') {
        // Its server asked for input first: the stored exchange goes on, and its outcome comes here.
        if (call.exchangeId !== undefined && this.#o.requestor.exchanges?.get(call.exchangeId)) {
          this.#byExchange.set(call.exchangeId, { conversationId: c.id, toolCallId: call.id });
          continue;
        }
        // Its end was not recorded as Taskdesk closed (see `#run`): it is here, as the Tools screen's says it.
        this.#audited(c, call, { outcome: 'cancelled', cancelledBy: 'taskdesk', reason: STOPPED_WHILE_RUNNING });
        this.addResult(c, call, failure('Taskdesk was closed while this call ran; it may or may not have run.'));
        changed = true;
      } else if (call.state === 'task' && call.outboundId) {
        this.#byOutbound.set(call.outboundId, { conversationId: c.id, toolCallId: call.id });
        if (!this.#o.requestor.get(call.outboundId)) {
          this.addResult(c, call, failure('The task of this call is no longer known to Taskdesk.'));
          changed = true;
        }
      }
    }
    return changed;
  }

  /** Tasks and exchanges of the conversation that ended while nobody followed them deliver their results now. */
  catchUp(c: Conversation): void {
    for (const call of toolCalls(c)) {
      if (call.state === 'running' && call.exchangeId !== undefined && this.#byExchange.has(call.exchangeId)) {
        const exchange = this.#o.requestor.exchanges?.get(call.exchangeId);
        this.exchangeChanged(call.exchangeId, exchange);
        continue;
      }
      const task = call.state === 'task' && call.outboundId ? this.#o.requestor.get(call.outboundId) : undefined;
      if (task) this.taskChanged(task);
    }
  }

  /** An outbound task changed: when it has ended, its result goes to its conversation. */
  taskChanged(task: OutboundTaskView): void {
    const owner = this.#byOutbound.get(task.outboundId);
    if (!owner) return;
    const c = this.#o.book.lookup(owner.conversationId);
    const call = c && toolCalls(c).find((candidate) => candidate.id === owner.toolCallId);
    if (!c || !call || call.state !== 'task') {
      this.#byOutbound.delete(task.outboundId);
      return;
    }
    let result: ToolResultForModel | undefined;
    // Cancelled by the person (its card's Cancel task): the call shows as stopped, as after Stop.
    const state = task.state === 'cancelled' && task.cancelledBy === 'you' ? 'cancelled' : undefined;
    // A cancelled task has no result: what its server answers to tasks/result (an error) is not
    // why it ended, so its state is said first.
    if (task.state === 'cancelled') result = failure(endedWithoutResult(task));
    else if (task.outcome?.type === 'result') result = toolResultForModel(task.outcome.result);
    else if (task.outcome?.type === 'error') result = failure(`The task failed: ${task.outcome.error.message}`);
    else if (task.state === 'expired' || task.state === 'lost') result = failure(endedWithoutResult(task));
    if (!result) return;
    this.#byOutbound.delete(task.outboundId);
    this.addResult(c, call, result, state);
    this.#o.book.commit(c);
    this.#o.settled(c);
  }

  /**
   * An exchange changed: when it is one a restart left a running call waiting on and it has
   * ended, its outcome goes to that call (a task it became is followed from here on) and the
   * exchange, delivered, is forgotten.
   */
  exchangeChanged(exchangeId: string, view: InputExchangeView | undefined): void {
    const owner = this.#byExchange.get(exchangeId);
    if (!owner) return;
    const ended = view === undefined || ['completed', 'failed', 'cancelled'].includes(view.state);
    if (!ended) return;
    this.#byExchange.delete(exchangeId);
    const c = this.#o.book.lookup(owner.conversationId);
    const call = c && toolCalls(c).find((candidate) => candidate.id === owner.toolCallId);
    // Stopped meanwhile (Stop cancelled the exchange): what it says was said then.
    if (!c || !call || call.state !== 'running' || call.exchangeId !== exchangeId) {
      if (view !== undefined) this.#forgetExchange(exchangeId);
      return;
    }
    delete call.exchangeId;
    const outcome = view?.outcome;
    if (outcome?.type === 'task') {
      this.#audited(
        c,
        call,
        { outcome: 'task', outboundId: outcome.outboundId },
        this.#o.requestor.get(outcome.outboundId)?.taskId
      );
      call.state = 'task';
      call.outboundId = outcome.outboundId;
      this.#byOutbound.set(outcome.outboundId, { conversationId: c.id, toolCallId: call.id });
    } else if (outcome?.type === 'result') {
      this.#audited(c, call, { outcome: outcome.result.isError === true ? 'tool-error' : 'result' });
      this.addResult(c, call, toolResultForModel(outcome.result));
    } else if (view?.state === 'cancelled') {
      // Its Cancel on the Desk (`exchanges.cancel`), which records nothing of its own.
      this.#audited(c, call, { outcome: 'cancelled', cancelledBy: 'you' });
      call.state = 'cancelled';
      this.#addStopped(c, call, false, 'The person stopped this call.');
    } else {
      const why =
        outcome?.type === 'error'
          ? outcome.error.message
          : 'its request, which waited for an answer, is no longer known to Taskdesk';
      this.#audited(c, call, { outcome: 'error', error: why });
      this.addResult(c, call, failure(`The tool call failed: ${why}`), 'failed');
    }
    // The exchange is forgotten once what it delivered is on disk: a crash before that finds it
    // again at the next start, and delivers it then.
    this.#o.book.durable(c).then(
      () => {
        if (view !== undefined) this.#forgetExchange(exchangeId);
      },
      // The disk refused it: kept in memory and written with the next change; the exchange stays.
      () => this.#o.book.commit(c)
    );
    if (outcome?.type === 'task') {
      const task = this.#o.requestor.get(outcome.outboundId);
      if (task) this.taskChanged(task);
      if (call.state === 'task') this.#o.settled(c);
      return;
    }
    this.#o.settled(c);
  }

  #forgetExchange(exchangeId: string): void {
    try {
      this.#o.requestor.exchanges?.forget(exchangeId);
    } catch {
      // Already gone (the person forgot it on the Desk): nothing left to tidy.
    }
  }

  /** A call's result as the model reads it (see {@link addToolResult}). */
  addResult(
    c: Conversation,
    call: AssistantToolCall,
    result: ToolResultForModel,
    state?: AssistantToolCall['state']
  ): void {
    addToolResult(this.#o.book, c, call, result, state);
  }

  /** Calls the tool through the requestor; a task is followed by its outbound id. */
  #run(c: Conversation, call: AssistantToolCall): void {
    const book = this.#o.book;
    call.state = 'running';
    call.callId = `as-${randomUUID()}`;
    this.#serverName(call.serverId!);
    book.commit(c);
    const options = {
      callId: call.callId,
      origin: { kind: 'assistant' as const, conversationId: c.id, callId: call.callId },
      // Kept with the call: after a restart the stored exchange's outcome still comes to it.
      onExchange: (exchangeId: string) => {
        if (call.state !== 'running') return;
        call.exchangeId = exchangeId;
        book.commit(c);
      }
    };
    this.#o.requestor.callTool(call.serverId!, call.toolName!, call.arguments ?? {}, options).then(
      (outcome) => {
        if (call.state !== 'running') return; // stopped meanwhile
        delete call.exchangeId;
        if (outcome.type === 'result') {
          this.#audited(c, call, { outcome: outcome.result.isError === true ? 'tool-error' : 'result' });
          this.addResult(c, call, toolResultForModel(outcome.result));
          book.commit(c);
          this.#o.settled(c);
          return;
        }
        const task = outcome.task;
        this.#audited(c, call, { outcome: 'task', outboundId: task.outboundId }, task.taskId);
        call.state = 'task';
        call.outboundId = task.outboundId;
        this.#byOutbound.set(task.outboundId, { conversationId: c.id, toolCallId: call.id });
        if (task.immediateResponse !== undefined) {
          call.interimSent = true;
          book.push(c, {
            id: randomUUID(),
            at: book.now(),
            role: 'tool',
            toolCallId: call.id,
            text: task.immediateResponse,
            interim: true
          });
        }
        book.commit(c);
        this.taskChanged(this.#o.requestor.get(task.outboundId) ?? task);
        if (call.state === 'task') this.#o.settled(c);
      },
      (problem: unknown) => {
        if (call.state !== 'running') return;
        delete call.exchangeId;
        if (cancelledByPerson(problem)) {
          // Its Cancel (on its card, or on the Tools screen, which lists it too): the model reads
          // what it reads of a call stopped by Stop, and goes on. The Cancel's own audit entry
          // (`tool.call-cancelled`) says how it ended.
          call.state = 'cancelled';
          this.#addStopped(c, call, false, 'The person stopped this call.');
          book.commit(c);
          this.#o.settled(c);
          return;
        }
        // Taskdesk's closing: the conversation is closed already, so the next start finds the call
        // running and says how it ended (interrupted, or its stored exchange goes on), once.
        if (!(problem instanceof TaskdeskCancelled && problem.by === 'taskdesk'))
          this.#audited(c, call, thrownCallDetail(problem));
        this.addResult(c, call, failure(`The tool call failed: ${toErrorData(problem).message}`), 'failed');
        book.commit(c);
        this.#o.settled(c);
      }
    );
  }

  #cancelExchange(exchangeId: string): void {
    try {
      this.#o.requestor.exchanges?.cancel(exchangeId);
    } catch {
      // Ended meanwhile: its end is ignored, as the call was stopped.
    }
  }

  #addStopped(c: Conversation, call: AssistantToolCall, interim: boolean, text: string): void {
    addStoppedResult(this.#o.book, c, call, interim, text);
  }

  /**
   * Why `args` cannot be sent to the tool, as the requestor says it before a call (the same
   * validator and words), or `undefined` when they fit its input schema.
   */
  #invalidArguments(
    toolName: string,
    inputSchema: Record<string, unknown>,
    args: Record<string, unknown>
  ): HostError | undefined {
    const problems = this.#validator.validate(inputSchema, args);
    if (problems.length === 0) return undefined;
    return new HostError(
      JsonRpcCode.InvalidParams,
      `Invalid arguments for tool "${toolName}": ${describeProblems(problems)}`,
      { problems }
    );
  }

  async #inputSchema(conversationId: string, serverId: string, toolName: string): Promise<Record<string, unknown>> {
    for (const offer of this.#offers.get(conversationId)?.values() ?? [])
      if (offer.serverId === serverId && offer.toolName === toolName) return offer.inputSchema;
    const tool = (await this.#o.requestor.listTools(serverId, { refresh: false })).find((t) => t.name === toolName);
    if (!tool) throw new HostError(JsonRpcCode.InvalidParams, `Server ${serverId} has no tool "${toolName}" now.`);
    return tool.inputSchema;
  }

  /**
   * How a call the requestor made for the assistant ended, as the Tools screen's calls record it
   * (`tool.call-ended`); the decision entry before it says who let it run.
   */
  #audited(c: Conversation, call: AssistantToolCall, detail: Record<string, unknown>, taskId?: string): void {
    const serverName = call.serverId === undefined ? undefined : this.#serverName(call.serverId);
    this.#o.audit.record({
      type: 'tool.call-ended',
      ...(call.serverId !== undefined && { serverId: call.serverId }),
      ...(serverName !== undefined && { serverName }),
      ...(taskId !== undefined && { taskId }),
      detail: {
        tool: call.toolName,
        ...detail,
        ...(call.callId !== undefined && { callId: call.callId }),
        conversationId: c.id,
        toolCallId: call.id
      }
    });
  }

  #audit(c: Conversation, call: AssistantToolCall, decision: string, extra: Record<string, unknown>): void {
    this.#o.audit.record({
      type: 'assistant.tool-decision',
      ...(call.serverId !== undefined && { serverId: call.serverId }),
      detail: {
        conversationId: c.id,
        toolCallId: call.id,
        tool: call.toolName,
        decision,
        arguments: auditArguments(call.arguments),
        ...extra
      }
    });
  }

  /** The server's name now, else the last one seen (a server may be gone or not connected yet as a call ends). */
  #serverName(serverId: string): string | undefined {
    const name = this.#o.serverName?.(serverId);
    if (name !== undefined) this.#serverNames.set(serverId, name);
    return name ?? this.#serverNames.get(serverId);
  }

  forget(conversationId: string): void {
    this.#offers.delete(conversationId);
  }
}
