import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  ListTasksResultSchema,
  type Progress,
  type Tool
} from '@modelcontextprotocol/sdk/types.js';
import type { AuditSink } from '../audit/audit-log.js';
import { systemClock, type Clock } from '../core/clock.js';
import { HostError, JsonRpcCode } from '../core/errors.js';
import type { DocumentDir, LoadedDocument } from '../store/document-dir.js';
import { ArgumentValidator, describeProblems } from './argument-validator.js';
import {
  ServerTaskSchema,
  type CallToolOutcome,
  type OutboundTaskEvent,
  type OutboundTaskView,
  type RequestorTool,
  type ServerTaskPage
} from '../contract/outbound-tasks.js';
import { acceptsTaskCalls, AttachmentRegistry, type Attachment, type AttachOptions } from './attachments.js';
import { eraOfOutbound } from './outbound-era.js';
import { nextOutboundState } from './outbound-task-state.js';
import { OutboundTaskStore } from './outbound-task-store.js';
import { DEFAULT_POLL_POLICY, type PollPolicy } from './poll-policy.js';
import { TaskFollower } from './task-follower.js';
import { pickTask, type FollowerEnvironment, type OutboundFollower } from './task-follower-base.js';
import { ModernTaskFollower } from './modern-task-follower.js';
import { toHostError } from './task-rpc.js';
import { ToolCache } from './tool-cache.js';
import { PlainCalls } from './plain-calls.js';
import type { CallOrigin, PlainCallView } from '../contract/plain-calls.js';
import {
  adoptLegacyTask,
  adoptModernTask,
  cancelLateExchangeTask,
  callLegacyPlain,
  callLegacyTask,
  callModern,
  type ToolCallContext
} from './tool-call-dispatch.js';
import { InputExchanges } from './input-exchanges.js';
import { legacyExchangePeer } from './legacy-exchange-peer.js';
import type { ExchangeOutcome, InputExchangeView } from '../contract/input-exchanges.js';
import { DEFAULT_TASK_TTL_MS } from '../contract/requestor-defaults.js';
import type { InputRequest } from './modern-task-follower.js';
import { decideCall, decideRetry, taskSupportOf, toolCallMode } from './tool-call-mode.js';
import { WriteQueue } from './write-queue.js';
import { TaskTimers } from './task-timers.js';
import { copyView } from './view-copy.js';
import { checkResultType } from './result-type.js';
import { ForgottenTasks } from './forgotten-tasks.js';
import { RefusedForSignIn, sendAgainAfterSignIn, type SignInWait } from './sign-in-refusal.js';

export type { AttachOptions } from './attachments.js';

/** A tool call that ended without becoming a task (see `OutboundTasksOptions.onCallEnded`). */
export interface EndedCall {
  call: PlainCallView;
  arguments: Record<string, unknown>;
  /** The server's answer when the call completed. */
  result?: Record<string, unknown>;
  /** Set when Taskdesk's closing cancelled the call while it ran (its error says so in words). */
  cancelledBy?: 'taskdesk';
}

/** The tasks a server started anew no longer had, as the first polls over its connection found (see `onLostToRestart`). */
export interface TasksLostToRestart {
  serverId: string;
  /** The server's name as its connection was made (the one its tasks' reasons give). */
  serverName: string;
  /** The tasks, each now `lost` (copies). */
  tasks: OutboundTaskView[];
}

/** Options of the requestor. */
export interface OutboundTasksOptions {
  /** Where each outbound task is kept, one document per task (without `log`; with it, documents of an earlier build). */
  dir: DocumentDir;
  /** A journalled log to keep the tasks in instead (the host's choice): changes share their fsyncs. */
  log?: ConstructorParameters<typeof OutboundTaskStore>[1];
  clock?: Clock;
  /** `task.ttl` asked for when the caller gives none; null asks for none. Default one hour. */
  defaultTtlMs?: number | null;
  /** Polling when the receiver gives no `pollInterval`. */
  pollPolicy?: Partial<PollPolicy>;
  /** Timeout of ordinary requests (`tools/call`, `tasks/get`, `tasks/cancel`, lists). Default 60 s. */
  requestTimeoutMs?: number;
  /** Timeout of a blocking `tasks/result`. Default 24 h (Node timers cap at about 24.8 days). */
  resultTimeoutMs?: number;
  /** How close to the ttl estimate a "task not found" counts as expiry rather than loss. Default 2 s. */
  expirySlackMs?: number;
  /** Progress entries kept per task (all are counted). Default 100. */
  progressHistoryLimit?: number;
  /**
   * The values Taskdesk holds as secrets, read at each write: none is written in the clear in a
   * task's stored outcome (see `OutboundTaskStore`).
   */
  secretValues?: () => Iterable<string>;
  /** Told when a task could not be written to disk (it is kept and written again later). */
  onStoreError?: (outboundId: string, error: unknown) => void;
  /** Whether Taskdesk waits on the person for a request from this server (plain calls to it do not time out meanwhile). */
  waitingOnPerson?: (serverId: string) => boolean;
  /** Told of every change of a plain call (started, with its arguments; progress; ended). */
  onPlainCall?: (view: PlainCallView, started?: { arguments: Record<string, unknown> }) => void;
  /**
   * Waits, for a call its server refused for want of a sign-in, until the person signed in and the
   * server is connected again (see `sign-in-refusal.ts`). Without it, such a call fails at once.
   */
  signInWait?: SignInWait;
  /**
   * Told, once the first polls of the tasks resumed over a connection to a server started anew for
   * it (`AttachOptions.startedAnew`: a stdio server) have been answered, of those the server no
   * longer had: they are lost, as their views say (Taskdesk started it again since they were
   * created, and it kept no tasks from before). Once per such connection that lost any.
   */
  onLostToRestart?: (lost: TasksLostToRestart) => void;
  /** Told when a connected server says its tools changed (its cached list is forgotten first). */
  onToolsChanged?: (serverId: string) => void;
  /** Told when a connected server says its prompts or its resources changed. */
  onSourcesChanged?: (serverId: string) => void;
  /**
   * Told once a tool call that did not become a task has ended (answered, failed or cancelled),
   * with its arguments and the server's result: what the history keeps of it. A call that became
   * a task is followed as one instead.
   */
  onCallEnded?: (ended: EndedCall) => void;
  /**
   * The audit log, for what the requestor does that nobody asked for at that moment: the
   * `tasks/cancel` of a task its server created after the call was cancelled or timed out.
   */
  audit?: AuditSink;
  /**
   * Multi round-trip requests (MCP 2026-07-28): where they are kept, and how one question is
   * answered. Without it, a server's `input_required` answer to a request is an error.
   */
  exchanges?: {
    dir: DocumentDir;
    answer(
      serverId: string,
      request: InputRequest,
      context: { relatedTaskId: string; signal: AbortSignal }
    ): Promise<Record<string, unknown>>;
    onChange(exchangeId: string, view: InputExchangeView | undefined): void;
  };
}

