import { randomBytes } from 'node:crypto';
import type { AuditSink } from '../audit/audit-log.js';
import { questionPreview } from '../audit/question-preview.js';
import type { Clock, TimerHandle } from '../core/clock.js';
import { RELATED_TASK_META_KEY } from '@modelcontextprotocol/sdk/types.js';
import { HostError, JsonRpcCode, ShuttingDownError, toErrorData, type ErrorData } from '../core/errors.js';
import { effectiveTtl, type ReceiverPolicy } from './receiver-policy.js';
import { RateLimiter } from './rate-limiter.js';
import type { SamplingRunner, UserPrompter, WorkContext, WorkOutcome } from './runners.js';
import {
  TASK_RECORD_VERSION,
  type Outcome,
  type TaskKind,
  type TaskOwner,
  type TaskRecord,
  type TaskView,
  relatedTaskOf,
  withNote
} from './task-record.js';
import { partSize, recordBytes, type TaskRepository } from './task-repository.js';
import { canReceivedTaskTransition, isTerminal } from './received-task-state.js';
import { TaskWaiters } from './task-waiters.js';
import { resultFetchedAtOf } from './result-fetch.js';
import { cancelledByOf } from './cancelled-by.js';
import { CANCELLED_IN_TASKDESK, WORKING_ON_IT } from './status-messages.js';
import { decodeCursor, encodeCursor } from './list-cursor.js';
import { paramsBytes } from './request-size.js';
import { jsonBytesAtLeast, partText } from '../store/json-text.js';

/** What the receiver tells the rest of the host. */
export interface ReceiverEvents {
  /**
   * A task was created, changed, or removed (`record` undefined). `noted`: only a note of a
   * finished task changed (its result fetched), nothing of its course: History has nothing to
   * add (and may have let the task's entry go already), the windows show it.
   */
  taskChanged(taskId: string, record: TaskRecord | undefined, noted?: true): void;
  /** A status changed: send `notifications/tasks/status` to the owner if it is connected. */
  statusChanged(owner: TaskOwner, task: TaskView): void;
  /** Progress for a request's progress token. */
  progress(
    owner: TaskOwner,
    taskId: string | undefined,
    progressToken: string | number,
    progress: number,
    total?: number,
    message?: string
  ): void;
  /** An ordinary (not task-augmented) request ended: answered, refused, failed or cancelled. */
  ordinaryEnded?(ended: EndedOrdinaryRequest): void;
}

/**
 * An ordinary request that ended, for the person's record (History): what was asked, what it
 * waited for on the way and how it ended. One still open when Taskdesk closes is told as it
 * closes, cancelled by Taskdesk (see {@link STOPPED_BEFORE_ANSWER}).
 */
export interface EndedOrdinaryRequest {
  owner: TaskOwner;
  kind: TaskKind;
  /** The request's params without `_meta`: read it, never change it. */
  request: Record<string, unknown>;
  /** The requestor-side task it was asked for (its related-task `_meta`), if any. */
  relatedTaskId?: string;
  askedAt: string;
  endedAt: string;
  /** What it waited for on the way, as a task's status messages say it ("Waiting for your answer in the Inbox"). */
  steps: ReadonlyArray<{ at: string; message: string }>;
  /** What its runner noted on the way (`WorkContext.annotate`), as a task's notes: e.g. the request as it ran. */
  notes?: ReadonlyArray<Record<string, unknown>>;
  outcome: WorkOutcome<Record<string, unknown>>;
  /**
   * Set when the request was cancelled before its answer went out: no answer reached the server.
   * `by` the server (its `notifications/cancelled`, or its connection closed), by you (the tool
   * call a question was asked for, cancelled), by Taskdesk (it closed while the request was open),
   * or unknown; `reason` in words, when there is one.
   */
  cancelled?: { by?: 'you' | 'server' | 'taskdesk'; reason?: string };
}

/** Why an ordinary request still open when Taskdesk closed ended, in words for a person. */
export const STOPPED_BEFORE_ANSWER = 'Taskdesk stopped before it was answered; the server was not answered';

/** Options for {@link TaskReceiver}. */
export interface TaskReceiverOptions {
  repository: TaskRepository;
  clock: Clock;
  policy: ReceiverPolicy;
  audit: AuditSink;
  sampling: SamplingRunner;
  elicitation: UserPrompter;
  events: ReceiverEvents;
  /** Signs `tasks/list` cursors; kept across restarts, a server can page on after one. Random when absent. */
  cursorKey?: Buffer;
  /**
   * The values Taskdesk holds as secrets, read at each entry: masked in the question a task's
   * audit entries quote (see `#question`). None when absent.
   */
  secretValues?: () => Iterable<string>;
}

/** Extra facts about an incoming request, from its JSON-RPC envelope. */
export interface RequestInfo {
  progressToken?: string | number;
  /** The requestor-side task this request belongs to (related-task metadata). */
  relatedTaskId?: string;
  /**
   * Aborted when the server cancels the request (`notifications/cancelled`). For a task-augmented
   * request, only until its `CreateTaskResult` is sent: see `create`.
   */
  signal?: AbortSignal;
}

/** How long after a failed write the store is tried again. */
const STORE_RETRY_MS = 5_000;

/** The most waiting steps an ordinary request keeps for History (the first and the latest). */
const MAX_ORDINARY_STEPS = 50;

const STATUS_MESSAGES = {
  working: WORKING_ON_IT,
  restartedResumed: 'Taskdesk restarted; the request is waiting again.',
  restartedFailed:
    'Taskdesk restarted while this request was running; it was not run again, to avoid doing the work twice.',
  cancelled: 'The task was cancelled by request.',
  cancelledBeforeAcknowledged: 'The server cancelled the request before Taskdesk acknowledged the task.'
} as const;

/** Who cancelled an ordinary request and why, from what its signal was aborted with. */
function cancellationOf(reason: unknown): NonNullable<EndedOrdinaryRequest['cancelled']> {
  // The SDK aborts with the reason of the server's notifications/cancelled, or with no reason (an
  // AbortError) for one without a reason and for a connection that closed.
  if (typeof reason === 'string') return { by: 'server', ...(reason !== '' && { reason }) };
  if (reason instanceof DOMException && reason.name === 'AbortError') return { by: 'server' };
  if (reason instanceof HostError && reason.code === JsonRpcCode.RequestCancelled)
    return { by: 'you', reason: reason.message };
  return reason instanceof Error && reason.message !== '' ? { reason: reason.message } : {};
}

