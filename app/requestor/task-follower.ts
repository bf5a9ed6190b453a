import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CancelTaskResultSchema, GetTaskPayloadResultSchema, GetTaskResultSchema, type Progress } from '@modelcontextprotocol/sdk/types.js';
import type { Clock, TimerHandle } from '../core/clock.js';
import { toErrorData } from '../core/errors.js';
import type { OutboundOutcome, OutboundTaskView, ServerTask } from '../contract/outbound-tasks.js';
import { nextBackoffMs, pollIntervalMs, type PollPolicy } from './poll-policy.js';
import { isFinished, isServerTerminal, nextState } from './task-state.js';
import { isLocalFailure, isTaskNotFound } from './task-rpc.js';

/** What a follower needs from the manager that owns it. */
export interface FollowerEnvironment {
  readonly clock: Clock;
  readonly policy: PollPolicy;
  /** Timeout of `tasks/get` and `tasks/cancel`. */
  readonly requestTimeoutMs: number;
  /** Timeout of a blocking `tasks/result` (the SDK's 60 s default would cut a human's answer short). */
  readonly resultTimeoutMs: number;
  /** A −32602 this close to the ttl estimate counts as expiry, not loss (the receiver's clock started first). */
  readonly expirySlackMs: number;
  readonly progressHistoryLimit: number;
  /** Called after every recorded change; persists and emits. */
  changed(follower: OutboundFollower): void;
}

/**
 * What the manager needs of a follower, whichever protocol it follows the task with
 * ({@link TaskFollower} for MCP 2025-11-25, `ModernTaskFollower` for 2026-07-28).
 */
export interface OutboundFollower {
  /** The task as it stands (the live object: callers copy before handing it out). */
  readonly view: OutboundTaskView;
  /** True while a terminal status waits for its outcome: the manager holds the write. */
  readonly settling: boolean;
  /** Whether nothing more will happen to the task. */
  readonly finished: boolean;
  unfollow(): void;
  dispose(): void;
  trackTtl(): void;
  poll(): Promise<void>;
  onStatusNotification(task: ServerTask): void;
  recordProgress(progress: Progress): void;
  cancel(): Promise<void>;
}

/** The connection a follower talks through while its server is attached. */
export interface FollowerConnection {
  readonly client: Client;
  readonly serverName: string;
}

/**
 * Follows one outbound task on its receiver until nothing more can happen to it.
 *
 * Polls `tasks/get` at the receiver's `pollInterval` (or the backoff), calls `tasks/result`
 * at once on `input_required` and on a terminal status, keeps the outcome whatever it is,
 * tracks the ttl on the injected clock, and concludes `expired` or `lost` when the
 * receiver no longer knows the task. All state changes go through `nextState`.
 */
export class TaskFollower implements OutboundFollower {
  readonly #env: FollowerEnvironment;
  #view: OutboundTaskView;
  #connection: FollowerConnection | undefined;
  /** Aborts this follower's in-flight requests when it stops following (detach, expiry, removal). */
  #abort: AbortController | undefined;
  #pollTimer: TimerHandle | undefined;
  #ttlTimer: TimerHandle | undefined;
  #lastPollMs: number;
  #backoffMs: number;
  #pollInFlight: Promise<void> | undefined;
  /** True while a `tasks/get` is on the wire (cleared before deciding what comes next). */
  #polling = false;
  #resultInFlight = false;
  /** Set when a `tasks/result` failed without an outcome: the next attempt waits for the next poll, never loops. */
  #resultBackoff = false;
  /** The client the `tools/call` went out on: it holds the SDK's progress handler for this task. */
  #callClient: Client | undefined;

  constructor(env: FollowerEnvironment, view: OutboundTaskView, callClient?: Client) {
    this.#env = env;
    this.#view = view;
    this.#callClient = callClient;
    this.#lastPollMs = Date.parse(view.createdAt);
    this.#backoffMs = env.policy.initialMs;
  }

  /** The task as it stands (the live object: callers copy before handing it out). */
  get view(): OutboundTaskView {
    return this.#view;
  }

  /**
   * True while the result of a terminal task is being fetched. The manager then holds the
   * write of the terminal status so that status and outcome reach disk together, one
   * fsync'd write instead of two; a crash in between loses nothing a poll cannot learn again.
   */
  get settling(): boolean {
    return this.#resultInFlight && isServerTerminal(this.#view.state);
  }