/** A tool call decided over one connection: `send` sends it, as a plain call's sender does. */
interface PreparedCall {
  attachment: Attachment;
  send: (signal: AbortSignal, onprogress: (progress: Progress) => void) => Promise<CallToolOutcome>;
}

/** Options of one call. */
export interface CallToolOptions {
  /** Run as a task (true), plainly (false), or as the tool allows with a task preferred (undefined). */
  asTask?: boolean;
  /** `task.ttl` for this call; null asks for none. */
  ttlMs?: number | null;
  /** How long the call may go without an answer or progress. Default the request timeout. */
  timeoutMs?: number;
  /** The caller's id for the call while it runs (until its answer, or its task, arrives), to follow its progress and cancel it. */
  callId?: string;
  /**
   * Told of the task the call became as soon as it exists, before it is followed or announced:
   * what the caller records of the call there comes before anything that happens to the task
   * (one that ends in a few milliseconds may end before the call returns).
   */
  onTask?: (task: OutboundTaskView) => void;
  /**
   * Who makes the call, when it is not the person on the Tools screen (the assistant, for a
   * conversation): kept on the running call, on the task it becomes, and in History.
   */
  origin?: CallOrigin;
  /**
   * Told of the exchange the call became when its server asked for input first (a 2026-07-28
   * multi round-trip request, a 2025-11-25 link to open), as soon as it is stored: the caller can
   * find its outcome after a restart (`exchange`, `onExchangeChanged`).
   */
  onExchange?: (exchangeId: string) => void;
}

/**
 * The requestor of task-augmented `tools/call` (MCP 2025-11-25 tasks utility).
 *
 * Independent of how connections are made: the connection code calls `attach` with an
 * initialised SDK `Client` and `detach` when it goes away. Every outbound task is kept on
 * disk and survives restarts; attaching a server again resumes its unfinished tasks.
 */
