import { z } from 'zod';
import { JsonRpcCode, toErrorData, type ErrorData } from '../core/errors.js';
import { ServerTaskStatusSchema, type ServerTask } from '../contract/outbound-tasks.js';
import { TaskFollowerBase, type FollowedConnection } from './task-follower-base.js';
import { checkResultType } from './result-type.js';
import type { ModernRequestOptions } from '../mcp/modern-protocol.js';
import { isServerTerminal } from './outbound-task-state.js';
import { isLocalFailure, isTaskNotFound } from './task-rpc.js';

/**
 * Following a tool call's task on a server of MCP 2026-07-28, where tasks are the extension
 * `io.modelcontextprotocol/tasks` (SEP-2663).
 *
 * There is no `tasks/result`: `tasks/get` carries the outcome (`result` or `error`) and, on
 * `input_required`, the server's questions (`inputRequests`), which are answered with
 * `tasks/update`. The state model, poll policy, ttl and stored view are the 2025-11-25 ones.
 */

/** One server-to-client request inside a task's `inputRequests`. */
export interface InputRequest {
  method: string;
  params: Record<string, unknown>;
}

/** What the requestor needs of a modern server's connection. */
export interface ModernPeer {
  /** Whether the server declared the tasks extension in `server/discover`. */
  readonly acceptsTasks: boolean;
  /**
   * The lists it declared `listChanged` for: it tells of their changes on a
   * `subscriptions/listen` stream (the requestor opens one, asking for these).
   */
  readonly listChanged?: { readonly tools?: boolean; readonly prompts?: boolean; readonly resources?: boolean };
  /** How often that stream is opened anew (a Streamable HTTP server's: see `HTTP_LISTEN_RENEWAL_MS`); never when unset. */
  readonly listenRenewalMs?: number;
  /**
   * Sends one request with the modern envelope; `tasks` says whether the envelope declares
   * the tasks extension. Resolves with the raw result; rejects with the peer's JSON-RPC error.
   * `onRequestId` gets the request's JSON-RPC id as it is sent, before anything the server tags
   * with it can be heard (a `subscriptions/listen` stream is known by it); a peer that cannot
   * tell it does not call it.
   */
  request(
    method: string,
    params: Record<string, unknown>,
    options: ModernRequestOptions
  ): Promise<Record<string, unknown>>;
  /**
   * Answers one input request as the host answers such a request from a server (elicitation
   * in the inbox, sampling through the sampling runner). Rejects when it cannot be answered
   * (a method Taskdesk does not serve, a rejected sampling request) or `signal` aborts.
   */
  answerInput(
    request: InputRequest,
    context: { relatedTaskId: string; signal: AbortSignal }
  ): Promise<Record<string, unknown>>;
}

/** The connection a modern follower talks through while its server is attached. */
export interface ModernConnection extends FollowedConnection {
  readonly peer: ModernPeer;
}

/** The `Task` of the extension (`ttlMs`, `pollIntervalMs`); other fields are kept by `looseObject`. */
export const ModernTaskSchema = z.looseObject({
  taskId: z.string(),
  status: ServerTaskStatusSchema,
  statusMessage: z.string().optional(),
  createdAt: z.string(),
  lastUpdatedAt: z.string(),
  /** Required by the spec; a server that leaves it out is read as unlimited. */
  ttlMs: z.number().nullable().optional(),
  pollIntervalMs: z.number().optional()
});
export type ModernTask = z.infer<typeof ModernTaskSchema>;

/** A `tasks/get` answer: the task with what its status carries. */
export const DetailedTaskSchema = ModernTaskSchema.extend({
  inputRequests: z
    .record(z.string(), z.looseObject({ method: z.string(), params: z.record(z.string(), z.unknown()).optional() }))
    .optional(),
  result: z.record(z.string(), z.unknown()).optional(),
  error: z.looseObject({ code: z.number(), message: z.string(), data: z.unknown().optional() }).optional()
});
export type DetailedTask = z.infer<typeof DetailedTaskSchema>;