/** A step of an ordinary request on its way (see {@link EndedOrdinaryRequest}). */
type OrdinaryStep = EndedOrdinaryRequest['steps'][number];

/** An ordinary request in progress: what its History entry is made of. */
interface OpenOrdinary {
  owner: TaskOwner;
  kind: TaskKind;
  request: Record<string, unknown>;
  relatedTaskId?: string;
  askedAt: string;
  steps: OrdinaryStep[];
  notes: Array<Record<string, unknown>>;
}

/** Why a task left the store before its TTL ran out (audited with its expiry). */
type EarlyExpiry = 'storage-bound';

/**
 * The receiver side of the MCP tasks utility (2025-11-25) for `sampling/createMessage` and
 * `elicitation/create`.
 *
 * It owns every status transition (`#transition`), persists each one before telling anyone,
 * runs the work through the sampling runner or the user prompter, wakes `tasks/result`
 * waiters on terminal status, expires tasks at their TTL, and scopes every operation to the
 * owner identity of the connection that created the task.
 */
export class TaskReceiver {
  readonly #repo: TaskRepository;
  readonly #clock: Clock;
  readonly #policy: ReceiverPolicy;
  readonly #audit: AuditSink;
  readonly #sampling: SamplingRunner;
  readonly #elicitation: UserPrompter;
  readonly #events: ReceiverEvents;
  readonly #secretValues: () => Iterable<string>;
  readonly #limiter: RateLimiter;
  /** Bytes of request params per server: a token bucket of bytes. */
  readonly #byteLimiter: RateLimiter;
  readonly #waiters = new TaskWaiters<Outcome>();
  readonly #running = new Map<string, AbortController>();
  readonly #expiryTimers = new Map<string, TimerHandle>();
  readonly #cursorKey: Buffer;
  /** Tasks whose last write failed and is to be tried again. */
  readonly #retrying = new Set<string>();
  /** The last creation sequence number given out (continued from the store on restore). */
  #sequence = 0;
  /** Ordinary (not task-augmented) requests in progress, per owner identity. */
  readonly #ordinaryPending = new Map<string, number>();
  /** Bytes of the params of those requests, per owner identity and in total: held like unfinished tasks. */
  readonly #ordinaryBytes = new Map<string, number>();
  #ordinaryBytesTotal = 0;
  /** Those requests themselves: told as cancelled by Taskdesk when it closes. */
  readonly #ordinaryOpen = new Set<OpenOrdinary>();
  /** Set by `close()`: work aborted by a shutdown must not be recorded as failed. */
  #closed = false;

  constructor(options: TaskReceiverOptions) {
    this.#repo = options.repository;
    this.#clock = options.clock;
    this.#policy = options.policy;
    this.#audit = options.audit;
    this.#sampling = options.sampling;
    this.#elicitation = options.elicitation;
    this.#events = options.events;
    this.#secretValues = options.secretValues ?? (() => []);
    this.#cursorKey = options.cursorKey ?? randomBytes(32);
    this.#limiter = new RateLimiter(this.#clock, this.#policy.operationsPerSecond, this.#policy.operationsBurst);
    this.#byteLimiter = new RateLimiter(
      this.#clock,
      this.#policy.requestBytesPerSecond,
      Math.max(this.#policy.requestBytesBurst, this.#policy.maxRequestBytes)
    );
  }