export class OutboundTasks {
  readonly #clock: Clock;
  readonly #onStoreError: OutboundTasksOptions['onStoreError'];
  readonly #onCallEnded: OutboundTasksOptions['onCallEnded'];
  readonly #onLostToRestart: OutboundTasksOptions['onLostToRestart'];
  readonly #signInWait: SignInWait | undefined;
  readonly #store: OutboundTaskStore;
  readonly #env: FollowerEnvironment;
  readonly #defaultTtlMs: number | null;
  readonly #requestTimeoutMs: number;
  readonly #validator = new ArgumentValidator();
  readonly #exchangeListeners = new Set<(exchangeId: string, view: InputExchangeView | undefined) => void>();
  readonly #attachments = new AttachmentRegistry({
    onStatus: (serverId, params) => this.onStatusNotification(serverId, params),
    onModernStatus: (serverId, params) => this.#onModernStatus(serverId, params),
    onElicitationComplete: (serverId, elicitationId) => this.exchanges?.elicitationComplete(serverId, elicitationId),
    onToolsChanged: (attachment) => {
      this.#tools.forget(attachment);
      this.#onToolsChanged(attachment.serverId);
    },
    onToolsStale: (attachment) => this.#tools.forget(attachment),
    onSourcesChanged: (attachment) => this.#onSourcesChanged(attachment.serverId)
  });
  #onToolsChanged: (serverId: string) => void = () => undefined;
  #onSourcesChanged: (serverId: string) => void = () => undefined;
  readonly #tools: ToolCache;
  #calls: ToolCallContext;
  readonly #writes: WriteQueue<OutboundFollower>;
  readonly #timers: TaskTimers;
  readonly #followers = new Map<string, OutboundFollower>();
  /** `serverId \n taskId` → outboundId, for `describe` and status notifications. */
  readonly #byTask = new Map<string, string>();
  /** Tasks the person forgot, for a question their server asks later (see {@link forgotten}). */
  readonly #forgotten: ForgottenTasks;
  readonly #listeners = new Set<(event: OutboundTaskEvent) => void>();
  #closed = false;
  /** See {@link finishedWhenLoaded}. */
  readonly #finishedWhenLoaded: readonly string[];
  /** Plain (not task) calls in flight: progress, an idle timeout, cancel. */
  readonly plainCalls: PlainCalls;
  /** Multi round-trip requests in progress (when configured). */
  readonly exchanges: InputExchanges | undefined;
  /** Documents that could not be loaded and were moved aside. */
  readonly quarantined: ReadonlyArray<LoadedDocument & { ok: false }>;

  constructor(options: OutboundTasksOptions) {
    this.#clock = options.clock ?? systemClock;
    this.#onStoreError = options.onStoreError;
    this.#onCallEnded = options.onCallEnded;
    this.#onLostToRestart = options.onLostToRestart;
    this.#signInWait = options.signInWait;
    this.#store = new OutboundTaskStore(
      options.dir,
      options.log,
      (outboundId, error) => {
        const follower = this.#followers.get(outboundId);
        if (!follower || this.#closed) return;
        this.#emitWriteFailure(follower, error);
        // Kept in memory: written again a little later, as a failed document write is.
        this.#clock.setTimeout(() => this.#markDirty(follower), 5_000);
      },
      options.secretValues
    );
    this.#timers = new TaskTimers(this.#clock);
    this.#forgotten = new ForgottenTasks(this.#clock);
    this.#defaultTtlMs = options.defaultTtlMs === undefined ? DEFAULT_TASK_TTL_MS : options.defaultTtlMs;
    this.#requestTimeoutMs = options.requestTimeoutMs ?? 60_000;
    this.#env = {
      clock: this.#clock,
      policy: { ...DEFAULT_POLL_POLICY, ...options.pollPolicy },
      timers: this.#timers,
      requestTimeoutMs: this.#requestTimeoutMs,
      resultTimeoutMs: options.resultTimeoutMs ?? 86_400_000,
      expirySlackMs: options.expirySlackMs ?? 2_000,
      progressHistoryLimit: options.progressHistoryLimit ?? 100,
      changed: (follower) => this.#markDirty(follower)
    };
    this.#tools = new ToolCache(this.#requestTimeoutMs, this.#clock);
    if (options.onToolsChanged) this.#onToolsChanged = options.onToolsChanged;
    if (options.onSourcesChanged) this.#onSourcesChanged = options.onSourcesChanged;
    this.plainCalls = new PlainCalls({
      clock: this.#clock,
      idleTimeoutMs: this.#requestTimeoutMs,
      waitingOnPerson: options.waitingOnPerson ?? (() => false),
      onChange: options.onPlainCall ?? (() => undefined)
    });
    this.#calls = {
      env: this.#env,
      clock: this.#clock,
      follower: (outboundId) => this.#followers.get(outboundId),
      adopt: (follower) => {
        this.#add(follower);
        this.#watch(follower);
        // Its first record is written now, not at the end of the turn with the queue's others, so
        // that the caller can wait until it is durable; a refused write (a document of the earlier
        // layout) goes to the queue, which writes it again and reports it.
        try {
          const durable = this.#store.save(follower.view);
          this.#emitChanged(follower);
          return durable;
        } catch {
          this.#markDirty(follower);
          return Promise.resolve();
        }
      },
      isCurrent: (attachment) => this.#attachments.isCurrent(attachment),
      current: (serverId) => this.#attachments.get(serverId),
      ...(options.audit && { audit: options.audit })
    };
    const exchanges = options.exchanges;
    this.exchanges =
      exchanges &&
      new InputExchanges({
        dir: exchanges.dir,
        clock: this.#clock,
        answer: (serverId, request, context) => exchanges.answer(serverId, request, context),
        requestTimeoutMs: this.#requestTimeoutMs,
        onChange: (exchangeId, view) => {
          exchanges.onChange(exchangeId, view);
          for (const listener of this.#exchangeListeners) listener(exchangeId, view);
        },
        settle: (view, response) => this.#settleExchange(view, response),
        legacyToolRetry: (view) => this.#legacyToolRetry(view),
        lateAnswer: (view, response, reason) => {
          if (view.method !== 'tools/call') return;
          const server = { serverId: view.serverId, serverName: view.serverName };
          const { name } = view.params as { name: string };
          cancelLateExchangeTask(this.#calls, server, this.#attachments.get(view.serverId), name, response, reason);
        }
      });
    this.#calls = { ...this.#calls, ...(this.exchanges && { exchanges: this.exchanges }) };
    this.#writes = new WriteQueue<OutboundFollower>({
      clock: this.#clock,
      // Its durability is the log's to report (the store's error callback); the queue needs only its throw.
      save: (follower) => void this.#store.save(follower.view, false),
      written: (follower) => this.#emitChanged(follower),
      failed: (follower, error) => this.#emitWriteFailure(follower, error)
    });
    const loaded = this.#store.loadAll();
    this.quarantined = loaded.quarantined;
    const finishedWhenLoaded: string[] = [];
    for (const view of loaded.tasks) {
      const follower =
        eraOfOutbound(view) === 'modern' ? new ModernTaskFollower(this.#env, view) : new TaskFollower(this.#env, view);
      this.#add(follower);
      if (follower.finished) finishedWhenLoaded.push(view.outboundId);
      // The ttl runs whether or not the server is connected.
      follower.trackTtl();
    }
    this.#finishedWhenLoaded = finishedWhenLoaded;
  }

  /**
   * Subscribes to the changes of exchanges (`view` undefined: removed); returns the unsubscribe
   * function. Each listener gets its own copy.
   */
  onExchangeChanged(listener: (exchangeId: string, view: InputExchangeView | undefined) => void): () => void {
    const own = (exchangeId: string, view: InputExchangeView | undefined) =>
      listener(exchangeId, view && structuredClone(view));
    this.#exchangeListeners.add(own);
    return () => this.#exchangeListeners.delete(own);
  }

  /** Subscribes to changes; returns the unsubscribe function. */
  on(listener: (event: OutboundTaskEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * A server's client is connected and initialised: start using it, and resume following
   * that server's unfinished tasks (each is polled at once).
   */
  attach(serverId: string, serverName: string, client: Client, options: AttachOptions = {}): void {
    this.#assertOpen();
    if (this.#attachments.has(serverId)) this.detach(serverId);
    const { modern } = this.#attachments.add(serverId, serverName, client, options);
    this.exchanges?.attach(serverId, modern ?? legacyExchangePeer(client));
    // Each task here was made over an earlier connection: a server started anew for this one may not know it.
    const startedAnew = options.startedAnew === true;
    const resumed: OutboundFollower[] = [];
    for (const follower of this.#followers.values()) {
      if (follower.view.serverId !== serverId || follower.finished) continue;
      // A task is followed with the protocol it was created with; one of the other era waits (its ttl runs).
      if (follower instanceof ModernTaskFollower && modern) {
        follower.follow({ peer: modern, serverName, startedAnew }, { pollNow: true });
        this.#watch(follower);
      } else if (follower instanceof TaskFollower && !modern)
        follower.follow({ client, serverName, startedAnew }, { pollNow: true });
      else continue;
      resumed.push(follower);
    }
    if (startedAnew && resumed.length > 0) void this.#tellLostToRestart(serverId, serverName, resumed);
  }

  /**
   * Waits for the first polls of the tasks `attach` resumed over a connection to a server started
   * anew (each joins the poll its `follow` sent), and tells `onLostToRestart` of those the server
   * no longer had: together, so that they are said once, not task by task as each answer comes.
   * A task a later poll finds lost (its first one failed) is told only by its own view.
   */
  async #tellLostToRestart(serverId: string, serverName: string, resumed: readonly OutboundFollower[]): Promise<void> {
    if (!this.#onLostToRestart) return;
    await Promise.allSettled(resumed.map((follower) => follower.poll()));
    if (this.#closed) return;
    // Lost by the person's act meanwhile (a Remove) is theirs, not the restart's.
    const lost = resumed.filter((follower) => follower.view.state === 'lost' && follower.view.lostByYou !== true);
    if (lost.length > 0)
      this.#onLostToRestart({ serverId, serverName, tasks: lost.map((follower) => copyView(follower.view)) });
  }

  /** A connected server was renamed, its connection kept: later calls and messages use the new name. */
  renameServer(serverId: string, serverName: string): void {
    this.#attachments.rename(serverId, serverName);
    this.plainCalls.serverRenamed(serverId, serverName);
  }

  /** The server disconnected: stop talking to it. Its tasks stay as they are, and their ttl keeps running. */
  detach(serverId: string): void {
    this.exchanges?.detach(serverId);
    if (!this.#attachments.remove(serverId)) return;
    this.#forgotten.connectionEnded(serverId);
    for (const follower of this.#followers.values()) {
      if (follower.view.serverId === serverId) follower.unfollow();
    }
  }

  /**
   * The person removed a server: Taskdesk will never ask it about its tasks again (its process was
   * stopped, its settings forgotten). Each of its tasks not yet finished ends now as lost by the
   * person (`lostByYou`), for `reason` (in their words), and is written as any other end is.
   */
  serverRemoved(serverId: string, reason: string): void {
    this.#assertOpen();
    this.detach(serverId);
    this.#endAsLost(serverId, reason, true, () => true);
  }

  /**
   * The process of a stdio server ended with its connection (the person's act stopped it, or it
   * exited by itself): the tasks created over that connection (`since` it was made, host clock)
   * ran in it, and the process Taskdesk starts next does not have them. Each of them not yet
   * finished ends now as lost, for `reason`, and is written as any other end is; `byYou` when
   * the person's act stopped it (`lostByYou`). Tasks from before it are left to be asked about as
   * they are.
   */
  processGone(serverId: string, since: number, reason: string, byYou: boolean): void {
    this.#assertOpen();
    this.detach(serverId);
    this.#endAsLost(serverId, reason, byYou, (view) => Date.parse(view.createdAt) >= since);
  }

  /**
   * Ends as lost, for `reason`, each task of `serverId` not yet finished that `which` picks;
   * `byYou` when the person's act lost it.
   */
  #endAsLost(serverId: string, reason: string, byYou: boolean, which: (view: OutboundTaskView) => boolean): void {
    for (const follower of this.#followers.values()) {
      const view = follower.view;
      if (view.serverId !== serverId || follower.finished || !which(view)) continue;
      const next = nextOutboundState(view.state, { type: 'lost' });
      if (next === undefined) continue;
      follower.dispose();
      view.state = next;
      view.reason = reason;
      if (byYou) view.lostByYou = true;
      view.updatedAt = new Date(this.#clock.now()).toISOString();
      this.#markDirty(follower);
    }
  }

  /**
   * Stops every timer and request, and writes what is pending. The manager cannot be used afterwards.
   * Plain calls still running are cancelled by Taskdesk, and `onCallEnded` is told of them now.
   */
  close(): void {
    this.plainCalls.stopAll();
    for (const serverId of this.#attachments.serverIds()) this.detach(serverId);
    for (const follower of this.#followers.values()) follower.dispose();
    this.#timers.clear();
    this.exchanges?.close();
    this.#writes.close();
    this.#store.close();
    this.#closed = true;
  }

  /** `notifications/tasks/status` from a server: recorded and acted on at once, though never relied on. */
  onStatusNotification(serverId: string, params: unknown): void {
    const parsed = ServerTaskSchema.safeParse(params);
    if (!parsed.success) return;
    const outboundId = this.#byTask.get(taskKey(serverId, parsed.data.taskId));
    const follower = outboundId === undefined ? undefined : this.#followers.get(outboundId);
    if (follower && this.#attachments.has(serverId)) follower.onStatusNotification(parsed.data);
  }

  /**
   * `notifications/tasks` from a 2026-07-28 server, on the stream of its tasks: taken as a poll's
   * answer would be, at once; polling goes on all the same. Only that server's own tasks are found.
   */
  #onModernStatus(serverId: string, params: unknown): void {
    const taskId = (params as { taskId?: unknown }).taskId;
    if (typeof taskId !== 'string') return;
    const outboundId = this.#byTask.get(taskKey(serverId, taskId));
    const follower = outboundId === undefined ? undefined : this.#followers.get(outboundId);
    if (follower instanceof ModernTaskFollower && this.#attachments.has(serverId)) follower.onTaskNotification(params);
  }

  /** Keeps a modern task on its server's task stream while it is followed, and takes it off once it ends. */
  #watch(follower: OutboundFollower): void {
    if (!(follower instanceof ModernTaskFollower)) return;
    const { serverId, taskId } = follower.view;
    this.#attachments
      .get(serverId)
      ?.taskStream?.watch(taskId, !follower.finished && this.#followers.has(follower.view.outboundId));
  }

  /** The tools of a connected server, each with its task support and how it will be called. All pages are read. */
  async listTools(serverId: string, options: { refresh?: boolean } = {}): Promise<RequestorTool[]> {
    return this.#tools.views(this.#attachment(serverId), options.refresh ?? true);
  }

  /**
   * Calls a tool: as a task when negotiation allows (and the caller did not say otherwise),
   * plainly otherwise. Arguments are checked against the tool's `inputSchema` first; a bad
   * argument, an unknown tool, or a call the negotiation forbids throws a `HostError` and
   * sends nothing. A call (or the `tools/call` that would create its task) its server refuses for
   * want of a sign-in waits for the person to sign in, and is sent again once, over the
   * connection made after it (see `sign-in-refusal.ts`).
   */
  async callTool(
    serverId: string,
    toolName: string,
    args: Record<string, unknown> = {},
    options: CallToolOptions = {}
  ): Promise<CallToolOutcome> {
    const attachment = this.#attachment(serverId);
    // Its tool list read first may be what the server refuses for want of a sign-in: the call then
    // waits for the sign-in as a refused call does, and is decided over the connection after it.
    let first: PreparedCall | RefusedForSignIn;
    try {
      first = await this.#prepareCall(attachment, toolName, args, options);
    } catch (error) {
      if (!(error instanceof RefusedForSignIn) || !this.#signInWait) throw error;
      first = error;
    }
    const call = {
      ...(options.callId !== undefined && { callId: options.callId }),
      ...(options.timeoutMs !== undefined && { idleTimeoutMs: options.timeoutMs }),
      ...(options.origin && { origin: { ...options.origin } }),
      serverId: attachment.serverId,
      serverName: attachment.serverName,
      toolName,
      arguments: args
    };
    return this.plainCalls.run(
      call,
      (signal, onprogress, waitingForSignIn) =>
        sendAgainAfterSignIn({
          server: { serverId: attachment.serverId, serverName: attachment.serverName },
          signal,
          wait: this.#signInWait,
          waitingForSignIn,
          send: () => (first instanceof RefusedForSignIn ? Promise.reject(first) : first.send(signal, onprogress)),
          // Decided anew over the connection made after the sign-in: its tools and capabilities.
          sendAgain: async () =>
            (await this.#prepareCall(this.#attachment(serverId), toolName, args, options)).send(signal, onprogress)
        }),
      this.#callEnded(args)
    );
  }

  /**
   * How a call of `toolName` goes over `attachment`: the tool is found and its arguments checked,
   * and whether it goes as a task decided (see {@link callTool}); throws, having sent nothing,
   * when it cannot go.
   */
  async #prepareCall(
    attachment: Attachment,
    toolName: string,
    args: Record<string, unknown>,
    options: CallToolOptions
  ): Promise<PreparedCall> {
    const tool = await this.#tools.find(attachment, toolName);
    if (!tool)
      throw new HostError(JsonRpcCode.InvalidParams, `Server "${attachment.serverName}" has no tool "${toolName}".`);

    const problems = this.#validator.validate(tool.inputSchema, args);
    if (problems.length > 0) {
      throw new HostError(
        JsonRpcCode.InvalidParams,
        `Invalid arguments for tool "${toolName}": ${describeProblems(problems)}`,
        { problems }
      );
    }

    const mode = toolCallMode(acceptsTaskCalls(attachment), attachment.modern ? 'optional' : taskSupportOf(tool));
    const decision = decideCall(mode, toolName, attachment.serverName, options.asTask);
    // What any send keeps of the call: who made it, and who is told of an exchange it becomes.
    const made = { origin: options.origin, onExchange: options.onExchange };
    const modern = attachment.modern;
    switch (decision.type) {
      case 'refused':
        throw new HostError(JsonRpcCode.InvalidRequest, decision.reason, { callMode: mode });
      case 'plain':
        return {
          attachment,
          send: (signal, onprogress) =>
            modern
              ? callModern(this.#calls, attachment, modern, toolName, args, false, { signal, onprogress, ...made })
              : // Its retry after a link may go as a task (the tool now requires one): told as the task is made.
                callLegacyPlain(this.#calls, attachment, toolName, args, {
                  signal,
                  onprogress,
                  onTask: options.onTask,
                  ...made
                })
        };
      case 'task': {
        // Until the server answers (with a task, or plainly after all) this is a running call like any other.
        const ttl = options.ttlMs === undefined ? this.#defaultTtlMs : options.ttlMs;
        return {
          attachment,
          send: (signal, onprogress) =>
            modern
              ? callModern(this.#calls, attachment, modern, toolName, args, true, {
                  signal,
                  onprogress,
                  onTask: options.onTask,
                  ...made
                })
              : callLegacyTask(this.#calls, attachment, toolName, args, ttl, {
                  signal,
                  onprogress,
                  onTask: options.onTask,
                  ...made
                })
        };
      }
    }
  }

  /**
   * Cancels a task with `tasks/cancel`. Throws a `HostError` when the server did not declare
   * `tasks.cancel` (the task cannot be cancelled) or is not connected. A task the server says
   * is already terminal (−32602) is refreshed instead, and returned as it now stands.
   */
  async cancel(outboundId: string): Promise<OutboundTaskView> {
    const follower = this.#follower(outboundId);
    const view = follower.view;
    if (follower.finished || view.outcome !== undefined || ['completed', 'failed', 'cancelled'].includes(view.state))
      return this.#copy(follower);
    const attachment = this.#attachments.get(view.serverId);
    if (!attachment) {
      throw new HostError(
        JsonRpcCode.InvalidRequest,
        `Server "${view.serverName}" is not connected; task ${view.taskId} cannot be cancelled now.`
      );
    }
    if (!attachment.modern && !attachment.client.getServerCapabilities()?.tasks?.cancel) {
      throw new HostError(
        JsonRpcCode.MethodNotFound,
        `Server "${attachment.serverName}" does not support tasks/cancel (no tasks.cancel capability): task ${view.taskId} of "${view.toolName}" cannot be cancelled.`,
        { reason: 'not-cancellable' }
      );
    }
    follower.markCancelRequested(true);
    try {
      await follower.cancel();
    } catch (error) {
      if (follower.view.state !== 'cancelled') follower.markCancelRequested(false);
      throw toHostError(error);
    }
    return this.#copy(follower);
  }

  /** Polls one task now; returns it as it then stands. */
  async refresh(outboundId: string): Promise<OutboundTaskView> {
    const follower = this.#follower(outboundId);
    await follower.poll();
    return this.#copy(follower);
  }

  /** One page of the server's `tasks/list` (when it declared `tasks.list`), joined with the outbound tasks. */
  async listServerTasks(serverId: string, cursor?: string): Promise<ServerTaskPage> {
    const attachment = this.#attachment(serverId);
    if (attachment.modern) {
      throw new HostError(
        JsonRpcCode.MethodNotFound,
        `Server "${attachment.serverName}" speaks MCP 2026-07-28, whose tasks extension has no tasks/list.`
      );
    }
    if (!attachment.client.getServerCapabilities()?.tasks?.list) {
      throw new HostError(
        JsonRpcCode.MethodNotFound,
        `Server "${attachment.serverName}" does not support tasks/list (no tasks.list capability).`
      );
    }
    let page;
    try {
      page = await attachment.client.request(
        { method: 'tasks/list', params: cursor === undefined ? {} : { cursor } },
        ListTasksResultSchema,
        {
          timeout: this.#requestTimeoutMs
        }
      );
    } catch (error) {
      throw toHostError(error);
    }
    const tasks = page.tasks.map((task) => {
      const listed: ServerTaskPage['tasks'][number] = pickTask(task);
      const outboundId = this.#byTask.get(taskKey(serverId, task.taskId));
      const follower = outboundId === undefined ? undefined : this.#followers.get(outboundId);
      if (follower) {
        listed.outboundId = follower.view.outboundId;
        listed.toolName = follower.view.toolName;
      }
      return listed;
    });
    return page.nextCursor === undefined ? { tasks } : { tasks, nextCursor: page.nextCursor };
  }

  /**
   * `prompts/get` (`resources/read` with {@link readResource}): to a 2026-07-28 server through
   * the multi round-trip machinery (its questions answered, the request retried), to a
   * 2025-11-25 server as an ordinary request.
   */
  async getPrompt(serverId: string, name: string, args?: Record<string, string>): Promise<Record<string, unknown>> {
    return this.#ordinary(serverId, 'prompts/get', { name, ...(args && { arguments: args }) });
  }

  /** `resources/read`, as {@link getPrompt}. */
  async readResource(serverId: string, uri: string): Promise<Record<string, unknown>> {
    return this.#ordinary(serverId, 'resources/read', { uri });
  }

  async #ordinary(
    serverId: string,
    method: 'prompts/get' | 'resources/read',
    params: Record<string, unknown>
  ): Promise<Record<string, unknown>> {
    const attachment = this.#attachment(serverId);
    const modern = attachment.modern;
    try {
      if (!modern) {
        const options = { tasks: false, legacy: true, timeout: this.#requestTimeoutMs };
        const peer = legacyExchangePeer(attachment.client);
        // A URL-elicitation-required error (2025-11-25) becomes an exchange: see `legacy-exchange-peer.ts`.
        return this.exchanges
          ? await this.exchanges.request({ serverId, serverName: attachment.serverName, peer }, method, params, options)
          : await peer.request(method, params, options);
      }
      const options = { tasks: false, timeout: this.#requestTimeoutMs };
      const server = { serverId, serverName: attachment.serverName, peer: modern };
      const response = this.exchanges
        ? await this.exchanges.request(server, method, params, options)
        : await modern.request(method, params, options);
      checkResultType(method, response, options, attachment.serverName);
      if (response.resultType === 'input_required')
        throw new HostError(JsonRpcCode.InternalError, `${method} on "${attachment.serverName}" asked for input.`);
      const { resultType: _complete, ...result } = response;
      return result;
    } catch (error) {
      throw toHostError(error);
    }
  }

  /**
   * How a 2025-11-25 server's `tools/call` goes again once its links are done: as a task or not,
   * decided as a first send is, from the server's `tasks.requests.tools.call` and the tool's
   * `execution.taskSupport` as they are now, for the server may have changed either since the
   * call was first sent (a reconnect, a restart): `task` is kept, added (the default ttl) or
   * dropped accordingly. Throws, in words, when the tool is gone or needs a task the server no
   * longer accepts: nothing is sent then.
   */
  async #legacyToolRetry(view: InputExchangeView): Promise<{ params: Record<string, unknown>; asTask: boolean }> {
    // The exchange asks once its server's 2025-11-25 connection is attached.
    const attachment = this.#attachment(view.serverId);
    const { task, ...params } = view.params as { name: string; task?: unknown };
    const toolName = params.name;
    let tool: Tool | undefined;
    try {
      tool = await this.#tools.find(attachment, toolName);
    } catch (error) {
      // The connection went meanwhile: the exchange decides again once the server is back.
      if (this.#attachments.get(view.serverId) !== attachment) throw error;
      // Its tools could not be read (a timeout, a page that failed): the request goes as it was
      // last sent, rather than end after the person has done what its link asked.
      return { params: view.params, asTask: view.asTask };
    }
    if (!tool)
      throw new HostError(
        JsonRpcCode.InvalidParams,
        `Server "${attachment.serverName}" no longer has tool "${toolName}", so the call was not sent again.`
      );
    const mode = toolCallMode(acceptsTaskCalls(attachment), taskSupportOf(tool));
    const decision = decideRetry(mode, toolName, attachment.serverName, view.asTask);
    switch (decision.type) {
      case 'refused':
        throw new HostError(JsonRpcCode.InvalidRequest, decision.reason, { callMode: mode });
      case 'plain':
        return { params, asTask: false };
      case 'task': {
        const ttl = this.#defaultTtlMs;
        return { params: { ...params, task: task ?? (ttl === null ? {} : { ttl }) }, asTask: true };
      }
    }
  }

  /** The final answer of an exchange resumed after a restart: a task is followed, anything else kept as the result. */
  #settleExchange(view: InputExchangeView, response: Record<string, unknown>): ExchangeOutcome {
    if (view.protocol === '2025-11-25') return this.#settleLegacyExchange(view, response);
    checkResultType(view.method, response, { tasks: view.asTask }, view.serverName);
    if (view.method !== 'tools/call' || response.resultType !== 'task') return { type: 'result', result: response };
    const attachment = this.#attachments.get(view.serverId) ?? { serverId: view.serverId, serverName: view.serverName };
    const { name, arguments: args } = view.params as { name: string; arguments?: Record<string, unknown> };
    const { follower } = adoptModernTask(
      this.#calls,
      attachment,
      'modern' in attachment ? attachment.modern : undefined,
      name,
      args ?? {},
      view.asTask,
      response,
      undefined,
      view.origin
    );
    return { type: 'task', outboundId: follower.view.outboundId };
  }

  /**
   * {@link #settleExchange} for a 2025-11-25 server's request sent again after its links: a
   * `tools/call` asked as a task may have made one; a tool's result must be one.
   */
  #settleLegacyExchange(view: InputExchangeView, response: Record<string, unknown>): ExchangeOutcome {
    if (view.method !== 'tools/call') return { type: 'result', result: response };
    const {
      name,
      arguments: args,
      task
    } = view.params as {
      name: string;
      arguments?: Record<string, unknown>;
      task?: { ttl?: number };
    };
    const created = view.asTask ? CreateTaskResultSchema.safeParse(response) : undefined;
    if (created?.success) {
      const current = this.#attachments.get(view.serverId);
      // Followed once a 2025-11-25 connection of its server is attached.
      const attachment =
        current && !current.modern ? current : { serverId: view.serverId, serverName: view.serverName };
      const { follower } = adoptLegacyTask(this.#calls, attachment, name, args ?? {}, task?.ttl ?? null, created.data, {
        origin: view.origin
      });
      return { type: 'task', outboundId: follower.view.outboundId };
    }
    const result = CallToolResultSchema.safeParse(response);
    if (!result.success)
      throw new HostError(
        JsonRpcCode.InternalError,
        `Server "${view.serverName}" answered tools/call "${name}" with neither a tool result nor a task it can be followed as: ${result.error.issues[0]?.message ?? 'invalid'}.`
      );
    return { type: 'result', result: { ...result.data } };
  }

  /** Every outbound task, newest first. */
  list(): OutboundTaskView[] {
    return [...this.#followers.values()]
      .map((f) => this.#copy(f))
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  /**
   * The ids of the tasks that had already ended when they were loaded from disk, before their ttl
   * was looked at: a task that expired while Taskdesk was stopped ends in this run, and is not one.
   */
  finishedWhenLoaded(): readonly string[] {
    return this.#finishedWhenLoaded;
  }

  /** One outbound task, or undefined. */
  get(outboundId: string): OutboundTaskView | undefined {
    const follower = this.#followers.get(outboundId);
    return follower ? this.#copy(follower) : undefined;
  }

  /**
   * Which tool call a server task belongs to, for a side-channel request (elicitation,
   * sampling) that carries the related-task `_meta` of one of these tasks.
   */
  describe(serverId: string, taskId: string): { toolName: string; outboundId: string } | undefined {
    const outboundId = this.#byTask.get(taskKey(serverId, taskId));
    const follower = outboundId === undefined ? undefined : this.#followers.get(outboundId);
    return follower
      ? ({ toolName: follower.view.toolName, outboundId } as { toolName: string; outboundId: string })
      : undefined;
  }

  /**
   * A task the person forgot that a server's task id names, while its server may still ask for it
   * (see `ForgottenTasks`: until its ttl runs out or the server's connection ends).
   */
  forgotten(serverId: string, taskId: string): { toolName: string } | undefined {
    return this.#forgotten.find(serverId, taskId);
  }

  /** Removes a task from the host (and its document). It is no longer followed; the server is not told. */
  forget(outboundId: string): void {
    const follower = this.#follower(outboundId);
    follower.dispose();
    this.#forgotten.remember(follower.view);
    this.#followers.delete(outboundId);
    this.#watch(follower);
    this.#byTask.delete(taskKey(follower.view.serverId, follower.view.taskId));
    this.#writes.delete(follower);
    this.#store.remove(outboundId);
    this.#emit({ type: 'removed', outboundId, serverId: follower.view.serverId });
  }

  /** What a call with `args` tells `onCallEnded` when it ends, unless it became a task. */
  #callEnded(
    args: Record<string, unknown>
  ): ((view: PlainCallView, outcome: CallToolOutcome | undefined, cancelledBy?: 'taskdesk') => void) | undefined {
    const onCallEnded = this.#onCallEnded;
    if (!onCallEnded) return undefined;
    return (call, outcome, cancelledBy) => {
      if (outcome?.type === 'task') return;
      onCallEnded({
        call,
        arguments: args,
        ...(outcome?.type === 'result' && { result: outcome.result }),
        ...(cancelledBy && { cancelledBy })
      });
    };
  }

  #add(follower: OutboundFollower): void {
    this.#forgotten.followed(follower.view.serverId, follower.view.taskId);
    this.#followers.set(follower.view.outboundId, follower);
    this.#byTask.set(taskKey(follower.view.serverId, follower.view.taskId), follower.view.outboundId);
  }

  #attachment(serverId: string): Attachment {
    this.#assertOpen();
    return this.#attachments.require(serverId);
  }

  #follower(outboundId: string): OutboundFollower {
    const follower = this.#followers.get(outboundId);
    if (!follower) throw new HostError(JsonRpcCode.InvalidParams, `No outbound task ${JSON.stringify(outboundId)}.`);
    return follower;
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error('OutboundTasks is closed');
  }

  /** Changes are written and announced once per turn of the event loop, however many happened in it. */
  #markDirty(follower: OutboundFollower): void {
    // A forgotten task is not written again.
    if (!this.#followers.has(follower.view.outboundId)) return;
    this.#writes.mark(follower);
    if (follower.finished) this.#watch(follower);
  }

  #emitWriteFailure(follower: OutboundFollower, error: unknown): void {
    try {
      this.#onStoreError?.(follower.view.outboundId, error);
    } catch {
      // Reporting must not stop the requestor.
    }
  }

  #emit(event: OutboundTaskEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // A listener's failure must not stop the requestor or the other listeners.
      }
    }
  }

  /** Announces a written change: a copy of the view for each listener's event, none when nobody listens. */
  #emitChanged(follower: OutboundFollower): void {
    if (this.#listeners.size > 0) this.#emit({ type: 'changed', task: this.#copy(follower) });
  }

  #copy(follower: OutboundFollower): OutboundTaskView {
    return copyView(follower.view);
  }
}

function taskKey(serverId: string, taskId: string): string {
  return `${serverId}\n${taskId}`;
}
