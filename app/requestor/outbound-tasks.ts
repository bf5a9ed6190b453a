import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  ListTasksResultSchema,
  ListToolsResultSchema,
  TaskStatusNotificationSchema,
  type Progress,
  type Tool
} from '@modelcontextprotocol/sdk/types.js';
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
  type ServerTask,
  type ServerTaskPage
} from '../contract/outbound-tasks.js';
import { eraOfOutbound, markModern } from './outbound-era.js';
import { OutboundTaskStore } from './outbound-task-store.js';
import { DEFAULT_POLL_POLICY, type PollPolicy } from './poll-policy.js';
import { TaskFollower } from './task-follower.js';
import { pickTask, type FollowerEnvironment, type OutboundFollower } from './task-follower-base.js';
import { ModernTaskFollower, ModernTaskSchema, toServerTask, type ModernPeer } from './modern-task-follower.js';
import { toHostError } from './task-rpc.js';
import { decideCall, requestorToolView, taskSupportOf, toolCallMode } from './tool-call-mode.js';

/** Options of the requestor. */
export interface OutboundTasksOptions {
  /** Where each outbound task is kept, one document per task. */
  dir: DocumentDir;
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
  /** Told when a task could not be written to disk (it is kept and written again later). */
  onStoreError?: (outboundId: string, error: unknown) => void;
}

/** Options of `attach`. */
export interface AttachOptions {
  /**
   * Register a `notifications/tasks/status` handler on the client (default true). The SDK
   * keeps one handler per method; pass false when the connection code owns that handler and
   * forwards to `onStatusNotification` instead.
   */
  statusNotifications?: boolean;
  /**
   * The server is of MCP 2026-07-28: tool calls, lists and tasks go through this peer (the
   * tasks extension) instead of the client's 2025-11-25 requests.
   */
  modern?: ModernPeer;
}

/** Options of one call. */
export interface CallToolOptions {
  /** Run as a task (true), plainly (false), or as the tool allows with a task preferred (undefined). */
  asTask?: boolean;
  /** `task.ttl` for this call; null asks for none. */
  ttlMs?: number | null;
  /** Timeout of a plain call. Default the request timeout. */
  timeoutMs?: number;
}

interface Attachment {
  readonly serverId: string;
  readonly serverName: string;
  readonly client: Client;
  readonly statusNotifications: boolean;
  /** Set for a server of MCP 2026-07-28. */
  readonly modern: ModernPeer | undefined;
  tools: Map<string, Tool> | undefined;
}

/** A `tools/call` answer: a task was created, or the server answered plainly after all. */
const CreateTaskOrToolResultSchema = z.union([CreateTaskResultSchema, CallToolResultSchema]);

/** Longest stretch of document writes before the event loop gets a turn. */
const WRITE_SLICE_MS = 10;
/** How long after a failed document write the requestor tries again. */
const WRITE_RETRY_MS = 5_000;