  /**
   * Picks up the tasks a previous run left on disk.
   *
   * Expired tasks are deleted; work a resumable runner owned (a question in the inbox)
   * starts again; work that was running in a non-resumable runner (a model call) fails
   * with a status message. Each status change is announced through `statusChanged`, which
   * the host delivers when the owning server is connected.
   */
  restore(): {
    loaded: number;
    expired: number;
    /** Finished tasks expired early at load because the store held more than the bounds allow. */
    evicted: number;
    /** The most the load held at once (see `LoadReport.peak`). */
    peak: { tasks: number; bytes: number };
    resumed: number;
    failed: number;
    quarantined: Array<{ id: string; reason: string; movedTo: string }>;
  } {
    const report = this.#repo.load();
    // Quarantined data is reported to the caller (the host warns and audits it).
    const summary = {
      loaded: report.loaded,
      expired: 0,
      evicted: report.evicted.length,
      peak: report.peak,
      resumed: 0,
      failed: 0,
      quarantined: report.quarantined
    };
    // Dropped while loading (the load never held them all): the rest of their expiry.
    for (const { taskId, owner, status } of report.evicted) {
      this.#repo.remove(taskId).catch((error: unknown) => this.#removeFailed(owner, taskId, error));
      this.#auditExpiry(owner, taskId, status, 'storage-bound');
    }
    const now = this.#clock.now();
    // The stored versions themselves (no copies of what may be megabytes): nothing below changes them.
    const records = [...this.#repo.peekAll()];
    for (const record of records) this.#sequence = Math.max(this.#sequence, record.sequence);
    for (const record of records) {
      if (record.expiresAt !== null && record.expiresAt <= now) {
        this.#expire(record.task.taskId);
        summary.expired++;
        continue;
      }
      this.#scheduleExpiry(record);
      if (isTerminal(record.task.status)) continue;
      const runner = record.kind === 'sampling' ? this.#sampling : this.#elicitation;
      const resumable =
        record.kind === 'sampling' && this.#sampling.canResume
          ? this.#sampling.canResume(record.notes)
          : runner.resumable;
      if (resumable) {
        summary.resumed++;
        const resumed = this.#touch(record, { statusMessage: STATUS_MESSAGES.restartedResumed });
        this.#audit.record({
          ...auditOwner(record.owner),
          type: 'task.resumed',
          taskId: record.task.taskId,
          ...this.#questionDetail(record)
        });
        this.#startWork(resumed);
      } else {
        summary.failed++;
        this.#finish(record.task.taskId, {
          type: 'error',
          error: { code: JsonRpcCode.InternalError, message: STATUS_MESSAGES.restartedFailed }
        });
      }
    }
    return summary;
  }

  /**
   * Accepts a task-augmented request: persists the task, starts the work, and returns the
   * `CreateTaskResult` to answer with. Throws a `HostError` for a refused request.
   *
   * A request the server cancels (`info.signal`) before its `CreateTaskResult` is sent gets no
   * answer (the SDK sends none once a request is cancelled), so its server never learns of the
   * task: none is made, or the one stored meanwhile is cancelled at once, by the server, before its
   * work starts. Once the answer is on its way the signal is not looked at again: a task its
   * server was told of ends only by `tasks/cancel`, its ttl, or its work.
   */
  async create(
    owner: TaskOwner,
    kind: TaskKind,
    params: Record<string, unknown>,
    info: RequestInfo = {}
  ): Promise<{ task: TaskView }> {
    if (info.signal?.aborted) throw new HostError(JsonRpcCode.RequestCancelled, 'The server cancelled the request.');
    this.#admit(owner);
    const { task: _task, _meta: _ignored, ...request } = params;
    this.#checkSize(owner, params, request);
    const active = this.#repo.activeCount(owner.identity);
    if (active >= this.#policy.maxActiveTasksPerServer) {
      throw new HostError(
        JsonRpcCode.TooManyRequests,
        `Too many open tasks: this server already has ${active} unfinished tasks in Taskdesk (limit ${this.#policy.maxActiveTasksPerServer}). Wait for some to finish or cancel them.`,
        { limit: this.#policy.maxActiveTasksPerServer }
      );
    }
    const requestedTtl = (params.task as { ttl?: number | null } | undefined)?.ttl;
    const ttl = effectiveTtl(this.#policy, kind, requestedTtl);
    const now = this.#clock.now();
    const iso = new Date(now).toISOString();
    const record: TaskRecord = {
      schemaVersion: TASK_RECORD_VERSION,
      task: {
        taskId: newTaskId(),
        status: 'working',
        statusMessage: STATUS_MESSAGES.working,
        createdAt: iso,
        lastUpdatedAt: iso,
        ttl,
        pollInterval: this.#policy.pollInterval[kind]
      },
      owner,
      kind,
      request,
      ...(info.progressToken !== undefined && { progressToken: info.progressToken }),
      expiresAt: now + ttl,
      notes: info.relatedTaskId ? [{ relatedTaskId: info.relatedTaskId }] : [],
      sequence: ++this.#sequence
    };
    this.#checkOpenBytes(owner, recordBytes(record));
    // On disk (group-committed with the other changes of this turn) before it is acknowledged.
    try {
      await this.#repo.save(record);
    } catch (error) {
      this.#repo.discard(record.task.taskId);
      this.#storeFailed(record, error);
      throw new HostError(
        JsonRpcCode.InternalError,
        `Taskdesk could not store the task: ${toErrorData(error).message}`
      );
    }
    this.#audit.record({
      ...auditOwner(owner),
      type: 'task.created',
      taskId: record.task.taskId,
      detail: { kind, ...this.#question(record), ttl, requestedTtl: requestedTtl ?? null }
    });
    // Shut down while the write was in flight: the task is stored, and the next start takes it up.
    if (this.#closed) return { task: { ...record.task } };
    this.#enforceBounds(owner.identity);
    this.#scheduleExpiry(record);
    this.#events.taskChanged(record.task.taskId, record);
    if (info.signal?.aborted) {
      // Cancelled while it was stored: no answer will go out, and nobody could ever cancel it.
      const ended = this.#end(record, STATUS_MESSAGES.cancelledBeforeAcknowledged, 'server', false);
      await ended.durable.catch(() => undefined);
      throw new HostError(JsonRpcCode.RequestCancelled, STATUS_MESSAGES.cancelledBeforeAcknowledged);
    }
    // No status notification can overtake the CreateTaskResult: the reply goes out in this
    // turn, and a transition is announced only after a later commit. So does the SDK's look at
    // the signal (nothing here waits between the one above and the reply).
    queueMicrotask(() => this.#startWork(record));
    return { task: { ...record.task } };
  }

  /**
   * Runs an ordinary (not task-augmented) request through the same runners.
   *
   * Returns the result, or throws the JSON-RPC error the request is answered with.
   */
  async runOrdinary(
    owner: TaskOwner,
    kind: TaskKind,
    params: Record<string, unknown>,
    info: RequestInfo = {}
  ): Promise<Record<string, unknown>> {
    // Ordinary requests wait on the same people and models as tasks: the same limits apply.
    this.#admit(owner);
    const { _meta: _ignored, ...request } = params;
    this.#checkSize(owner, params, request);
    const pending = this.#ordinaryPending.get(owner.identity) ?? 0;
    if (pending + this.#repo.activeCount(owner.identity) >= this.#policy.maxActiveTasksPerServer) {
      throw new HostError(
        JsonRpcCode.TooManyRequests,
        `Too many open requests: this server already has ${pending} requests and ${this.#repo.activeCount(owner.identity)} tasks waiting in Taskdesk (limit ${this.#policy.maxActiveTasksPerServer}).`,
        { limit: this.#policy.maxActiveTasksPerServer }
      );
    }
    // Not stored, but held in memory (and in the inbox) until answered, as an unfinished task is.
    const bytes = partSize(request);
    this.#checkOpenBytes(owner, bytes);
    this.#ordinaryPending.set(owner.identity, pending + 1);
    this.#ordinaryBytes.set(owner.identity, (this.#ordinaryBytes.get(owner.identity) ?? 0) + bytes);
    this.#ordinaryBytesTotal += bytes;
    const controller = new AbortController();
    const onAbort = () => controller.abort(info.signal?.reason);
    info.signal?.addEventListener('abort', onAbort, { once: true });
    const ordinary: OpenOrdinary = {
      owner,
      kind,
      request,
      ...(info.relatedTaskId !== undefined && { relatedTaskId: info.relatedTaskId }),
      askedAt: new Date(this.#clock.now()).toISOString(),
      steps: [],
      notes: []
    };
    this.#ordinaryOpen.add(ordinary);
    try {
      const context = this.#context(owner, controller.signal, info, undefined, ordinary);
      const outcome = await this.#run(kind, request, context);
      // Once cancelled, the SDK sends no answer, whatever the work ended with.
      this.#ordinaryEnded(
        ordinary,
        outcome,
        controller.signal.aborted ? cancellationOf(controller.signal.reason) : undefined
      );
      if (outcome.type === 'error') throw new HostError(outcome.error.code, outcome.error.message, outcome.error.data);
      // A reply to a request that belongs to a task carries the task's metadata (spec: "Associating
      // Task-Related Messages"); errors have no _meta to carry it.
      return info.relatedTaskId === undefined
        ? outcome.result
        : {
            ...outcome.result,
            _meta: {
              ...(outcome.result._meta as Record<string, unknown> | undefined),
              [RELATED_TASK_META_KEY]: { taskId: info.relatedTaskId }
            }
          };
    } finally {
      this.#ordinaryOpen.delete(ordinary);
      info.signal?.removeEventListener('abort', onAbort);
      const left = (this.#ordinaryPending.get(owner.identity) ?? 1) - 1;
      if (left > 0) this.#ordinaryPending.set(owner.identity, left);
      else this.#ordinaryPending.delete(owner.identity);
      const held = (this.#ordinaryBytes.get(owner.identity) ?? bytes) - bytes;
      if (left > 0) this.#ordinaryBytes.set(owner.identity, held);
      else this.#ordinaryBytes.delete(owner.identity);
      this.#ordinaryBytesTotal -= bytes;
    }
  }

  /** `tasks/get`: the current state of one of the owner's tasks. */
  get(owner: TaskOwner, taskId: string): TaskView {
    this.#admit(owner);
    return { ...this.#owned(owner, taskId).task };
  }

  /**
   * `tasks/result`: waits until the task is terminal, then returns what the original
   * request would have returned. The wait is event-driven and ends when `signal` aborts.
   */
  async result(owner: TaskOwner, taskId: string, signal?: AbortSignal): Promise<Outcome> {
    this.#admit(owner);
    const record = this.#owned(owner, taskId);
    // Only an outcome on disk is served: a crash must not take back a result a server has seen.
    const outcome = record.outcome ?? (await this.#waiters.wait(taskId, signal));
    this.#audit.record({
      ...auditOwner(owner),
      type: 'task.result-retrieved',
      taskId,
      detail: { ...this.#question(record), outcome: outcome.type }
    });
    this.#noteFetched(taskId);
    return outcome;
  }

  /**
   * The first time a finished task's result is fetched, noted with it: the Desk tells an answer
   * its server collected from one kept for a server that never asked (a stdio server started
   * again has lost its tasks). Later fetches change nothing. Not waited for: the result is
   * served whatever the disk does with the note.
   */
  #noteFetched(taskId: string): void {
    if (this.#closed) return;
    const latest = this.#repo.peek(taskId);
    if (!latest || !isTerminal(latest.task.status) || resultFetchedAtOf(latest) !== undefined) return;
    const at = new Date(this.#clock.now()).toISOString();
    // A new version with a new notes list: the stored one and its parts are never changed.
    const current: TaskRecord = { ...latest, notes: withNote(latest.notes, { resultFetchedAt: at }) };
    this.#repo.save(current, false).catch((error: unknown) => this.#storeFailed(current, error));
    this.#events.taskChanged(taskId, current, true);
  }

  /** `tasks/list`: one page of the owner's tasks, oldest first. */
  list(owner: TaskOwner, cursor?: string): { tasks: TaskView[]; nextCursor?: string } {
    this.#admit(owner);
    const ids = this.#repo.idsOf(owner.identity);
    let start = 0;
    if (cursor !== undefined) {
      const position = decodeCursor(this.#cursorKey, cursor, owner.identity);
      if (!position) throw new HostError(JsonRpcCode.InvalidParams, 'Invalid cursor for tasks/list');
      start = firstAfter(ids, position, (id) => this.#repo.peek(id));
    }
    const page = ids.slice(start, start + this.#policy.listPageSize);
    const tasks = page
      .map((id) => this.#repo.peekCommitted(id))
      .filter((r): r is Readonly<TaskRecord> => !!r)
      .map((r) => ({ ...r.task }));
    const last = tasks.at(-1);
    const more = start + page.length < ids.length;
    return more && last
      ? {
          tasks,
          nextCursor: encodeCursor(this.#cursorKey, owner.identity, {
            sequence: this.#repo.peek(last.taskId)?.sequence ?? 0,
            taskId: last.taskId
          })
        }
      : { tasks };
  }

  /** `tasks/cancel`: cancels a non-terminal task before answering and aborts its work. */
  async cancel(
    owner: TaskOwner,
    taskId: string,
    reason: string = STATUS_MESSAGES.cancelled,
    byUser = false
  ): Promise<TaskView> {
    // The server's requests are rate limited; the user's own clicks are not.
    if (!byUser) this.#admit(owner);
    const record = this.#owned(owner, taskId, true);
    if (isTerminal(record.task.status)) {
      throw new HostError(
        JsonRpcCode.InvalidParams,
        `Cannot cancel task ${taskId}: it is already ${record.task.status}`
      );
    }
    const cancelled = this.#end(record, reason, byUser ? 'you' : 'server');
    // The cancellation is on disk before the response says so.
    await cancelled.durable;
    return { ...cancelled.record.task };
  }

  /** Cancels a non-terminal task, noting who did, and aborts its work; `announce` as in `#transition`. */
  #end(
    record: TaskRecord,
    reason: string,
    by: 'you' | 'server',
    announce = true
  ): { record: TaskRecord; durable: Promise<void> } {
    const taskId = record.task.taskId;
    // Who cancelled is kept with the task (a note), so the Desk can say so after a restart too.
    const noted = { ...record, notes: withNote(record.notes, { cancelledBy: by }) };
    const cancelled = this.#transition(
      noted,
      'cancelled',
      reason,
      {
        type: 'error',
        error: { code: JsonRpcCode.RequestCancelled, message: `Task ${taskId} was cancelled: ${reason}` }
      },
      true,
      announce
    );
    this.#audit.record({
      ...auditOwner(record.owner),
      type: 'task.cancelled',
      taskId,
      detail: { ...this.#question(record), reason, by }
    });
    this.#running.get(taskId)?.abort(new HostError(JsonRpcCode.RequestCancelled, reason));
    return cancelled;
  }

  /**
   * Ends a task whose answer nobody can fetch any more: its server's process, which asked for it,
   * is gone (see `Host`). Cancelled by the person when their act (a Disconnect, say) ended it,
   * failed otherwise, with `reason` as its status message; its work is aborted (its question
   * leaves the Inbox, a model call stops). Kept in the store until its TTL, as any ended task.
   * Its server is not told: the process that would hear it is gone. False when it had ended.
   */
  endUnfetchable(taskId: string, reason: string, byYou: boolean): boolean {
    const record = this.#repo.peek(taskId);
    if (this.#closed || !record || isTerminal(record.task.status)) return false;
    if (byYou) {
      this.#end(record, reason, 'you', false);
      return true;
    }
    this.#transition(
      record,
      'failed',
      reason,
      { type: 'error', error: { code: JsonRpcCode.InternalError, message: reason } },
      true,
      false
    );
    this.#running.get(taskId)?.abort(new HostError(JsonRpcCode.InternalError, reason));
    return true;
  }

  /** Cancels any task by id, for the user through the host API. */
  cancelById(taskId: string): Promise<TaskView> {
    const record = this.#repo.peek(taskId);
    if (!record) throw new HostError(JsonRpcCode.InvalidParams, `Unknown task ${taskId}`);
    return this.cancel(record.owner, taskId, CANCELLED_IN_TASKDESK, true);
  }

  /** A copy of one task's record, for the host API. */
  record(taskId: string): TaskRecord | undefined {
    return this.#repo.get(taskId);
  }

  /** Copies of all records, for the host API. */
  records(): TaskRecord[] {
    return this.#repo.all();
  }

  /** What is held for one owner identity (or in total), the figures the storage bounds are checked on. */
  usage(identity?: string): ReturnType<TaskRepository['usage']> {
    return this.#repo.usage(identity);
  }

  /**
   * Whether `taskId` is a task of the connection with owner `identity` that has not ended
   * (`working` or `input_required`). Read in place, nothing copied: it is asked on every idle
   * timeout and progress of a plain call to that server.
   */
  isOpenTaskOf(taskId: string, identity: string): boolean {
    const record = this.#repo.peek(taskId);
    return record !== undefined && record.owner.identity === identity && !isTerminal(record.task.status);
  }

  /**
   * Who cancelled `taskId` ({@link cancelledByOf}: `you` for the person's Cancel, {@link cancelById});
   * undefined for a task not cancelled, or not known. Read in place, nothing copied.
   */
  cancelledBy(taskId: string): 'you' | 'server' | undefined {
    const record = this.#repo.peek(taskId);
    return record === undefined ? undefined : cancelledByOf(record);
  }

  /** Every stored record's latest version, without copies, for summaries. Never mutate them. */
  peekRecords(): Iterable<Readonly<TaskRecord>> {
    return this.#repo.peekAll();
  }

  /** Stops timers and aborts running work; the store keeps everything for the next start. */
  close(): void {
    // Ordinary requests still open are ended now, while the history takes them: their answer
    // cannot go out any more (their connections close next, and the SDK then sends none).
    const reason = STOPPED_BEFORE_ANSWER;
    for (const open of this.#ordinaryOpen) {
      try {
        this.#ordinaryEnded(
          open,
          { type: 'error', error: { code: JsonRpcCode.RequestCancelled, message: reason } },
          { by: 'taskdesk', reason }
        );
      } catch (problem) {
        // Recording it must not keep the store from closing.
        console.error('Taskdesk could not record a request its closing broke off:', problem);
      }
    }
    this.#ordinaryOpen.clear();
    this.#closed = true;
    for (const handle of this.#expiryTimers.values()) this.#clock.clearTimeout(handle);
    this.#expiryTimers.clear();
    for (const controller of this.#running.values()) controller.abort(new ShuttingDownError());
    this.#running.clear();
    this.#waiters.rejectAll(new HostError(JsonRpcCode.InternalError, 'Taskdesk is shutting down'));
    this.#repo.close();
  }

  /** Commits pending store writes now rather than within the next few milliseconds. */
  flush(): void {
    this.#repo.flush();
  }

  /** Forgets per-connection state (rate-limit bucket) for an identity that disconnected. */
  forgetConnection(identity: string): void {
    this.#limiter.forget(identity);
    this.#byteLimiter.forget(identity);
  }

  /**
   * Counts one request the receiver does not handle (an unknown method, `ping`, a request
   * refused before dispatch) against the server's rate limit: every request counts. Returns
   * the error to answer with when the server is over its limit.
   */
  admitRequest(owner: TaskOwner): ErrorData | undefined {
    // No exception on this path: a flood of refused requests must not pay for a stack trace each.
    return this.#overLimit(owner);
  }

  #admit(owner: TaskOwner): void {
    const refused = this.#overLimit(owner);
    if (refused) throw new HostError(refused.code, refused.message, refused.data);
  }

  /** Takes a token of the owner's rate limit; the error to answer with when none is left. */
  #overLimit(owner: TaskOwner): ErrorData | undefined {
    const wait = this.#limiter.take(owner.identity);
    if (wait <= 0) return undefined;
    this.#audit.record({ ...auditOwner(owner), type: 'task.rate-limited', detail: { retryAfterMs: wait } });
    return {
      code: JsonRpcCode.TooManyRequests,
      message: `Too many task requests: limit is ${this.#policy.operationsPerSecond} per second per server; retry in ${wait} ms`,
      data: { retryAfterMs: wait }
    };
  }

  /**
   * Refuses work of `bytes` that would take a server's unfinished work (tasks, and ordinary
   * requests waiting), or everyone's, above their bytes bound: unfinished work cannot be evicted,
   * so it is bounded when it comes in.
   */
  #checkOpenBytes(owner: TaskOwner, bytes: number): void {
    const own = this.#repo.usage(owner.identity).openBytes + (this.#ordinaryBytes.get(owner.identity) ?? 0);
    const all = this.#repo.usage().openBytes + this.#ordinaryBytesTotal;
    const refuse = (held: number, limit: number, whose: string) =>
      new HostError(
        JsonRpcCode.TooManyRequests,
        `Too much unfinished work: ${whose} unfinished tasks and requests hold ${held} bytes in Taskdesk and this one needs ${bytes} (limit ${limit}). Wait for some to finish or cancel them.`,
        { bytes, held, limit }
      );
    if (own + bytes > this.#policy.maxOpenBytesPerServer)
      throw refuse(own, this.#policy.maxOpenBytesPerServer, "this server's");
    if (all + bytes > this.#policy.maxOpenBytesTotal) throw refuse(all, this.#policy.maxOpenBytesTotal, "all servers'");
  }

  /**
   * Expires finished tasks early, oldest first, until the storage bounds hold again after
   * `identity` stored more: its own first, then (above the totals) the server holding the most.
   */
  #enforceBounds(identity: string): void {
    if (this.#closed) return;
    for (
      let taskId = this.#repo.nextEviction(this.#policy, identity);
      taskId !== undefined;
      taskId = this.#repo.nextEviction(this.#policy, identity)
    ) {
      this.#removeExpired(taskId, 'storage-bound');
    }
  }

  /**
   * Refuses params above the size cap or the server's byte rate. What is surely refused (its
   * lower bound alone is too much) is refused without serializing it: a server flooding 1 MB
   * requests far above its rate costs a walk over a few values each, not a serialization.
   */
  #checkSize(owner: TaskOwner, params: Record<string, unknown>, request: Record<string, unknown>): void {
    const atLeast = jsonBytesAtLeast(params);
    if (atLeast > this.#policy.maxRequestBytes) throw this.#tooLarge(atLeast, 'at least ');
    const early = this.#byteLimiter.peek(owner.identity, atLeast);
    if (early > 0) throw this.#rateLimited(owner, atLeast, early);
    const bytes = paramsBytes(params, request);
    if (bytes > this.#policy.maxRequestBytes) throw this.#tooLarge(bytes, '');
    const wait = this.#byteLimiter.take(owner.identity, bytes);
    if (wait > 0) throw this.#rateLimited(owner, bytes, wait);
  }

  #tooLarge(bytes: number, qualifier: string): HostError {
    return new HostError(
      JsonRpcCode.InvalidRequest,
      `Request too large: ${qualifier}${bytes} bytes of params, Taskdesk accepts at most ${this.#policy.maxRequestBytes}`,
      { bytes, limit: this.#policy.maxRequestBytes }
    );
  }

  #rateLimited(owner: TaskOwner, bytes: number, wait: number): HostError {
    this.#audit.record({ ...auditOwner(owner), type: 'task.rate-limited', detail: { bytes, retryAfterMs: wait } });
    return new HostError(
      JsonRpcCode.TooManyRequests,
      `Too many request bytes: this server sends more than ${this.#policy.requestBytesPerSecond} bytes of params a second; retry in ${wait} ms`,
      { retryAfterMs: wait, bytes, limit: this.#policy.requestBytesPerSecond }
    );
  }

  /**
   * The owner's record for `taskId`, as last committed to disk (what a server may see); any other
   * case is the same −32602 as an unknown id. `latest` gives the newest version, for cancel.
   */
  #owned(owner: TaskOwner, taskId: string, latest = false): Readonly<TaskRecord> {
    const record =
      typeof taskId !== 'string' ? undefined : latest ? this.#repo.peek(taskId) : this.#repo.peekCommitted(taskId);
    if (!record || record.owner.identity !== owner.identity) {
      // A hostile id may be megabytes long: neither the answer nor the audit log repeats it whole.
      const shown = shortId(String(taskId));
      this.#audit.record({ ...auditOwner(owner), type: 'task.unknown-id', taskId: shown });
      throw new HostError(JsonRpcCode.InvalidParams, `Failed to retrieve task: Task not found (${shown})`);
    }
    return record;
  }

  #startWork(record: TaskRecord): void {
    const taskId = record.task.taskId;
    // The stored version itself, not a copy: records are never changed once saved, and runners
    // only read the request.
    const current = this.#repo.peek(taskId);
    if (!current || isTerminal(current.task.status) || this.#running.has(taskId)) return;
    const controller = new AbortController();
    this.#running.set(taskId, controller);
    const context = this.#context(current.owner, controller.signal, { progressToken: current.progressToken }, current);
    this.#run(current.kind, current.request, context).then(
      (outcome) => this.#finish(taskId, outcome, controller.signal.aborted),
      (error: unknown) => this.#finish(taskId, { type: 'error', error: toErrorData(error) }, controller.signal.aborted)
    );
  }

  async #run(
    kind: TaskKind,
    request: Record<string, unknown>,
    context: WorkContext
  ): Promise<WorkOutcome<Record<string, unknown>>> {
    try {
      switch (kind) {
        case 'sampling':
          return await this.#sampling.run(request as never, context);
        case 'elicitation':
          return await this.#elicitation.prompt(request as never, context);
      }
    } catch (error) {
      return { type: 'error', error: toErrorData(error) };
    }
  }

  /** Tells the host an ordinary request ended, unless Taskdesk closed first (`close` told it then). */
  #ordinaryEnded(
    ordinary: OpenOrdinary,
    outcome: WorkOutcome<Record<string, unknown>>,
    cancelled: EndedOrdinaryRequest['cancelled']
  ): void {
    if (this.#closed || !this.#events.ordinaryEnded) return;
    this.#events.ordinaryEnded({
      owner: ordinary.owner,
      kind: ordinary.kind,
      request: ordinary.request,
      ...(ordinary.relatedTaskId !== undefined && { relatedTaskId: ordinary.relatedTaskId }),
      askedAt: ordinary.askedAt,
      endedAt: new Date(this.#clock.now()).toISOString(),
      steps: ordinary.steps,
      notes: ordinary.notes,
      outcome,
      ...(cancelled && { cancelled })
    });
  }

  #context(
    owner: TaskOwner,
    signal: AbortSignal,
    info: RequestInfo,
    record: TaskRecord | undefined,
    ordinary?: OpenOrdinary
  ): WorkContext {
    const taskId = record?.task.taskId;
    const relatedTaskId = info.relatedTaskId ?? (record && relatedTaskOf(record.notes));
    const progressToken = info.progressToken;
    return {
      serverId: owner.serverId,
      serverName: owner.serverName,
      ...(taskId !== undefined && { taskId }),
      ...(relatedTaskId !== undefined && { relatedTaskId }),
      ...(record && { notes: record.notes }),
      // An ordinary request was asked now: each of its Inbox steps (approval, review) keeps this time.
      askedAt: record ? record.task.createdAt : (ordinary?.askedAt ?? new Date(this.#clock.now()).toISOString()),
      ...(record?.expiresAt != null && { expiresAt: new Date(record.expiresAt).toISOString() }),
      signal,
      ...(progressToken !== undefined && {
        reportProgress: (progress: number, total?: number, message?: string) => {
          if (!signal.aborted)
            this.#events.progress(owner, taskId ?? relatedTaskId, progressToken, progress, total, message);
        }
      }),
      annotate: (note) => {
        if (taskId === undefined) {
          // No task to keep it; History takes an ordinary request's notes when it ends. Changed
          // in place: the runner's context reads this list.
          if (ordinary) ordinary.notes.splice(0, ordinary.notes.length, ...withNote(ordinary.notes, note));
          return;
        }
        const latest = this.#repo.peek(taskId);
        if (!latest || isTerminal(latest.task.status)) return;
        // A new version with a new notes list: the stored one and its parts are never changed.
        const current: TaskRecord = { ...latest, notes: withNote(latest.notes, note) };
        this.#repo.save(current, false).catch((error: unknown) => this.#storeFailed(current, error));
        this.#events.taskChanged(taskId, current);
      },
      setWaitingFor: (message, next) => {
        if (taskId === undefined) {
          // No task to tell; History keeps the steps an ordinary request went through.
          if (!ordinary) return;
          if (ordinary.steps.length >= MAX_ORDINARY_STEPS) ordinary.steps.splice(1, 1);
          const at = new Date(this.#clock.now()).toISOString();
          ordinary.steps.push({ at, message: message ?? next ?? STATUS_MESSAGES.working });
          return;
        }
        // Read only: #touch builds the next version without changing this one.
        const current = this.#repo.peek(taskId);
        if (!current || isTerminal(current.task.status)) return;
        this.#touch(current, { statusMessage: message ?? next ?? STATUS_MESSAGES.working });
      }
    };
  }

  /** Records the end of a task's work, unless the task ended (cancelled) or expired first. */
  #finish(taskId: string, outcome: WorkOutcome<Record<string, unknown>>, aborted = false): void {
    // After a shutdown the task stays as stored; the next start resumes or fails it.
    if (this.#closed) return;
    this.#running.delete(taskId);
    // Read-only here: #transition builds the next version without touching this one.
    const record = this.#repo.peek(taskId);
    if (!record || isTerminal(record.task.status)) {
      // Work we aborted (cancel, expiry) ending in its abort error is no news: that was audited.
      if (aborted && outcome.type === 'error') return;
      this.#audit.record({
        ...(record && auditOwner(record.owner)),
        type: 'task.late-result-dropped',
        taskId,
        detail: {
          ...(record && this.#question(record)),
          reason: record ? `task is ${record.task.status}` : 'task expired',
          outcome: outcome.type
        }
      });
      return;
    }
    // Kept until the TTL ends and replayed by tasks/result: an outcome larger than the cap fails
    // the task instead of being stored (the work is done, but its answer cannot be kept).
    const stored: Outcome =
      outcome.type === 'result' ? { type: 'result', result: outcome.result } : { type: 'error', error: outcome.error };
    // Serialized once: the text is kept for the store, and every later version uses it.
    const bytes = partText(stored).bytes;
    if (bytes > this.#policy.maxResultBytes) {
      const message = `The task's ${outcome.type} was too large to keep: ${bytes} bytes of JSON, Taskdesk keeps at most ${this.#policy.maxResultBytes}.`;
      this.#transition(record, 'failed', message, {
        type: 'error',
        error: { code: JsonRpcCode.InternalError, message, data: { bytes, limit: this.#policy.maxResultBytes } }
      });
    } else {
      this.#transition(
        record,
        stored.type === 'result' ? 'completed' : 'failed',
        outcome.type === 'error' ? outcome.error.message : undefined,
        stored
      );
    }
  }

  /**
   * The one place a task's status changes: validate, persist, then announce.
   *
   * Persisting first means a crash after this line never loses a transition a server was told about.
   */
  #transition(
    record: TaskRecord,
    to: TaskView['status'],
    statusMessage?: string,
    outcome?: Outcome,
    urgent = false,
    /** False for a task its server was never told of: it is not told of the change either. */
    announce = true
  ): { record: TaskRecord; durable: Promise<void> } {
    if (!canReceivedTaskTransition(record.task.status, to)) {
      throw new Error(`Illegal task transition ${record.task.status} → ${to} for ${record.task.taskId}`);
    }
    const from = record.task.status;
    const next: TaskRecord = {
      ...record,
      task: {
        ...record.task,
        status: to,
        lastUpdatedAt: new Date(this.#clock.now()).toISOString()
      },
      ...(outcome && { outcome }),
      // Kept for its server to fetch from now: whether it does is noted (see `#noteFetched`). A
      // task that ended before Taskdesk noted fetches has neither note, and is said nothing of.
      ...(outcome && isTerminal(to) && { notes: withNote(record.notes, { resultKept: true }) })
    };
    if (statusMessage === undefined) delete next.task.statusMessage;
    else next.task.statusMessage = statusMessage;
    const durable = this.#repo.save(next, urgent);
    this.#audit.record({
      ...auditOwner(next.owner),
      type: 'task.status',
      taskId: next.task.taskId,
      detail: { ...this.#question(next), from, to, statusMessage }
    });
    // One more finished task (and its outcome's bytes): the oldest may have to go.
    if (isTerminal(to)) this.#enforceBounds(next.owner.identity);
    this.#events.taskChanged(next.task.taskId, next);
    const announced = durable.then(() => {
      if (announce) this.#events.statusChanged(next.owner, { ...next.task });
      if (outcome && isTerminal(to)) this.#waiters.resolve(next.task.taskId, outcome);
    });
    announced.catch((error: unknown) => {
      this.#storeFailed(next, error);
      // Nobody waits forever on a result that could not be stored: they get −32603 now, and the
      // write is tried again until it lands (a full disk is freed, a permission is fixed).
      if (outcome && isTerminal(to)) {
        this.#waiters.reject(
          next.task.taskId,
          new HostError(
            JsonRpcCode.InternalError,
            `Taskdesk could not store the task's result: ${toErrorData(error).message}`
          )
        );
      }
      this.#retryCommit(next.task.taskId);
    });
    return { record: next, durable: announced };
  }

  /** Writes a task's latest version again after a failed write, then announces it. */
  #retryCommit(taskId: string): void {
    if (this.#closed || this.#retrying.has(taskId)) return;
    this.#retrying.add(taskId);
    this.#clock.setTimeout(() => {
      this.#retrying.delete(taskId);
      const latest = this.#repo.get(taskId);
      if (!latest || this.#closed) return;
      this.#repo.save(latest, false).then(
        () => {
          this.#events.statusChanged(latest.owner, { ...latest.task });
          if (latest.outcome && isTerminal(latest.task.status)) this.#waiters.resolve(taskId, latest.outcome);
        },
        (error: unknown) => {
          this.#storeFailed(latest, error);
          this.#retryCommit(taskId);
        }
      );
    }, STORE_RETRY_MS);
  }

  /** A write to disk failed: nothing is announced, and the user is told through the audit log. */
  #storeFailed(record: TaskRecord, error: unknown): void {
    this.#audit.record({
      ...auditOwner(record.owner),
      type: 'store.write-failed',
      taskId: record.task.taskId,
      detail: { error: toErrorData(error).message }
    });
  }

  /** Updates a task's status message without a status change (no notification is due). */
  #touch(record: Readonly<TaskRecord>, changes: { statusMessage: string }): TaskRecord {
    const next: TaskRecord = {
      ...record,
      task: {
        ...record.task,
        statusMessage: changes.statusMessage,
        lastUpdatedAt: new Date(this.#clock.now()).toISOString()
      }
    };
    this.#repo.save(next, false).catch((error: unknown) => this.#storeFailed(next, error));
    this.#events.taskChanged(next.task.taskId, next);
    return next;
  }

  #scheduleExpiry(record: TaskRecord): void {
    if (record.expiresAt === null) return;
    const taskId = record.task.taskId;
    const existing = this.#expiryTimers.get(taskId);
    if (existing) this.#clock.clearTimeout(existing);
    const delay = Math.max(0, record.expiresAt - this.#clock.now());
    this.#expiryTimers.set(
      taskId,
      this.#clock.setTimeout(() => this.#expire(taskId), delay)
    );
  }

  /** Deletes a task whose TTL ran out, from memory and disk, whatever its status. */
  #expire(taskId: string): void {
    const record = this.#repo.peek(taskId);
    // Timers cap their delay (about 24.8 days); a later expiry is scheduled again.
    if (record && record.expiresAt !== null && record.expiresAt > this.#clock.now()) {
      this.#scheduleExpiry(record);
      return;
    }
    this.#removeExpired(taskId);
  }

  /**
   * The expiry itself, at the TTL or early (`why`): out of memory and off disk, work aborted, a
   * waiting tasks/result answered as for an expired task, audited, and the UI told.
   */
  #removeExpired(taskId: string, why?: EarlyExpiry): void {
    const timer = this.#expiryTimers.get(taskId);
    if (timer) this.#clock.clearTimeout(timer);
    this.#expiryTimers.delete(taskId);
    const record = this.#repo.peek(taskId);
    this.#repo.remove(taskId).catch((error: unknown) => record && this.#removeFailed(record.owner, taskId, error));
    this.#running.get(taskId)?.abort(new HostError(JsonRpcCode.InvalidParams, 'Task has expired'));
    this.#running.delete(taskId);
    this.#waiters.reject(
      taskId,
      new HostError(JsonRpcCode.InvalidParams, `Failed to retrieve task: Task has expired (${taskId})`)
    );
    if (record) this.#auditExpiry(record.owner, taskId, record.task.status, why, this.#question(record));
    this.#events.taskChanged(taskId, undefined);
  }

  #auditExpiry(
    owner: TaskOwner,
    taskId: string,
    status: TaskView['status'],
    why: EarlyExpiry | undefined,
    question: { question?: string } = {}
  ): void {
    this.#audit.record({
      ...auditOwner(owner),
      type: 'task.expired',
      taskId,
      detail: {
        ...question,
        status,
        ...(why === 'storage-bound' && {
          reason: 'Expired early: the server left more finished tasks in Taskdesk than it keeps (oldest first).'
        })
      }
    });
  }

  /**
   * What a task is, for its audit entries, so that the log is searched by it ("Ivanhoe") and the
   * Audit log says it beside the task: the question it asks (an elicitation's message, a model
   * request's last text of the person's side), in a short line with Taskdesk's secrets masked
   * (see `questionPreview`). Nothing when the request has no such text.
   */
  #question(record: Readonly<TaskRecord>): { question?: string } {
    const question = questionPreview({ kind: record.kind, request: record.request }, this.#secretValues());
    return question === undefined ? {} : { question };
  }

  /** {@link #question} as an entry's whole detail: none when there is nothing to say. */
  #questionDetail(record: Readonly<TaskRecord>): { detail?: { question: string } } {
    const { question } = this.#question(record);
    return question === undefined ? {} : { detail: { question } };
  }

  /** A removal did not reach the disk: said in the audit log (the task is gone from memory). */
  #removeFailed(owner: TaskOwner, taskId: string, error: unknown): void {
    this.#audit.record({
      ...auditOwner(owner),
      type: 'store.write-failed',
      taskId,
      detail: { error: toErrorData(error).message }
    });
  }
}