/** The stored `ServerTask` of a modern task (the view keeps the 2025-11-25 field names). */
export function toServerTask(task: ModernTask): ServerTask {
  const picked: ServerTask = {
    taskId: task.taskId,
    status: task.status,
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttl: task.ttlMs ?? null
  };
  if (task.statusMessage !== undefined) picked.statusMessage = task.statusMessage;
  if (task.pollIntervalMs !== undefined) picked.pollInterval = task.pollIntervalMs;
  return picked;
}

/**
 * Follows one modern task until nothing more can happen to it.
 *
 * Polls `tasks/get` at the server's `pollIntervalMs` (or the backoff); takes the outcome from
 * a terminal answer; on `input_required` asks each new `inputRequests` key once (through the
 * peer: inbox or sampling runner), withdraws a question the server no longer lists, and sends
 * each answer once with `tasks/update` (answered keys are stored, so a restart does not
 * answer again); an answer that failed to go through for any reason but its refusal (−32602,
 * −32600) is kept and sent again after the next poll. Once a cancel is requested nothing more
 * is asked. Expiry and loss are concluded as for 2025-11-25 tasks. `notifications/tasks` (sent
 * only on the task stream Taskdesk opens, see `TaskStatusStream`) is taken like a poll's answer;
 * progress is recorded for symmetry (the extension sends none for tasks).
 */
export class ModernTaskFollower extends TaskFollowerBase<ModernConnection, Record<string, unknown>> {
  /** Questions being asked now, by `inputRequests` key. */
  readonly #asking = new Map<string, AbortController>();
  /** Answers not yet acknowledged by `tasks/update`, by key. */
  readonly #unsent = new Map<string, Record<string, unknown>>();
  /** Keys that could not be answered (or whose answer the server refused): never asked again while followed. */
  readonly #refused = new Set<string>();
  #updateInFlight = false;
  /**
   * Set once `tasks/cancel` went out (cleared if the server refused it): from then on no question
   * is asked and no answer sent, though the server may list `inputRequests` a while longer.
   */
  #cancelRequested = false;

  /** Never: status and outcome arrive together in one `tasks/get`. */
  override get settling(): boolean {
    return false;
  }

  /** Stops talking to the server; questions in the inbox are withdrawn (asked again on the next follow). */
  override unfollow(): void {
    super.unfollow();
    this.#withdrawQuestions(() => true);
    this.#unsent.clear();
    this.#refused.clear();
    this.#updateInFlight = false;
  }

  /**
   * Sends `tasks/cancel` (an acknowledgement only: cancellation is cooperative), withdraws open
   * questions, then polls to learn where the task stands. From the moment it is sent, questions
   * the server still lists are neither asked nor answered (a server may stay `input_required` a
   * while after a cancel). A −32602 answer (unknown task) is left to that poll; other errors are
   * thrown to the caller, and questions are asked again.
   */
  override async cancel(): Promise<void> {
    const connection = this.connection;
    if (!connection || !this.following) return;
    const wasRequested = this.#cancelRequested;
    this.#cancelRequested = true;
    try {
      const ack = await this.send((signal) =>
        connection.peer.request(
          'tasks/cancel',
          { taskId: this.view.taskId },
          { tasks: true, timeout: this.env.requestTimeoutMs, signal }
        )
      );
      checkResultType('tasks/cancel', ack, { tasks: true }, connection.serverName);
    } catch (error) {
      if (this.connection !== connection) return;
      if (!isTaskNotFound(error)) {
        this.#cancelRequested = wasRequested;
        throw error;
      }
    }
    if (this.connection !== connection) return;
    this.#withdrawQuestions(() => true);
    this.#unsent.clear();
    await this.poll();
  }