const IMMEDIATE_RESPONSE_KEY = 'io.modelcontextprotocol/model-immediate-response';

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
  readonly #store: OutboundTaskStore;
  readonly #env: FollowerEnvironment;
  readonly #defaultTtlMs: number | null;
  readonly #requestTimeoutMs: number;
  readonly #validator = new ArgumentValidator();
  readonly #attachments = new Map<string, Attachment>();
  readonly #followers = new Map<string, OutboundFollower>();
  /** `serverId \n taskId` → outboundId, for `describe` and status notifications. */
  readonly #byTask = new Map<string, string>();
  /** Progress that arrived before the `CreateTaskResult` was recorded. */
  readonly #earlyProgress = new Map<string, Progress[]>();
  readonly #listeners = new Set<(event: OutboundTaskEvent) => void>();
  readonly #dirty = new Set<OutboundFollower>();
  #flushQueued = false;
  #closed = false;
  /** Documents that could not be loaded and were moved aside. */
  readonly quarantined: ReadonlyArray<LoadedDocument & { ok: false }>;

  constructor(options: OutboundTasksOptions) {
    this.#clock = options.clock ?? systemClock;
    this.#onStoreError = options.onStoreError;
    this.#store = new OutboundTaskStore(options.dir);
    this.#defaultTtlMs = options.defaultTtlMs === undefined ? 3_600_000 : options.defaultTtlMs;
    this.#requestTimeoutMs = options.requestTimeoutMs ?? 60_000;
    this.#env = {
      clock: this.#clock,
      policy: { ...DEFAULT_POLL_POLICY, ...options.pollPolicy },
      requestTimeoutMs: this.#requestTimeoutMs,
      resultTimeoutMs: options.resultTimeoutMs ?? 86_400_000,
      expirySlackMs: options.expirySlackMs ?? 2_000,
      progressHistoryLimit: options.progressHistoryLimit ?? 100,
      changed: (follower) => this.#markDirty(follower)
    };
    const loaded = this.#store.loadAll();
    this.quarantined = loaded.quarantined;
    for (const view of loaded.tasks) {
      const follower =
        eraOfOutbound(view) === 'modern' ? new ModernTaskFollower(this.#env, view) : new TaskFollower(this.#env, view);
      this.#add(follower);
      // The ttl runs whether or not the server is connected.
      follower.trackTtl();
    }
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
    const modern = options.modern;
    // 2026-07-28 status notifications need a subscription (subscriptions/listen): polling only.
    const statusNotifications = modern === undefined && (options.statusNotifications ?? true);
    const attachment: Attachment = { serverId, serverName, client, statusNotifications, modern, tools: undefined };
    this.#attachments.set(serverId, attachment);
    if (attachment.statusNotifications) {
      client.setNotificationHandler(TaskStatusNotificationSchema, (notification) =>
        this.onStatusNotification(serverId, notification.params)
      );
    }
    for (const follower of this.#followers.values()) {
      if (follower.view.serverId !== serverId || follower.finished) continue;
      // A task is followed with the protocol it was created with; one of the other era waits (its ttl runs).
      if (follower instanceof ModernTaskFollower && modern)
        follower.follow({ peer: modern, serverName }, { pollNow: true });
      else if (follower instanceof TaskFollower && !modern) follower.follow({ client, serverName }, { pollNow: true });
    }
  }

  /** The server disconnected: stop talking to it. Its tasks stay as they are, and their ttl keeps running. */
  detach(serverId: string): void {
    const attachment = this.#attachments.get(serverId);
    if (!attachment) return;
    this.#attachments.delete(serverId);
    if (attachment.statusNotifications) attachment.client.removeNotificationHandler('notifications/tasks/status');
    for (const follower of this.#followers.values()) {
      if (follower.view.serverId === serverId) follower.unfollow();
    }
  }

  /** Stops every timer and request, and writes what is pending. The manager cannot be used afterwards. */
  close(): void {
    for (const serverId of [...this.#attachments.keys()]) this.detach(serverId);
    for (const follower of this.#followers.values()) follower.dispose();
    this.#flush(true);
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

  /** The tools of a connected server, each with its task support and how it will be called. All pages are read. */
  async listTools(serverId: string, options: { refresh?: boolean } = {}): Promise<RequestorTool[]> {
    const attachment = this.#attachment(serverId);
    const tools = await this.#tools(attachment, options.refresh ?? true);
    const acceptsTasks = acceptsTaskCalls(attachment);
    return [...tools.values()].map((tool) =>
      attachment.modern ? modernToolView(tool, acceptsTasks) : requestorToolView(tool, acceptsTasks)
    );
  }

  /**
   * Calls a tool: as a task when negotiation allows (and the caller did not say otherwise),
   * plainly otherwise. Arguments are checked against the tool's `inputSchema` first; a bad
   * argument, an unknown tool, or a call the negotiation forbids throws a `HostError` and
   * sends nothing.
   */
  async callTool(
    serverId: string,
    toolName: string,
    args: Record<string, unknown> = {},
    options: CallToolOptions = {}
  ): Promise<CallToolOutcome> {
    const attachment = this.#attachment(serverId);
    let tool = (await this.#tools(attachment, false)).get(toolName);
    if (!tool) tool = (await this.#tools(attachment, true)).get(toolName);
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
    switch (decision.type) {
      case 'refused':
        throw new HostError(JsonRpcCode.InvalidRequest, decision.reason, { callMode: mode });
      case 'plain': {
        if (attachment.modern)
          return this.#callModern(
            attachment,
            attachment.modern,
            toolName,
            args,
            false,
            options.timeoutMs ?? this.#requestTimeoutMs
          );
        try {
          const result = await attachment.client.request(
            { method: 'tools/call', params: { name: toolName, arguments: args } },
            CallToolResultSchema,
            {
              timeout: options.timeoutMs ?? this.#requestTimeoutMs
            }
          );
          return { type: 'result', result: { ...result } };
        } catch (error) {
          throw toHostError(error);
        }
      }
      case 'task':
        if (attachment.modern)
          return this.#callModern(attachment, attachment.modern, toolName, args, true, this.#requestTimeoutMs);
        return this.#callAsTask(
          attachment,
          toolName,
          args,
          options.ttlMs === undefined ? this.#defaultTtlMs : options.ttlMs
        );
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
    try {
      await follower.cancel();
    } catch (error) {
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

  /** Every outbound task, newest first. */
  list(): OutboundTaskView[] {
    return [...this.#followers.values()]
      .map((f) => this.#copy(f))
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
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

  /** Removes a task from the host (and its document). It is no longer followed; the server is not told. */
  forget(outboundId: string): void {
    const follower = this.#follower(outboundId);
    follower.dispose();
    this.#followers.delete(outboundId);
    this.#byTask.delete(taskKey(follower.view.serverId, follower.view.taskId));
    this.#dirty.delete(follower);
    this.#store.remove(outboundId);
    this.#emit({ type: 'removed', outboundId, serverId: follower.view.serverId });
  }

  async #callAsTask(
    attachment: Attachment,
    toolName: string,
    args: Record<string, unknown>,
    ttl: number | null
  ): Promise<CallToolOutcome> {
    const outboundId = `ob-${randomUUID()}`;
    this.#earlyProgress.set(outboundId, []);
    let response: z.infer<typeof CreateTaskOrToolResultSchema>;
    try {
      response = await attachment.client.request(
        { method: 'tools/call', params: { name: toolName, arguments: args, task: ttl === null ? {} : { ttl } } },
        CreateTaskOrToolResultSchema,
        { timeout: this.#requestTimeoutMs, onprogress: (progress) => this.#onProgress(outboundId, progress) }
      );
    } catch (error) {
      this.#earlyProgress.delete(outboundId);
      throw toHostError(error);
    }
    const early = this.#earlyProgress.get(outboundId) ?? [];
    this.#earlyProgress.delete(outboundId);
    const created = CreateTaskResultSchema.safeParse(response);
    if (!created.success) {
      // The server ran the call plainly after all; its answer is the tool's result.
      return { type: 'result', result: { ...response } };
    }
    const view = this.#newView(attachment, toolName, args, ttl, pickTask(created.data.task), outboundId);
    const meta = created.data._meta as Record<string, unknown> | undefined;
    if (meta !== undefined) {
      view.createMeta = structuredClone(meta);
      const immediate = meta[IMMEDIATE_RESPONSE_KEY];
      if (typeof immediate === 'string') view.immediateResponse = immediate;
    }
    const follower = new TaskFollower(this.#env, view, attachment.client);
    this.#add(follower);
    for (const progress of early) follower.recordProgress(progress);
    this.#markDirty(follower);
    if (this.#attachments.get(attachment.serverId) === attachment) {
      follower.follow({ client: attachment.client, serverName: attachment.serverName }, { pollNow: false });
    } else {
      follower.trackTtl();
    }
    return { type: 'task', task: this.#copy(follower) };
  }

  /**
   * A `tools/call` to a 2026-07-28 server. With `asTask` the envelope declares the tasks
   * extension and the server decides: a `CreateTaskResult` (`resultType: "task"`) is followed
   * like any outbound task, any other answer is the tool's result. Without it the server must
   * answer plainly (or refuse with −32021).
   */
  async #callModern(
    attachment: Attachment,
    peer: ModernPeer,
    toolName: string,
    args: Record<string, unknown>,
    asTask: boolean,
    timeout: number
  ): Promise<CallToolOutcome> {
    let response: Record<string, unknown>;
    try {
      response = await peer.request('tools/call', { name: toolName, arguments: args }, { tasks: asTask, timeout });
    } catch (error) {
      throw toHostError(error);
    }
    if (response.resultType === 'input_required') {
      throw new HostError(
        JsonRpcCode.InternalError,
        `Tool "${toolName}" on "${attachment.serverName}" asked for input before starting (a multi round-trip request), which Taskdesk does not answer yet.`,
        { resultType: 'input_required' }
      );
    }
    if (response.resultType !== 'task') return { type: 'result', result: { ...response } };
    const created = ModernTaskSchema.safeParse(response);
    if (!asTask || !created.success) {
      throw new HostError(
        JsonRpcCode.InternalError,
        `Server "${attachment.serverName}" answered tools/call with an invalid task${created.success ? ' although the tasks extension was not declared' : `: ${created.error.message}`}.`
      );
    }
    const task = toServerTask(created.data);
    const view = this.#newView(attachment, toolName, args, null, task);
    markModern(view);
    const follower = new ModernTaskFollower(this.#env, view);
    this.#add(follower);
    this.#markDirty(follower);
    if (this.#attachments.get(attachment.serverId) === attachment)
      follower.follow({ peer, serverName: attachment.serverName }, { pollNow: false });
    else follower.trackTtl();
    return { type: 'task', task: this.#copy(follower) };
  }

  /** A new outbound task's view, as the `CreateTaskResult` left it. */
  #newView(
    attachment: Attachment,
    toolName: string,
    args: Record<string, unknown>,
    ttl: number | null,
    task: ServerTask,
    outboundId = `ob-${randomUUID()}`
  ): OutboundTaskView {
    const now = new Date(this.#clock.now()).toISOString();
    return {
      outboundId,
      serverId: attachment.serverId,
      serverName: attachment.serverName,
      toolName,
      arguments: structuredClone(args),
      requestedTtl: ttl,
      createdAt: now,
      updatedAt: now,
      taskId: task.taskId,
      state: task.status,
      task,
      expiresAt: null,
      progress: { count: 0, history: [] }
    };
  }

  #onProgress(outboundId: string, progress: Progress): void {
    const follower = this.#followers.get(outboundId);
    if (follower) follower.recordProgress(progress);
    else this.#earlyProgress.get(outboundId)?.push(progress);
  }

  async #tools(attachment: Attachment, refresh: boolean): Promise<Map<string, Tool>> {
    if (attachment.tools && !refresh) return attachment.tools;
    const tools = new Map<string, Tool>();
    let cursor: string | undefined;
    try {
      do {
        const params = cursor === undefined ? {} : { cursor };
        const page = attachment.modern
          ? ListToolsResultSchema.parse(
              await attachment.modern.request('tools/list', params, { tasks: true, timeout: this.#requestTimeoutMs })
            )
          : await attachment.client.request({ method: 'tools/list', params }, ListToolsResultSchema, {
              timeout: this.#requestTimeoutMs
            });
        for (const tool of page.tools) tools.set(tool.name, tool);
        cursor = page.nextCursor;
      } while (cursor !== undefined);
    } catch (error) {
      throw toHostError(error);
    }
    attachment.tools = tools;
    return tools;
  }

  #add(follower: OutboundFollower): void {
    this.#followers.set(follower.view.outboundId, follower);
    this.#byTask.set(taskKey(follower.view.serverId, follower.view.taskId), follower.view.outboundId);
  }

  #attachment(serverId: string): Attachment {
    this.#assertOpen();
    const attachment = this.#attachments.get(serverId);
    if (!attachment) throw new HostError(JsonRpcCode.InvalidRequest, `Server "${serverId}" is not connected.`);
    return attachment;
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
    if (!this.#followers.has(follower.view.outboundId)) return;
    this.#dirty.add(follower);
    if (this.#flushQueued) return;
    this.#flushQueued = true;
    queueMicrotask(() => this.#flush());
  }

  /**
   * Writes (and then announces) dirty tasks, in order. Each document write is a synchronous,
   * fsync'd file write (milliseconds each), so a burst — a thousand tasks finishing together —
   * is written in slices of about `WRITE_SLICE_MS`, yielding to the event loop between slices
   * so that poll timers and responses are not held up behind the disk.
   */
  #flush(all = false): void {
    this.#flushQueued = false;
    const deadline = performance.now() + WRITE_SLICE_MS;
    for (const follower of [...this.#dirty]) {
      // A terminal status waits for its outcome (see TaskFollower.settling); the fetch's end flushes it.
      if (follower.settling && !all) continue;
      if (!all && performance.now() > deadline) {
        this.#flushQueued = true;
        setImmediate(() => this.#flush());
        return;
      }
      this.#dirty.delete(follower);
      try {
        this.#store.save(follower.view);
      } catch (error) {
        // A full disk or a permission problem: keep the change, say so, and try again later.
        this.#dirty.add(follower);
        this.#emitWriteFailure(follower, error);
        if (!this.#flushQueued) {
          this.#flushQueued = true;
          this.#clock.setTimeout(() => this.#flush(), WRITE_RETRY_MS);
        }
        return;
      }
      this.#emit({ type: 'changed', task: this.#copy(follower) });
    }
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

  #copy(follower: OutboundFollower): OutboundTaskView {
    return structuredClone(follower.view);
  }
}

/** Whether the server takes tool calls as tasks: `tasks.requests.tools.call` (2025-11-25), the tasks extension (2026-07-28). */
function acceptsTaskCalls(attachment: Attachment): boolean {
  if (attachment.modern) return attachment.modern.acceptsTasks;
  return attachment.client.getServerCapabilities()?.tasks?.requests?.tools?.call !== undefined;
}

/**
 * A 2026-07-28 tool as the host shows it: tools declare no task support there, the server
 * decides per call, so every tool reads `optional` (`task-or-plain`) on a server with the tasks
 * extension and `plain` on one without.
 */
function modernToolView(tool: Tool, serverAcceptsTasks: boolean): RequestorTool {
  const { execution: _ignored, ...rest } = tool;
  return requestorToolView({ ...rest, execution: { taskSupport: 'optional' } }, serverAcceptsTasks);
}

function taskKey(serverId: string, taskId: string): string {
  return `${serverId}\n${taskId}`;
}