  /** Whether nothing more will happen to the task. */
  get finished(): boolean {
    return isFinished(this.#view.state, this.#view.outcome !== undefined);
  }

  /** Starts (or resumes) following through a connection. `pollNow` polls at once, as after a restart. */
  follow(connection: FollowerConnection, options: { pollNow: boolean }): void {
    this.unfollow();
    this.trackTtl();
    if (this.finished) return;
    this.#connection = connection;
    this.#abort = new AbortController();
    if (options.pollNow) void this.poll();
    else this.#next();
  }

  /** Stops talking to the server (it disconnected); the ttl is still tracked. */
  unfollow(): void {
    const wasSettling = this.settling;
    this.#connection = undefined;
    this.#abort?.abort(new Error('Stopped following the task'));
    this.#abort = undefined;
    this.#clearPollTimer();
    this.#resultInFlight = false;
    this.#pollInFlight = undefined;
    this.#polling = false;
    if (wasSettling) this.#env.changed(this);
  }

  /** Stops everything, ttl tracking included (the task is being removed or the manager closed). */
  dispose(): void {
    this.unfollow();
    if (this.#ttlTimer) this.#env.clock.clearTimeout(this.#ttlTimer);
    this.#ttlTimer = undefined;
  }

  /** Arms the expiry timer from the task's ttl; an already past expiry concludes `expired` at once. */
  trackTtl(): void {
    if (this.#ttlTimer) this.#env.clock.clearTimeout(this.#ttlTimer);
    this.#ttlTimer = undefined;
    const ttl = this.#view.task.ttl;
    const expiresAt = ttl === null ? null : new Date(Date.parse(this.#view.createdAt) + ttl).toISOString();
    if (expiresAt !== this.#view.expiresAt) {
      this.#view.expiresAt = expiresAt;
      this.#changed();
    }
    if (expiresAt === null || this.finished) return;
    const delay = Date.parse(expiresAt) - this.#env.clock.now();
    if (delay <= 0) this.#expire();
    else this.#ttlTimer = this.#env.clock.setTimeout(() => this.#expire(), delay);
  }

  /** Polls `tasks/get` now (or joins the poll in flight). */
  poll(): Promise<void> {
    if (!this.#connection || this.finished) return Promise.resolve();
    if (this.#pollInFlight) return this.#pollInFlight;
    // Only this poll may clear the slot: after a reconnect a newer poll may hold it.
    const poll: Promise<void> = this.#pollOnce(this.#connection).finally(() => {
      if (this.#pollInFlight === poll) this.#pollInFlight = undefined;
    });
    this.#pollInFlight = poll;
    return poll;
  }

  /** Records what a status notification (or any other source) says about the task. */
  applyStatus(task: ServerTask): boolean {
    const view = this.#view;
    if (task.taskId !== view.taskId || view.state === 'expired' || view.state === 'lost') return false;
    if (isServerTerminal(view.state) && task.status !== view.state) return false;
    // Polls and notifications can cross: an older non-terminal report must not undo a newer one.
    if (!isServerTerminal(task.status) && Date.parse(task.lastUpdatedAt) < Date.parse(view.task.lastUpdatedAt)) return false;
    const current = view.task;
    const same =
      current.status === task.status &&
      current.statusMessage === task.statusMessage &&
      current.ttl === task.ttl &&
      current.pollInterval === task.pollInterval &&
      current.lastUpdatedAt === task.lastUpdatedAt &&
      current.createdAt === task.createdAt;
    if (same) return false;
    const next = nextState(view.state, { type: 'status', status: task.status });
    view.task = pickTask(task);
    if (next !== undefined) view.state = next;
    this.#changed();
    if (current.ttl !== task.ttl) this.trackTtl();
    return true;
  }

  /** Handles a status notification: records it, and acts on it without waiting for the next poll. */
  onStatusNotification(task: ServerTask): void {
    if (this.applyStatus(task) && this.#connection) this.#next();
  }

  /** Records one progress notification for the call's progress token. */
  recordProgress(progress: Progress): void {
    const entry = { at: this.#nowIso(), progress: progress.progress } as OutboundTaskView['progress']['history'][number];
    if (progress.total !== undefined) entry.total = progress.total;
    if (progress.message !== undefined) entry.message = progress.message;
    const log = this.#view.progress;
    log.count += 1;
    log.latest = entry;
    log.history.push(entry);
    if (log.history.length > this.#env.progressHistoryLimit) log.history.splice(0, log.history.length - this.#env.progressHistoryLimit);
    this.#changed();
  }

  /**
   * Sends `tasks/cancel`. A −32602 answer (the task is already terminal, or unknown) refreshes
   * the state with a poll instead of failing. Other errors are thrown to the caller.
   */
  async cancel(): Promise<void> {
    const connection = this.#connection;
    const abort = this.#abort;
    if (!connection || !abort) return;
    try {
      const task = await connection.client.request({ method: 'tasks/cancel', params: { taskId: this.#view.taskId } }, CancelTaskResultSchema, {
        signal: abort.signal,
        timeout: this.#env.requestTimeoutMs
      });
      if (this.#connection !== connection) return;
      this.applyStatus(pickTask(task));
      this.#next();
    } catch (error) {
      if (this.#connection !== connection) return;
      if (!isTaskNotFound(error)) throw error;
      await this.poll();
    }
  }

  async #pollOnce(connection: FollowerConnection): Promise<void> {
    this.#clearPollTimer();
    this.#lastPollMs = this.#env.clock.now();
    this.#resultBackoff = false;
    this.#polling = true;
    let changed = false;
    try {
      const task = await connection.client.request({ method: 'tasks/get', params: { taskId: this.#view.taskId } }, GetTaskResultSchema, {
        signal: this.#abort?.signal,
        timeout: this.#env.requestTimeoutMs
      });
      if (this.#connection !== connection) return;
      changed = this.applyStatus(pickTask(task));
      if (this.#view.lastError?.method === 'tasks/get') {
        delete this.#view.lastError;
        this.#changed();
      }
    } catch (error) {
      if (this.#connection !== connection) return;
      if (isTaskNotFound(error)) this.#forgotten(error);
      else this.#recordError('tasks/get', error);
    } finally {
      if (this.#connection === connection) this.#polling = false;
    }
    this.#backoffMs = nextBackoffMs(this.#env.policy, this.#backoffMs, changed);
    this.#next();
  }

  /** Decides what happens next: fetch the result, poll again later, or stop. */
  #next(): void {
    if (!this.#connection) return;
    if (this.finished) {
      this.#stop();
      return;
    }
    const view = this.#view;
    const terminal = isServerTerminal(view.state);
    if (view.outcome === undefined && (terminal || view.state === 'input_required') && !this.#resultInFlight && !this.#resultBackoff) {
      void this.#fetchResult(this.#connection);
    }
    // A terminal task whose result is being fetched needs no more polls; the fetch continues from here.
    if (terminal && this.#resultInFlight) {
      this.#clearPollTimer();
      return;
    }
    if (this.#polling) return;
    this.#schedulePoll();
  }

  #schedulePoll(): void {
    this.#clearPollTimer();
    const interval = pollIntervalMs(this.#env.policy, this.#view.task.pollInterval, this.#backoffMs);
    const delay = Math.max(0, this.#lastPollMs + interval - this.#env.clock.now());
    this.#pollTimer = this.#env.clock.setTimeout(() => {
      this.#pollTimer = undefined;
      void this.poll();
    }, delay);
  }

  /**
   * Calls `tasks/result`: on `input_required` it blocks while the receiver's side requests
   * (elicitation, sampling) reach the client's own handlers, and polling goes on meanwhile.
   */
  async #fetchResult(connection: FollowerConnection): Promise<void> {
    this.#resultInFlight = true;
    let settleStatus = false;
    try {
      const result = await connection.client.request({ method: 'tasks/result', params: { taskId: this.#view.taskId } }, GetTaskPayloadResultSchema, {
        signal: this.#abort?.signal,
        timeout: this.#env.resultTimeoutMs
      });
      if (this.#connection !== connection || this.finished) return;
      this.#setOutcome({ type: 'result', result: { ...result }, fetchedAt: this.#nowIso() });
      // The result can arrive before a poll showed the terminal status: learn it now.
      settleStatus = !isServerTerminal(this.#view.state);
    } catch (error) {
      if (this.#connection !== connection || this.finished) return;
      if (isLocalFailure(error)) {
        this.#recordError('tasks/result', error);
      } else {
        await this.#classifyResultError(connection, error);
      }
    } finally {
      if (this.#connection === connection) {
        this.#resultInFlight = false;
        if (this.#view.outcome === undefined) this.#resultBackoff = true;
      }
      // Releases a held write (see `settling`), whatever the fetch ended with.
      this.#env.changed(this);
    }
    if (this.#connection !== connection) return;
    if (settleStatus) void this.poll();
    else this.#next();
  }

  /**
   * The receiver answered `tasks/result` with an error. Asks `tasks/get` what that means:
   * unknown task → expired or lost; terminal → the error is the task's outcome (a failed
   * tool's JSON-RPC error); still running → a passing failure, polling goes on.
   */
  async #classifyResultError(connection: FollowerConnection, error: unknown): Promise<void> {
    try {
      const task = await connection.client.request({ method: 'tasks/get', params: { taskId: this.#view.taskId } }, GetTaskResultSchema, {
        signal: this.#abort?.signal,
        timeout: this.#env.requestTimeoutMs
      });
      if (this.#connection !== connection) return;
      this.applyStatus(pickTask(task));
      if (isServerTerminal(this.#view.state)) this.#setOutcome({ type: 'error', error: toErrorData(error), fetchedAt: this.#nowIso() });
      else this.#recordError('tasks/result', error);
    } catch (probeError) {
      if (this.#connection !== connection) return;
      if (isTaskNotFound(probeError)) this.#forgotten(error);
      else this.#recordError('tasks/result', error);
    }
  }

  /** The receiver does not know the task: expired when its ttl has (about) run out, lost otherwise. */
  #forgotten(error: unknown): void {
    const view = this.#view;
    const detail = toErrorData(error);
    const expiresAtMs = view.expiresAt === null ? undefined : Date.parse(view.expiresAt);
    if (expiresAtMs !== undefined && this.#env.clock.now() >= expiresAtMs - this.#env.expirySlackMs) {
      this.#expire();
      return;
    }
    if (view.state === 'cancelled') {
      // Receivers may delete a cancelled task at once; its missing result is its outcome.
      this.#setOutcome({ type: 'error', error: detail, fetchedAt: this.#nowIso() });
      this.#stop();
      return;
    }
    const next = nextState(view.state, { type: 'lost' });
    if (next === undefined) return;
    view.state = next;
    view.reason =
      `Server "${this.#connection?.serverName ?? view.serverName}" no longer knows task ${view.taskId} ` +
      `(it answered ${detail.code}: ${detail.message}) although the task's ttl had not run out; the server may have restarted.`;
    this.#changed();
    this.#stop();
  }

  #expire(): void {
    const view = this.#view;
    if (view.outcome !== undefined) return;
    const next = nextState(view.state, { type: 'expired' });
    if (next === undefined) return;
    view.state = next;
    view.reason = `The task's ttl (${view.task.ttl} ms from ${view.createdAt}) ran out at ${view.expiresAt} before its result was fetched.`;
    this.#changed();
    this.#stop();
  }

  #setOutcome(outcome: OutboundOutcome): void {
    if (this.#view.outcome !== undefined) return;
    this.#view.outcome = outcome;
    if (this.#view.lastError?.method === 'tasks/result') delete this.#view.lastError;
    if (this.#ttlTimer) this.#env.clock.clearTimeout(this.#ttlTimer);
    this.#ttlTimer = undefined;
    this.#changed();
  }

  #recordError(method: string, error: unknown): void {
    if (this.#abort?.signal.aborted) return;
    this.#view.lastError = { ...toErrorData(error), at: this.#nowIso(), method };
    this.#changed();
  }

  /** Nothing more will happen: stop timers and requests, release the SDK's progress handler. */
  #stop(): void {
    this.unfollow();
    if (this.#ttlTimer && this.finished) {
      this.#env.clock.clearTimeout(this.#ttlTimer);
      this.#ttlTimer = undefined;
    }
    if (this.finished && this.#callClient) {
      // The SDK keeps a task's progress handler alive after CreateTaskResult and only a
      // receiver-side store ever releases it; a requestor must, or it leaks one per task.
      (this.#callClient as unknown as { _cleanupTaskProgressHandler?(taskId: string): void })._cleanupTaskProgressHandler?.(this.#view.taskId);
      this.#callClient = undefined;
    }
  }

  #clearPollTimer(): void {
    if (this.#pollTimer) this.#env.clock.clearTimeout(this.#pollTimer);
    this.#pollTimer = undefined;
  }

  #changed(): void {
    this.#view.updatedAt = this.#nowIso();
    this.#env.changed(this);
  }

  #nowIso(): string {
    return new Date(this.#env.clock.now()).toISOString();
  }
}

/** The `Task` fields of a receiver answer, without `_meta` or anything else it carried. */
export function pickTask(task: ServerTask & Record<string, unknown>): ServerTask {
  const picked: ServerTask = {
    taskId: task.taskId,
    status: task.status,
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttl: task.ttl
  };
  if (task.statusMessage !== undefined) picked.statusMessage = task.statusMessage;
  if (task.pollInterval !== undefined) picked.pollInterval = task.pollInterval;
  return picked;
}
