import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import type { Clock } from '../core/clock.js';
import { toErrorData, type ErrorData } from '../core/errors.js';
import type { OutboundOutcome, OutboundTaskView, ServerTask } from '../contract/outbound-tasks.js';
import { nextBackoffMs, pollIntervalMs, pollSlot, type PollPolicy } from './poll-policy.js';
import { isOutboundFinished, isServerTerminal, nextOutboundState } from './outbound-task-state.js';
import { isTaskNotFound } from './task-rpc.js';
import type { ScheduledCall, TaskTimers } from './task-timers.js';

/** Why a follower's requests in flight were aborted when it stopped following. */
const STOPPED_FOLLOWING = new Error('Stopped following the task');

/** What aborts one request: an `AbortController`, or the SDK requests' lighter `RequestAbort`. */
export interface RequestAbortHandle {
  readonly signal: AbortSignal;
  abort(reason?: unknown): void;
  /** Readies it for another request once its own has settled; false when it cannot be (aborted). */
  reuse?(): boolean;
}

/** What a follower needs from the manager that owns it. */
export interface FollowerEnvironment {
  readonly clock: Clock;
  readonly policy: PollPolicy;
  /** Where every follower's next poll and expiry wait (one clock timer for all of them). */
  readonly timers: TaskTimers;
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
 * (`TaskFollower` for MCP 2025-11-25, `ModernTaskFollower` for 2026-07-28).
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
  markCancelRequested(requested: boolean): void;
  cancel(): Promise<void>;
}

/** What a follower talks to its server through, whichever the protocol. */
export interface FollowedConnection {
  readonly serverName: string;
  /** The server's process was started for this connection, after the task was created (stdio). */
  readonly startedAnew?: boolean;
}

/**
 * What both followers share: the view and its recorded changes, the ttl and the expiry it
 * concludes, polling `tasks/get` at the receiver's `pollInterval` (or the backoff), status
 * application through `nextOutboundState`, and the conclusion `expired` or `lost` when the receiver
 * no longer knows the task.
 *
 * A subclass says how a poll is made and what its answer carries (`requestTask`, `takeTask`),
 * and may act on the state before the next poll (`advance`). `Connection` is what it talks
 * through while its server is attached; `Answer` is its raw `tasks/get` answer.
 */
export abstract class TaskFollowerBase<Connection extends FollowedConnection, Answer> implements OutboundFollower {
  protected readonly env: FollowerEnvironment;
  readonly #view: OutboundTaskView;
  #connection: Connection | undefined;
  /**
   * Whether requests may be sent (from `follow` until `unfollow`). A flag, not an AbortController
   * of its own: its signal went to no one (each request has its own abort), and aborting it made
   * an Event per task that ended.
   */
  #following = false;
  /** One abort per request in flight (see `send`). */
  readonly #inFlight = new Set<RequestAbortHandle>();
  /** An abort whose request settled, for the next one. */
  #spareAbort: RequestAbortHandle | undefined;
  #nextPoll: ScheduledCall | undefined;
  #ttlTimer: ScheduledCall | undefined;
  #lastPollMs: number;
  #backoffMs: number;
  #pollInFlight: Promise<void> | undefined;
  /** The number of the last poll started, and of the last one ended. */
  #pollSeq = 0;
  #pollDone = 0;
  /** True while a `tasks/get` is on the wire (cleared before deciding what comes next). */
  #polling = false;

  constructor(env: FollowerEnvironment, view: OutboundTaskView) {
    this.env = env;
    this.#view = view;
    this.#lastPollMs = Date.parse(view.createdAt);
    this.#backoffMs = env.policy.initialMs;
  }

  /** The task as it stands (the live object: callers copy before handing it out). */
  get view(): OutboundTaskView {
    return this.#view;
  }

  abstract get settling(): boolean;