  /**
   * A `notifications/tasks` of this task: the task as `tasks/get` would give it, taken at once (its
   * outcome, or its questions); the next poll is still due an interval after the last one. One
   * that is not a valid task is left unread: notifications are never relied on, and the next poll tells.
   */
  onTaskNotification(raw: unknown): void {
    const connection = this.connection;
    if (!connection || !this.following) return;
    const parsed = DetailedTaskSchema.safeParse(raw);
    if (!parsed.success || parsed.data.taskId !== this.view.taskId) return;
    if (this.#apply(parsed.data, connection)) this.next();
  }

  protected override requestTask(connection: ModernConnection): Promise<Record<string, unknown>> {
    return this.send((signal) =>
      connection.peer.request(
        'tasks/get',
        { taskId: this.view.taskId },
        { tasks: true, timeout: this.env.requestTimeoutMs, signal }
      )
    );
  }

  protected override takeTask(raw: Record<string, unknown>, connection: ModernConnection): boolean {
    // A resultType Taskdesk does not recognize makes the answer invalid (2026-07-28, ResultType). The
    // extension asks for "complete" here, but its own examples show "task": both are read as a task.
    const resultType = raw.resultType;
    if (resultType !== undefined && resultType !== 'complete' && resultType !== 'task') {
      this.recordError('tasks/get', {
        code: JsonRpcCode.InternalError,
        message: `The server's tasks/get answer has resultType ${JSON.stringify(resultType)}, which is not a task: the answer is invalid.`
      });
      return false;
    }
    const parsed = DetailedTaskSchema.safeParse(raw);
    if (!parsed.success) {
      this.recordError('tasks/get', {
        code: JsonRpcCode.InternalError,
        message: `The server's tasks/get answer is not a task: ${parsed.error.message}`
      });
      return false;
    }
    const changed = this.#apply(parsed.data, connection);
    this.clearError('tasks/get');
    return changed;
  }

  /** Records one `tasks/get` answer: status, outcome on a terminal status, questions on `input_required`. */
  #apply(task: DetailedTask, connection: ModernConnection): boolean {
    // A poll's answer and a notification can cross: an older report that does not end the task
    // (whose status `applyStatus` leaves) must not withdraw or ask questions either, against what
    // a newer one listed.
    if (!isServerTerminal(task.status) && Date.parse(task.lastUpdatedAt) < Date.parse(this.view.task.lastUpdatedAt))
      return false;
    const changed = this.applyStatus(toServerTask(task));
    const state = this.view.state;
    if (state !== task.status) return changed;
    switch (state) {
      case 'completed':
        this.setOutcome(
          task.result !== undefined
            ? { type: 'result', result: { ...task.result }, fetchedAt: this.nowIso() }
            : {
                type: 'error',
                error: {
                  code: JsonRpcCode.InternalError,
                  message: 'The server reported the task completed but sent no result.'
                },
                fetchedAt: this.nowIso()
              }
        );
        break;
      case 'failed':
        this.setOutcome({ type: 'error', error: failureOf(task), fetchedAt: this.nowIso() });
        break;
      case 'cancelled':
        // The extension carries no result for a cancelled task: its outcome says so, with the server's message.
        this.setOutcome({
          type: 'error',
          error: {
            code: JsonRpcCode.RequestCancelled,
            message: task.statusMessage ?? 'The task was cancelled.'
          },
          fetchedAt: this.nowIso()
        });
        break;
      case 'input_required':
        this.#takeQuestions(task.inputRequests ?? {}, connection);
        return changed;
      case 'working':
        break;
    }
    this.#withdrawQuestions(() => true);
    return changed;
  }