/** Longest id repeated in an answer or the audit log; Taskdesk's own ids have 24 characters. */
const SHOWN_ID_CHARS = 100;

/** An id as quoted back: a longer one is cut, with its length. */
function shortId(taskId: string): string {
  return taskId.length <= SHOWN_ID_CHARS ? taskId : `${taskId.slice(0, SHOWN_ID_CHARS)}… (${taskId.length} characters)`;
}

/** A task id with 144 random bits, safe in file names and URLs. */
export function newTaskId(): string {
  if (idPool.offset + ID_BYTES > idPool.bytes.length) idPool = { bytes: randomBytes(ID_BYTES * 256), offset: 0 };
  const id = idPool.bytes.subarray(idPool.offset, idPool.offset + ID_BYTES).toString('base64url');
  idPool.offset += ID_BYTES;
  return id;
}

const ID_BYTES = 18;
/** Random bytes drawn 256 ids at a time: one call to the system's generator instead of 256. */
let idPool = { bytes: Buffer.alloc(0), offset: 0 };

function auditOwner(owner: TaskOwner): { serverId: string; serverName: string } {
  return { serverId: owner.serverId, serverName: owner.serverName };
}

/**
 * Where the next page starts: right after the cursor's task in creation order.
 *
 * When that task is gone (expired between pages), the page starts at the first task with a
 * higher creation sequence number, so nothing is skipped or repeated.
 */
function firstAfter(
  ids: string[],
  position: { sequence: number; taskId: string },
  lookup: (id: string) => Readonly<TaskRecord> | undefined
): number {
  const index = ids.indexOf(position.taskId);
  if (index >= 0) return index + 1;
  const next = ids.findIndex((id) => (lookup(id)?.sequence ?? 0) > position.sequence);
  return next < 0 ? ids.length : next;
}