  /** Whether nothing more will happen to the task. */
  get finished(): boolean {
    return isOutboundFinished(this.#view.state, this.#view.outcome !== undefined);
  }

  /** The connection being followed through; undefined when not following. */
  protected get connection(): Connection | undefined {
    return this.#connection;
  }

  /** Whether the follower is following through a connection (requests may be sent). */
  protected get following(): boolean {
    return this.#following;
  }

  /**
   * Sends one request with an abort signal of its own, aborted only if following stops while the
   * request is in flight. The SDK adds a listener to a request's signal and never removes it, and
   * on abort sends `notifications/cancelled` for that request: one signal shared by every poll of
   * a task would collect a listener per poll and cancel every one of them, long answered, when the
   * task ends. A signal per request keeps both to the requests actually in flight.
   */
  protected async send<T>(request: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (!this.#following) throw new Error('Not following the task');
    const abort = this.#spareAbort ?? this.requestAbort();
    this.#spareAbort = undefined;
    this.#inFlight.add(abort);
    // An await in a try, not a `finally` handler on the promise (a closure and two promises per request).
    try {
      return await request(abort.signal);
    } finally {
      this.#inFlight.delete(abort);
      // Kept for the next request when it can forget this one's listeners (see RequestAbort.reuse).
      if (abort.reuse?.()) this.#spareAbort = abort;
    }
  }

  /** The abort of one request (see `send`): an AbortController, unless the follower's requests need less. */
  protected requestAbort(): RequestAbortHandle {
    return new AbortController();
  }

  abstract cancel(): Promise<void>;

  /** Sends the `tasks/get` of one poll; rejects with the receiver's error. */
  protected abstract requestTask(connection: Connection): Promise<Answer>;

  /** Records a poll's answer (while still following through `connection`); true when the status changed. */
  protected abstract takeTask(answer: Answer, connection: Connection): boolean;

  /** Acts on the state before the next poll is scheduled; false when none is to be. */
  protected advance(_connection: Connection): boolean {
    return true;
  }

  /** Concludes a task the receiver forgot before its ttl ran out otherwise than `lost`; true when it did. */
  protected forgottenBeforeExpiry(_detail: ErrorData): boolean {
    return false;
  }

  /** Starts (or resumes) following through a connection. `pollNow` polls at once, as after a restart. */
  follow(connection: Connection, options: { pollNow: boolean }): void {
    this.unfollow();
    this.trackTtl();
    if (this.finished) return;
    this.#connection = connection;
    this.#following = true;
    if (options.pollNow) void this.poll();
    else this.next();
  }

  /** Stops talking to the server (it disconnected); the ttl is still tracked. */
  unfollow(): void {
    this.#connection = undefined;
    // One reason for every stop: unfollow runs for each task that ends, and an Error per call (its
    // stack captured) showed in the requestor benchmark's profile for nothing anyone reads.
    this.#following = false;
    // Cleared only when it holds something: clearing a Set gives it a new table, which a task that
    // ended kept for good.
    if (this.#inFlight.size > 0) {
      for (const abort of this.#inFlight) abort.abort(STOPPED_FOLLOWING);
      this.#inFlight.clear();
    }
    this.clearPollTimer();
    this.#pollInFlight = undefined;
    this.#polling = false;
  }

  /** Stops everything, ttl tracking included (the task is being removed or the manager closed). */
  dispose(): void {
    this.unfollow();
    this.#clearTtlTimer();
  }

  /** Arms the expiry timer from the task's ttl; an already past expiry concludes `expired` at once. */
  trackTtl(): void {
    this.#clearTtlTimer();
    const expiresAt = expiresAtOf(this.#view);
    if (expiresAt !== this.#view.expiresAt) {
      this.#view.expiresAt = expiresAt;
      this.changed();
    }
    if (expiresAt === null || this.finished) return;
    const expiresAtMs = Date.parse(expiresAt);
    if (expiresAtMs <= this.env.clock.now()) this.#expire();
    else this.#ttlTimer = this.env.timers.schedule(expiresAtMs, () => this.#expire());
  }

  /** Polls `tasks/get` now (or joins the poll in flight). */
  poll(): Promise<void> {
    if (!this.#connection || this.finished) return Promise.resolve();
    if (this.#pollInFlight) return this.#pollInFlight;
    const poll = this.#pollOnce(this.#connection, ++this.#pollSeq);
    // Unless it already ended (it only awaits once it has sent its request).
    if (this.#pollSeq !== this.#pollDone) this.#pollInFlight = poll;
    return poll;
  }

  /** Records a reported status (a poll, the creation answer, a notification); true when something changed. */
  applyStatus(task: ServerTask): boolean {
    const view = this.#view;
    if (task.taskId !== view.taskId || view.state === 'expired' || view.state === 'lost') return false;
    if (isServerTerminal(view.state) && task.status !== view.state) return false;
    // Polls and notifications can cross: an older non-terminal report must not undo a newer one.
    const current = view.task;
    // Compared as strings first: a poll of a task that has not changed carries the same stamp.
    if (
      !isServerTerminal(task.status) &&
      task.lastUpdatedAt !== current.lastUpdatedAt &&
      Date.parse(task.lastUpdatedAt) < Date.parse(current.lastUpdatedAt)
    )
      return false;
    const same =
      current.status === task.status &&
      current.statusMessage === task.statusMessage &&
      current.ttl === task.ttl &&
      current.pollInterval === task.pollInterval &&
      current.lastUpdatedAt === task.lastUpdatedAt &&
      current.createdAt === task.createdAt;
    if (same) return false;
    const next = nextOutboundState(view.state, { type: 'status', status: task.status });
    // Only the report that ends the task can tell whether its message is new: recorded then, so
    // that no screen shows an interim message as how the task ended, after a reload too.
    if (
      isServerTerminal(task.status) &&
      !isServerTerminal(current.status) &&
      task.statusMessage !== undefined &&
      task.statusMessage === current.statusMessage
    )
      view.messageFromRun = true;
    view.task = pickTask(task);
    if (next !== undefined) view.state = next;
    // Recorded once, when the task turns cancelled: asked for by Taskdesk's Cancel, or the server's own doing.
    if (view.state === 'cancelled' && view.cancelledBy === undefined)
      view.cancelledBy = view.cancelRequestedAt === undefined ? 'server' : 'you';
    this.changed();
    if (current.ttl !== task.ttl) this.trackTtl();
    return true;
  }

  /**
   * Records that the person asked to cancel (before `tasks/cancel` goes out), so that the
   * cancelled status that follows is theirs; `false` takes it back when the server refused.
   */
  markCancelRequested(requested: boolean): void {
    if (requested) this.#view.cancelRequestedAt = this.nowIso();
    else delete this.#view.cancelRequestedAt;
    this.changed();
  }

  /** Handles a status notification: records it, and acts on it without waiting for the next poll. */
  onStatusNotification(task: ServerTask): void {
    if (this.applyStatus(task) && this.#connection) this.next();
  }

  /** Records one progress notification for the call's progress token. */
  recordProgress(progress: Progress): void {
    const entry = { at: this.nowIso(), progress: progress.progress } as OutboundTaskView['progress']['history'][number];
    if (progress.total !== undefined) entry.total = progress.total;
    if (progress.message !== undefined) entry.message = progress.message;
    const log = this.#view.progress;
    log.count += 1;
    log.latest = entry;
    log.history.push(entry);
    if (log.history.length > this.env.progressHistoryLimit)
      log.history.splice(0, log.history.length - this.env.progressHistoryLimit);
    this.changed();
  }

  /** One poll; `seq` is its number, which alone may clear the slot it holds (a newer poll may hold it after a reconnect). */
  async #pollOnce(connection: Connection, seq: number): Promise<void> {
    try {
      this.clearPollTimer();
      this.#lastPollMs = this.env.clock.now();
      this.#polling = true;
      let changed = false;
      try {
        const answer = await this.requestTask(connection);
        if (this.#connection !== connection) return;
        changed = this.takeTask(answer, connection);
      } catch (error) {
        if (this.#connection !== connection) return;
        if (isTaskNotFound(error)) this.forgotten(error);
        else this.recordError('tasks/get', toErrorData(error));
      } finally {
        if (this.#connection === connection) this.#polling = false;
      }
      this.#backoffMs = nextBackoffMs(this.env.policy, this.#backoffMs, changed);
      this.next();
    } finally {
      // Cleared here rather than by a `finally` handler on the promise (a closure and a promise per poll).
      this.#pollDone = seq;
      if (this.#pollSeq === seq) this.#pollInFlight = undefined;
    }
  }

  /** Decides what happens next: act on the state (see `advance`), poll again later, or stop. */
  protected next(): void {
    const connection = this.#connection;
    if (!connection) return;
    if (this.finished) {
      this.stop();
      return;
    }
    if (!this.advance(connection)) return;
    if (this.#polling) return;
    this.clearPollTimer();
    const interval = pollIntervalMs(this.env.policy, this.#view.task.pollInterval, this.#backoffMs);
    const due = pollSlot(Math.max(this.env.clock.now(), this.#lastPollMs + interval));
    this.#nextPoll = this.env.timers.schedule(due, this.#pollDue);
  }

  /** The scheduled poll came due (one function per follower, not a closure per poll). */
  readonly #pollDue = (): void => {
    this.#nextPoll = undefined;
    void this.poll();
  };

  /** The receiver does not know the task: expired when its ttl has (about) run out, lost otherwise. */
  protected forgotten(error: unknown): void {
    const view = this.#view;
    const detail = toErrorData(error);
    const expiresAtMs = view.expiresAt === null ? undefined : Date.parse(view.expiresAt);
    if (expiresAtMs !== undefined && this.env.clock.now() >= expiresAtMs - this.env.expirySlackMs) {
      this.#expire();
      return;
    }
    if (this.forgottenBeforeExpiry(detail)) return;
    const next = nextOutboundState(view.state, { type: 'lost' });
    if (next === undefined) return;
    view.state = next;
    view.reason = lostReason(
      this.#connection?.serverName ?? view.serverName,
      view.taskId,
      detail.message,
      this.#connection?.startedAnew === true
    );
    this.changed();
    this.stop();
  }

  #expire(): void {
    const view = this.#view;
    if (view.outcome !== undefined) return;
    const next = nextOutboundState(view.state, { type: 'expired' });
    if (next === undefined) return;
    view.state = next;
    // Said to a person beside the task, whose ttl and expiry time are shown there.
    view.reason = `The task's ttl ran out before its result was fetched.`;
    this.changed();
    this.stop();
  }

  protected setOutcome(outcome: OutboundOutcome): void {
    if (this.#view.outcome !== undefined) return;
    this.#view.outcome = outcome;
    this.#clearTtlTimer();
    this.changed();
  }

  protected recordError(method: string, error: ErrorData): void {
    this.#view.lastError = { ...error, at: this.nowIso(), method };
    this.changed();
  }

  /** A successful exchange clears the error the last one of its kind left. */
  protected clearError(method: string): void {
    if (this.#view.lastError?.method !== method) return;
    delete this.#view.lastError;
    this.changed();
  }

  /** Nothing more will happen: stop timers and requests. */
  protected stop(): void {
    this.unfollow();
    if (this.finished) this.#clearTtlTimer();
  }

  protected clearPollTimer(): void {
    if (this.#nextPoll) this.env.timers.cancel(this.#nextPoll);
    this.#nextPoll = undefined;
  }

  #clearTtlTimer(): void {
    if (this.#ttlTimer) this.env.timers.cancel(this.#ttlTimer);
    this.#ttlTimer = undefined;
  }

  /** Stamps the view and tells the manager (which persists and emits). */
  protected changed(): void {
    this.#view.updatedAt = this.nowIso();
    this.env.changed(this);
  }

  protected nowIso(): string {
    return new Date(this.env.clock.now()).toISOString();
  }
}

/** As much of a server's answer as a lost task's reason quotes. */
const LOST_ANSWER_LIMIT = 300;

/**
 * Why a task is lost, in a sentence for a person (`startedAnew`: over a connection to a process
 * started after the task was created): the Desk shows it with the task, its id
 * included, so the server's own words are given without the error code, the SDK's
 * "MCP error <code>: " (an SDK server's message already carries one on the wire, and the
 * client adds another) or the task's id ("Task not found: <id>").
 */
function lostReason(serverName: string, taskId: string, answer: string, startedAnew: boolean): string {
  let stripped = answer.replace(/^(?:MCP error -?\d+: )+/, '').trim();
  if (taskId !== '' && stripped.endsWith(taskId)) stripped = stripped.slice(0, -taskId.length).replace(/[\s:]+$/, '');
  if (taskId !== '') stripped = stripped.replaceAll(taskId, 'this task');
  const words = stripped.length > LOST_ANSWER_LIMIT ? `${stripped.slice(0, LOST_ANSWER_LIMIT)}…` : stripped;
  const said = words === '' ? '' : ` (It answered: ${/[.!?…]$/.test(words) ? words : `${words}.`})`;
  // A server Taskdesk started again itself (stdio, after a restart of either) restarted for sure:
  // said as a fact, and why that loses the task, rather than as a guess. Any other is not blamed:
  // it may have restarted, or keep its tasks per session (server-everything over HTTP does), which
  // a new connection does not share.
  return startedAnew
    ? `${serverName} no longer has this task: it was started again since the task was created, and kept no tasks from before.${said}`
    : `${serverName} no longer has this task (it may have restarted, or keeps its tasks for one connection only).${said}`;
}

/** When a task's ttl runs out, as its view records it: its creation here plus the receiver's ttl (null: never). */
export function expiresAtOf(view: Pick<OutboundTaskView, 'createdAt' | 'task'>): string | null {
  const ttl = view.task.ttl;
  return ttl === null ? null : new Date(Date.parse(view.createdAt) + ttl).toISOString();
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