  /** Asks each outstanding key not answered or asked yet; withdraws questions the server no longer lists. */
  #takeQuestions(requests: NonNullable<DetailedTask['inputRequests']>, connection: ModernConnection): void {
    if (this.#cancelRequested) {
      // Cancelled: the server has not caught up yet; nothing is asked again.
      this.#withdrawQuestions(() => true);
      return;
    }
    this.#withdrawQuestions((key) => !Object.hasOwn(requests, key));
    for (const key of this.#unsent.keys()) if (!Object.hasOwn(requests, key)) this.#unsent.delete(key);
    const answered = new Set(this.view.answeredInputs ?? []);
    for (const [key, request] of Object.entries(requests)) {
      if (answered.has(key) || this.#asking.has(key) || this.#unsent.has(key) || this.#refused.has(key)) continue;
      this.#ask(key, { method: request.method, params: request.params ?? {} }, connection);
    }
    void this.#sendAnswers(connection);
  }

  #ask(key: string, request: InputRequest, connection: ModernConnection): void {
    const controller = new AbortController();
    this.#asking.set(key, controller);
    connection.peer.answerInput(request, { relatedTaskId: this.view.taskId, signal: controller.signal }).then(
      (result) => {
        if (this.#asking.get(key) !== controller) return;
        this.#asking.delete(key);
        this.#unsent.set(key, result);
        if (this.connection === connection) void this.#sendAnswers(connection);
      },
      (error: unknown) => {
        if (this.#asking.get(key) !== controller) return;
        this.#asking.delete(key);
        if (controller.signal.aborted || this.connection !== connection) return;
        // No answer can be sent for it (the extension has no error answer): say why, and let the user cancel.
        this.#refused.add(key);
        this.recordError(`${request.method} (input ${key})`, toErrorData(error));
      }
    );
  }

  /** Sends every answer not yet acknowledged in one `tasks/update`, one exchange at a time. */
  async #sendAnswers(connection: ModernConnection): Promise<void> {
    if (this.#updateInFlight || this.#unsent.size === 0 || this.connection !== connection || this.#cancelRequested)
      return;
    const batch = new Map(this.#unsent);
    this.#updateInFlight = true;
    try {
      const ack = await this.send((signal) =>
        connection.peer.request(
          'tasks/update',
          { taskId: this.view.taskId, inputResponses: Object.fromEntries(batch) },
          { tasks: true, timeout: this.env.requestTimeoutMs, signal }
        )
      );
      // An acknowledgement with a resultType other than "complete" is invalid: the answers count as not received.
      checkResultType('tasks/update', ack, { tasks: true }, connection.serverName);
      if (this.connection !== connection) return;
      this.#acknowledge([...batch.keys()]);
      if (this.view.lastError?.method === 'tasks/update') delete this.view.lastError;
      this.changed();
    } catch (error) {
      if (this.connection !== connection) return;
      if (refusesAnswers(error)) {
        // The server refused the answers themselves: sending them again would not help.
        for (const key of batch.keys()) {
          this.#unsent.delete(key);
          this.#refused.add(key);
        }
      }
      this.recordError('tasks/update', toErrorData(error));
    } finally {
      if (this.connection === connection) this.#updateInFlight = false;
    }
    // Answers that arrived meanwhile go in the next exchange; those that failed otherwise (locally, or a
    // transient server error) are kept and sent again after the next poll, if the server still asks.
    if (this.connection === connection && [...this.#unsent.keys()].some((key) => !batch.has(key)))
      void this.#sendAnswers(connection);
  }

  #acknowledge(keys: string[]): void {
    const answered = new Set(this.view.answeredInputs ?? []);
    for (const key of keys) {
      this.#unsent.delete(key);
      answered.add(key);
    }
    this.view.answeredInputs = [...answered];
  }

  /** Withdraws the questions whose key matches (their inbox items go away). */
  #withdrawQuestions(matches: (key: string) => boolean): void {
    for (const [key, controller] of [...this.#asking]) {
      if (!matches(key)) continue;
      this.#asking.delete(key);
      controller.abort(new Error('The server no longer asks this'));
    }
  }
}

/** The JSON-RPC error a failed task carries (the spec requires one; a message-only fallback otherwise). */
function failureOf(task: DetailedTask): ErrorData {
  if (task.error) {
    const { code, message, data } = task.error;
    return data === undefined ? { code, message } : { code, message, data };
  }
  return { code: JsonRpcCode.InternalError, message: task.statusMessage ?? 'The server reported the task failed.' };
}

/**
 * Whether a `tasks/update` error refuses the answers themselves (−32602 invalid params, −32600
 * invalid request) or any answer at all (−32601: the server has no `tasks/update`): they are
 * then not sent again. Anything else (a local failure, a server's internal or transient error)
 * leaves them to be sent again.
 */
function refusesAnswers(error: unknown): boolean {
  if (isLocalFailure(error)) return false;
  const code = toErrorData(error).code;
  return (
    code === JsonRpcCode.InvalidParams || code === JsonRpcCode.InvalidRequest || code === JsonRpcCode.MethodNotFound
  );
}
