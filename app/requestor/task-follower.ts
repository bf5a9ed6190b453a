import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CancelTaskResultSchema, type GetTaskResult } from '@modelcontextprotocol/sdk/types.js';
import { LeanGetTaskPayloadResultSchema, LeanGetTaskResultSchema } from '../mcp/lean-schemas.js';
import { RequestAbort, releaseTaskProgressHandler } from '../mcp/sdk-seams.js';
import { toErrorData, type ErrorData } from '../core/errors.js';
import type { OutboundOutcome, OutboundTaskView } from '../contract/outbound-tasks.js';
import {
  TaskFollowerBase,
  type FollowedConnection,
  type FollowerEnvironment,
  type RequestAbortHandle
} from './task-follower-base.js';
import { isServerTerminal } from './outbound-task-state.js';
import { isLocalFailure, isTaskNotFound } from './task-rpc.js';

/** The connection a follower talks through while its server is attached. */
export interface FollowerConnection extends FollowedConnection {
  readonly client: Client;
}

/**
 * Follows one outbound task on its receiver until nothing more can happen to it.
 *
 * Polls `tasks/get` at the receiver's `pollInterval` (or the backoff), calls `tasks/result`
 * at once on `input_required` and on a terminal status, keeps the outcome whatever it is,
 * tracks the ttl on the injected clock, and concludes `expired` or `lost` when the
 * receiver no longer knows the task. All state changes go through `nextOutboundState`.
 */
export class TaskFollower extends TaskFollowerBase<FollowerConnection, GetTaskResult> {
  #resultInFlight = false;
  /** Set when a `tasks/result` failed without an outcome: the next attempt waits for the next poll, never loops. */
  #resultBackoff = false;
  /** The client the `tools/call` went out on: it holds the SDK's progress handler for this task. */
  #callClient: Client | undefined;

  constructor(env: FollowerEnvironment, view: OutboundTaskView, callClient?: Client) {
    super(env, view);
    this.#callClient = callClient;
  }

  /**
   * True while the result of a terminal task is being fetched. The manager then holds the
   * write of the terminal status so that status and outcome reach disk together, one
   * fsync'd write instead of two; a crash in between loses nothing a poll cannot learn again.
   * The hold is bounded (`SETTLING_HOLD_MS` in write-queue.ts): a `tasks/result` asked while the
   * task waited for input may never be answered.
   */
  override get settling(): boolean {
    return this.#resultInFlight && isServerTerminal(this.view.state);
  }

  /** Stops talking to the server (it disconnected); the ttl is still tracked. */
  override unfollow(): void {
    const wasSettling = this.settling;
    super.unfollow();
    this.#resultInFlight = false;
    if (wasSettling) this.env.changed(this);
  }

  /**
   * Sends `tasks/cancel`. A −32602 answer (the task is already terminal, or unknown) refreshes
   * the state with a poll instead of failing. Other errors are thrown to the caller.
   */
  override async cancel(): Promise<void> {
    const connection = this.connection;
    if (!connection || !this.following) return;
    try {
      const task = await this.send((signal) =>
        connection.client.request(
          { method: 'tasks/cancel', params: { taskId: this.view.taskId } },
          CancelTaskResultSchema,
          { signal, timeout: this.env.requestTimeoutMs }
        )
      );
      if (this.connection !== connection) return;
      this.applyStatus(task);
      this.next();
    } catch (error) {
      if (this.connection !== connection) return;
      if (!isTaskNotFound(error)) throw error;
      await this.poll();
    }
  }

  /** Every request of this follower goes through the SDK's `Client.request`, which needs no more (see RequestAbort). */
  protected override requestAbort(): RequestAbortHandle {
    return new RequestAbort();
  }

  protected override requestTask(connection: FollowerConnection): Promise<GetTaskResult> {
    // A poll gives a `tasks/result` that failed another chance (see `#resultBackoff`).
    this.#resultBackoff = false;
    return this.#getTask(connection);
  }

  protected override takeTask(task: GetTaskResult): boolean {
    const changed = this.applyStatus(task);
    this.clearError('tasks/get');
    return changed;
  }

  /** Fetches the result when due; false while a terminal task's result is being fetched. */
  protected override advance(connection: FollowerConnection): boolean {
    const view = this.view;
    const terminal = isServerTerminal(view.state);
    if (
      view.outcome === undefined &&
      (terminal || view.state === 'input_required') &&
      !this.#resultInFlight &&
      !this.#resultBackoff
    ) {
      void this.#fetchResult(connection);
    }
    // A terminal task whose result is being fetched needs no more polls; the fetch continues from here.
    if (terminal && this.#resultInFlight) {
      this.clearPollTimer();
      return false;
    }
    return true;
  }

  /** Read with the SDK's `GetTaskResultSchema`, without its copy of every answer (see `lean-schemas.ts`). */
  #getTask(connection: FollowerConnection): Promise<GetTaskResult> {
    return this.send((signal) =>
      connection.client.request(
        { method: 'tasks/get', params: { taskId: this.view.taskId } },
        LeanGetTaskResultSchema,
        { signal, timeout: this.env.requestTimeoutMs }
      )
    );
  }

  /**
   * Calls `tasks/result`: on `input_required` it blocks while the receiver's side requests
   * (elicitation, sampling) reach the client's own handlers, and polling goes on meanwhile.
   */
  async #fetchResult(connection: FollowerConnection): Promise<void> {
    this.#resultInFlight = true;
    let settleStatus = false;
    try {
      const result = await this.send((signal) =>
        connection.client.request(
          { method: 'tasks/result', params: { taskId: this.view.taskId } },
          LeanGetTaskPayloadResultSchema,
          { signal, timeout: this.env.resultTimeoutMs }
        )
      );
      if (this.connection !== connection || this.finished) return;
      this.setOutcome({ type: 'result', result: { ...result }, fetchedAt: this.nowIso() });
      // The result can arrive before a poll showed the terminal status: learn it now.
      settleStatus = !isServerTerminal(this.view.state);
    } catch (error) {
      if (this.connection !== connection || this.finished) return;
      if (isLocalFailure(error)) {
        this.recordError('tasks/result', toErrorData(error));
      } else {
        await this.#classifyResultError(connection, error);
      }
    } finally {
      if (this.connection === connection) {
        this.#resultInFlight = false;
        if (this.view.outcome === undefined) this.#resultBackoff = true;
      }
      // Releases a held write (see `settling`), whatever the fetch ended with.
      this.env.changed(this);
    }
    if (this.connection !== connection) return;
    if (settleStatus) void this.poll();
    else this.next();
  }

  /**
   * The receiver answered `tasks/result` with an error. Asks `tasks/get` what that means:
   * unknown task → expired or lost; terminal → the error is the task's outcome (a failed
   * tool's JSON-RPC error); still running → a passing failure, polling goes on.
   */
  async #classifyResultError(connection: FollowerConnection, error: unknown): Promise<void> {
    try {
      const task = await this.#getTask(connection);
      if (this.connection !== connection) return;
      this.applyStatus(task);
      if (isServerTerminal(this.view.state))
        this.setOutcome({ type: 'error', error: toErrorData(error), fetchedAt: this.nowIso() });
      else this.recordError('tasks/result', toErrorData(error));
    } catch (probeError) {
      if (this.connection !== connection) return;
      if (isTaskNotFound(probeError)) this.forgotten(error);
      else this.recordError('tasks/result', toErrorData(error));
    }
  }

  /** Receivers may delete a cancelled task at once; its missing result is its outcome. */
  protected override forgottenBeforeExpiry(detail: ErrorData): boolean {
    if (this.view.state !== 'cancelled') return false;
    this.setOutcome({ type: 'error', error: detail, fetchedAt: this.nowIso() });
    this.stop();
    return true;
  }

  /** An outcome supersedes a failed `tasks/result`. */
  protected override setOutcome(outcome: OutboundOutcome): void {
    if (this.view.outcome !== undefined) return;
    if (this.view.lastError?.method === 'tasks/result') delete this.view.lastError;
    super.setOutcome(outcome);
  }

  /** Nothing more will happen: stop timers and requests, release the SDK's progress handler. */
  protected override stop(): void {
    super.stop();
    if (this.finished && this.#callClient) {
      // The SDK keeps a task's progress handler alive after CreateTaskResult and only a
      // receiver-side store ever releases it; a requestor must, or it leaks one per task.
      releaseTaskProgressHandler(this.#callClient, this.view.taskId);
      this.#callClient = undefined;
    }
  }
}
