import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  CallToolResultSchema,
  CancelTaskResultSchema,
  CreateTaskResultSchema,
  type Progress
} from '@modelcontextprotocol/sdk/types.js';
import type { AuditSink } from '../audit/audit-log.js';
import type { Clock } from '../core/clock.js';
import { HostError, JsonRpcCode, toErrorData } from '../core/errors.js';
import {
  TOOL_TASK_CANCELLED_LATE,
  type CallToolOutcome,
  type OutboundTaskView,
  type ServerTask
} from '../contract/outbound-tasks.js';
import { releaseTaskProgressHandler } from '../mcp/sdk-seams.js';
import type { Attachment } from './attachments.js';
import { ModernTaskFollower, ModernTaskSchema, toServerTask, type ModernPeer } from './modern-task-follower.js';
import { markModern } from './outbound-era.js';
import { expiresAtOf, pickTask, type FollowerEnvironment, type OutboundFollower } from './task-follower-base.js';
import { TaskFollower } from './task-follower.js';
import { toHostError } from './task-rpc.js';
import { checkResultType } from './result-type.js';
import { copyView } from './view-copy.js';
import { SDK_TIMEOUT_OUT_OF_THE_WAY_MS } from './plain-calls.js';
import type { InputExchanges } from './input-exchanges.js';
import { CreateTaskOrToolResultSchema, legacyExchangePeer } from './legacy-exchange-peer.js';
import type { CallOrigin } from '../contract/plain-calls.js';
import { signInRefusal } from './sign-in-refusal.js';

const IMMEDIATE_RESPONSE_KEY = 'io.modelcontextprotocol/model-immediate-response';

/** What sending a tool call needs of the requestor that owns the tasks it creates. */
export interface ToolCallContext {
  readonly env: FollowerEnvironment;
  readonly clock: Clock;
  /** The follower the requestor holds for an outbound id, if any. */
  follower(outboundId: string): OutboundFollower | undefined;
  /**
   * Takes a new task's follower in: kept, then written and announced. Resolves once its first
   * record is durable (or its write failed and waits to be made again, said through the store's
   * error report): a caller is told of the task only then, so a crash cannot lose a task it was told of.
   */
  adopt(follower: OutboundFollower): Promise<void>;
  /** Whether `attachment` is still its server's current one (the server may have gone during the call). */
  isCurrent(attachment: Attachment): boolean;
  /** The server's attachment now, if it is connected (it may have reconnected during the call). */
  current(serverId: string): Attachment | undefined;
  /** Multi round-trip requests (2026-07-28): questions a server asks before it answers. */
  readonly exchanges?: InputExchanges;
  /** Where a task cancelled after its call was is recorded ({@link TOOL_TASK_CANCELLED_LATE}). */
  readonly audit?: AuditSink;
}

/** A call that may become a task: its signal and progress, and who is told of its task as it is created. */
interface TaskCall {
  signal: AbortSignal;
  onprogress: (progress: Progress) => void;
  /** See `CallToolOptions.onTask`. */
  onTask?: ((task: OutboundTaskView) => void) | undefined;
  /** See `CallToolOptions.origin`: kept on the task's first record. */
  origin?: CallOrigin | undefined;
  /** See `CallToolOptions.onExchange`. */
  onExchange?: ((exchangeId: string) => void) | undefined;
}

/**
 * What an exchange started by a call keeps of it: who made it, and who is told of the exchange
 * (`exchanged` too: once the server asked for input, the request reached the tool).
 */
function exchangeOf(call: Pick<TaskCall, 'origin' | 'onExchange'>, exchanged: () => void) {
  return {
    ...(call.origin && { origin: call.origin }),
    onExchange: (exchangeId: string) => {
      exchanged();
      call.onExchange?.(exchangeId);
    }
  };
}

/**
 * What a failed `tools/call` throws: a {@link signInRefusal} when its first request was refused
 * for want of a sign-in (it never reached the tool: it may be sent again), else the error as a
 * `HostError`. A refusal of a later request of its exchange is not one: the first reached the tool.
 */
function callFailure(error: unknown, exchanged: boolean) {
  return (exchanged ? undefined : signInRefusal(error)) ?? toHostError(error);
}

/**
 * A plain `tools/call` to a 2025-11-25 server, with a progress token (the SDK sends one when
 * `onprogress` is given). Its timeout is the caller's (`PlainCalls`, on the host's clock): the
 * SDK's own is kept out of the way. A URL-elicitation-required error becomes an exchange (the
 * links asked in the Inbox, the call sent again once they are done; see `legacy-exchange-peer.ts`),
 * whose retry goes as a task if the tool now requires one (see {@link callLegacy}).
 */
export function callLegacyPlain(
  context: ToolCallContext,
  attachment: Attachment,
  toolName: string,
  args: Record<string, unknown>,
  options: TaskCall
): Promise<CallToolOutcome> {
  return callLegacy(context, attachment, toolName, args, undefined, options);
}

/**
 * A task-augmented `tools/call` to a 2025-11-25 server (tasks utility), run as a plain call
 * (`PlainCalls`) until the server answers: progress that arrives before the `CreateTaskResult`
 * shows on the running call and is given to the task's follower; a server that runs the call
 * plainly after all answers with the tool's result, having had the plain call's idle timeout,
 * elapsed time and Cancel all along.
 */
export function callLegacyTask(
  context: ToolCallContext,
  attachment: Attachment,
  toolName: string,
  args: Record<string, unknown>,
  ttl: number | null,
  call: TaskCall
): Promise<CallToolOutcome> {
  return callLegacy(context, attachment, toolName, args, { ttl }, call);
}

/**
 * A `tools/call` to a 2025-11-25 server, as a task (`task`: its requested ttl) or plainly. The
 * request sent again after a URL-elicitation-required error may go the other way (the server's
 * capabilities or the tool's task support changed meanwhile: see `InputExchanges`'
 * `legacyToolRetry`): its answer is read by how it was last sent, a task followed, a result given
 * as the result.
 */
async function callLegacy(
  context: ToolCallContext,
  attachment: Attachment,
  toolName: string,
  args: Record<string, unknown>,
  task: { ttl: number | null } | undefined,
  call: TaskCall
): Promise<CallToolOutcome> {
  const outboundId = `ob-${randomUUID()}`;
  let early: Progress[] | undefined = [];
  // How the request was last sent: its answer is read by it.
  let sent = { asTask: task !== undefined, ttl: task?.ttl ?? null };
  // Until the answer comes, progress is the running call's (elapsed time, bar) and, while it is
  // asked as a task, is kept for the task it may create; afterwards the SDK keeps the token alive
  // for the task's follower.
  const onprogress = (progress: Progress): void => {
    const follower = context.follower(outboundId);
    if (follower) follower.recordProgress(progress);
    else if (early) {
      if (sent.asTask) early.push(progress);
      call.onprogress(progress);
    }
  };
  const params = {
    name: toolName,
    arguments: args,
    ...(task && { task: task.ttl === null ? {} : { ttl: task.ttl } })
  };
  let exchanged = false;
  const onRetry = (retry: { params: Record<string, unknown>; tasks: boolean }): void => {
    const { ttl } = (retry.params.task ?? {}) as { ttl?: unknown };
    sent = { asTask: retry.tasks, ttl: typeof ttl === 'number' ? ttl : null };
  };
  const send = (signal: AbortSignal | undefined): Promise<Record<string, unknown>> =>
    context.exchanges
      ? // Checked by the SDK against the schema of how each request went (see `legacyExchangePeer`): not parsed twice.
        context.exchanges.request(
          {
            serverId: attachment.serverId,
            serverName: attachment.serverName,
            peer: legacyExchangePeer(attachment.client)
          },
          'tools/call',
          params,
          {
            tasks: task !== undefined,
            legacy: true,
            timeout: SDK_TIMEOUT_OUT_OF_THE_WAY_MS,
            signal: call.signal,
            onprogress,
            onRetry,
            ...exchangeOf(call, () => (exchanged = true))
          }
        )
      : attachment.client.request(
          { method: 'tools/call', params },
          task ? CreateTaskOrToolResultSchema : CallToolResultSchema,
          { timeout: SDK_TIMEOUT_OUT_OF_THE_WAY_MS, ...(signal && { signal }), onprogress }
        );
  let response: Record<string, unknown>;
  try {
    response = task
      ? // Never cancelled with notifications/cancelled (see `untilAborted`); the signal only ends an exchange's wait.
        await untilAborted(
          call.signal,
          () => send(undefined),
          (late) => cancelLateLegacyTask(context, attachment, toolName, late, call.signal.reason)
        )
      : await send(call.signal);
  } catch (error) {
    early = undefined;
    throw callFailure(error, exchanged);
  }
  const buffered = early;
  early = undefined;
  const created = sent.asTask ? CreateTaskResultSchema.safeParse(response) : undefined;
  if (!created?.success) {
    // A plain call's answer, or a server that ran the call plainly after all: the tool's result.
    return { type: 'result', result: { ...response } };
  }
  // A request sent again after its link may have gone over a later connection of the server (it
  // reconnected meanwhile): the task is followed over the connection it is current on.
  const now = context.current(attachment.serverId);
  const over = now && !now.modern ? now : attachment;
  const { follower, durable } = adoptLegacyTask(context, over, toolName, args, sent.ttl, created.data, {
    outboundId,
    onTask: call.onTask,
    origin: call.origin
  });
  for (const progress of buffered) follower.recordProgress(progress);
  await durable;
  return taskOutcome(follower);
}

/**
 * A 2025-11-25 `CreateTaskResult` taken in as an outbound task (followed at once when its server
 * is still attached, else once it is), and when its first record is durable (see `adopt`).
 */
export function adoptLegacyTask(
  context: ToolCallContext,
  attachment: Pick<Attachment, 'serverId' | 'serverName'> & Partial<Attachment>,
  toolName: string,
  args: Record<string, unknown>,
  ttl: number | null,
  created: z.infer<typeof CreateTaskResultSchema>,
  options: {
    outboundId?: string;
    onTask?: ((task: OutboundTaskView) => void) | undefined;
    origin?: CallOrigin | undefined;
  } = {}
): { follower: OutboundFollower; durable: Promise<void> } {
  const view = newOutboundView(
    context.clock,
    attachment,
    toolName,
    args,
    ttl,
    pickTask(created.task),
    options.outboundId
  );
  if (options.origin) view.origin = { ...options.origin };
  const meta = created._meta;
  if (meta !== undefined) {
    view.createMeta = structuredClone(meta);
    const immediate = meta[IMMEDIATE_RESPONSE_KEY];
    if (typeof immediate === 'string') view.immediateResponse = immediate;
  }
  const client = attachment.client;
  const follower = new TaskFollower(context.env, view, client);
  options.onTask?.(copyView(view));
  const durable = context.adopt(follower);
  if (client && context.isCurrent(attachment as Attachment))
    follower.follow({ client, serverName: attachment.serverName }, { pollNow: false });
  else follower.trackTtl();
  return { follower, durable };
}

/**
 * A `tools/call` to a 2026-07-28 server. With `asTask` the envelope declares the tasks
 * extension and the server decides: a `CreateTaskResult` (`resultType: "task"`) is followed
 * like any outbound task, any other answer is the tool's result. Without it the server must
 * answer plainly (or refuse with −32021). Either way it runs as a plain call (`PlainCalls`)
 * until the server answers, with a progress token.
 */
export async function callModern(
  context: ToolCallContext,
  attachment: Attachment,
  peer: ModernPeer,
  toolName: string,
  args: Record<string, unknown>,
  asTask: boolean,
  call: TaskCall
): Promise<CallToolOutcome> {
  let response: Record<string, unknown>;
  let exchanged = false;
  try {
    // The SDK adds the progress token to the envelope's `_meta` when `onprogress` is given.
    const params = { name: toolName, arguments: args };
    const options = {
      tasks: asTask,
      timeout: SDK_TIMEOUT_OUT_OF_THE_WAY_MS,
      signal: call.signal,
      onprogress: call.onprogress
    };
    const sender = asTask ? lateCancellingPeer(context, attachment, peer, toolName, call.signal) : peer;
    const send = () =>
      context.exchanges
        ? context.exchanges.request(
            { serverId: attachment.serverId, serverName: attachment.serverName, peer: sender },
            'tools/call',
            params,
            { ...options, ...exchangeOf(call, () => (exchanged = true)) }
          )
        : sender.request('tools/call', params, options);
    // Asked as a task, the request itself is never cancelled (see `lateCancellingPeer`): the
    // caller stops waiting when the call's signal aborts.
    response = asTask ? await untilAborted(call.signal, send, () => undefined) : await send();
  } catch (error) {
    throw callFailure(error, exchanged);
  }
  checkResultType('tools/call', response, { tasks: asTask }, attachment.serverName);
  if (response.resultType === 'input_required') {
    throw new HostError(
      JsonRpcCode.InternalError,
      `Tool "${toolName}" on "${attachment.serverName}" asked for input before starting (a multi round-trip request), which this requestor does not answer.`,
      { resultType: 'input_required' }
    );
  }
  if (response.resultType !== 'task') return { type: 'result', result: { ...response } };
  const { follower, durable } = adoptModernTask(
    context,
    attachment,
    peer,
    toolName,
    args,
    asTask,
    response,
    call.onTask,
    call.origin
  );
  await durable;
  return taskOutcome(follower);
}

/**
 * A `CreateTaskResult` of a modern `tools/call` taken in as an outbound task (followed at once
 * when its server is still attached), and when its first record is durable (see `adopt`).
 * Throws when it is not a valid task, or the request did not declare the extension.
 */
export function adoptModernTask(
  context: ToolCallContext,
  attachment: Pick<Attachment, 'serverId' | 'serverName'> & Partial<Attachment>,
  peer: ModernPeer | undefined,
  toolName: string,
  args: Record<string, unknown>,
  asTask: boolean,
  response: Record<string, unknown>,
  onTask?: (task: OutboundTaskView) => void,
  origin?: CallOrigin
): { follower: OutboundFollower; durable: Promise<void> } {
  const created = ModernTaskSchema.safeParse(response);
  if (!asTask || !created.success) {
    throw new HostError(
      JsonRpcCode.InternalError,
      `Server "${attachment.serverName}" answered tools/call with an invalid task${created.success ? ' although the tasks extension was not declared' : `: ${created.error.message}`}.`
    );
  }
  const task = toServerTask(created.data);
  const view = newOutboundView(context.clock, attachment, toolName, args, null, task);
  if (origin) view.origin = { ...origin };
  markModern(view);
  const follower = new ModernTaskFollower(context.env, view);
  onTask?.(copyView(view));
  const durable = context.adopt(follower);
  const current = 'client' in attachment && context.isCurrent(attachment as Attachment);
  if (peer && current) follower.follow({ peer, serverName: attachment.serverName }, { pollNow: false });
  else follower.trackTtl();
  return { follower, durable };
}

/**
 * The answer of a task-augmented request, awaited until `signal` aborts: then the caller stops
 * waiting (rejected with the signal's reason, which `PlainCalls` reports), and the request goes on
 * at the server. MCP forbids `notifications/cancelled` for a task-augmented request, and a
 * conforming server creates the task all the same; so `send` never passes the signal to the SDK
 * (which would send one), and an answer that comes after the abort goes to `late`, to cancel the
 * task it may announce. An answer that never comes holds nothing past its connection: the SDK
 * rejects every pending request when the connection closes.
 */
function untilAborted<T>(signal: AbortSignal, send: () => Promise<T>, late: (answer: T) => void): Promise<T> {
  signal.throwIfAborted();
  const answer = send();
  return new Promise<T>((resolve, reject) => {
    let waiting = true;
    const stop = (): void => {
      waiting = false;
      reject(toHostError(signal.reason));
    };
    signal.addEventListener('abort', stop, { once: true });
    answer.then(
      (value) => {
        signal.removeEventListener('abort', stop);
        if (waiting) resolve(value);
        else late(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', stop);
        // Once the caller stopped waiting, a failure (the connection closed) concerns nobody.
        if (waiting) reject(error);
      }
    );
  });
}

/** A task created after its call was cancelled or timed out, and why the call ended. */
interface LateTask {
  context: ToolCallContext;
  attachment: Pick<Attachment, 'serverId' | 'serverName'>;
  toolName: string;
  taskId: string;
  reason: unknown;
}

/**
 * A 2025-11-25 `tools/call` answered after its call was cancelled or timed out: the task it
 * created is cancelled with `tasks/cancel` where the server declared `tasks.cancel`, and recorded;
 * a plain result is dropped, as nobody waits for it.
 */
function cancelLateLegacyTask(
  context: ToolCallContext,
  attachment: Attachment,
  toolName: string,
  response: unknown,
  reason: unknown
): void {
  const created = CreateTaskResultSchema.safeParse(response);
  if (!created.success) return;
  const taskId = created.data.task.taskId;
  // Nobody follows this task: the progress handler the SDK keeps for it goes now (see TaskFollower).
  releaseTaskProgressHandler(attachment.client, taskId);
  const late: LateTask = { context, attachment, toolName, taskId, reason };
  if (!attachment.client.getServerCapabilities()?.tasks?.cancel) {
    recordLateTask(late, 'unsupported');
    return;
  }
  attachment.client
    .request({ method: 'tasks/cancel', params: { taskId } }, CancelTaskResultSchema, {
      timeout: context.env.requestTimeoutMs
    })
    .then(
      () => recordLateTask(late, 'sent'),
      (error: unknown) => recordLateTask(late, 'failed', error)
    );
}

/**
 * `peer` for one `tools/call` asked as a task: its requests never get the call's signal (the SDK
 * would send `notifications/cancelled`, which the tasks extension forbids for a task), and an
 * answer that comes once the call was cancelled or timed out is refused with the call's reason:
 * a task it created is cancelled with `tasks/cancel` and recorded, and an `input_required` answer
 * starts no exchange.
 */
function lateCancellingPeer(
  context: ToolCallContext,
  attachment: Pick<Attachment, 'serverId' | 'serverName'>,
  peer: ModernPeer,
  toolName: string,
  signal: AbortSignal
): ModernPeer {
  return {
    acceptsTasks: peer.acceptsTasks,
    answerInput: (request, answerContext) => peer.answerInput(request, answerContext),
    request: async (method, params, { signal: _notSent, ...options }) => {
      const answer = await peer.request(method, params, options);
      if (!signal.aborted) return answer;
      cancelLateModernTask(context, attachment, peer, toolName, answer, signal.reason);
      throw toHostError(signal.reason);
    }
  };
}

/** A 2026-07-28 `tools/call` answered with a task after its call ended: the task gets `tasks/cancel`, recorded. */
function cancelLateModernTask(
  context: ToolCallContext,
  attachment: Pick<Attachment, 'serverId' | 'serverName'>,
  peer: ModernPeer,
  toolName: string,
  answer: Record<string, unknown>,
  reason: unknown
): void {
  const created = answer.resultType === 'task' ? ModernTaskSchema.safeParse(answer) : undefined;
  if (!created?.success) return;
  const late: LateTask = { context, attachment, toolName, taskId: created.data.taskId, reason };
  peer.request('tasks/cancel', { taskId: late.taskId }, { tasks: true, timeout: context.env.requestTimeoutMs }).then(
    () => recordLateTask(late, 'sent'),
    (error: unknown) => recordLateTask(late, 'failed', error)
  );
}

/**
 * The answer to an exchange's `tools/call` retry asked as a task that came once the exchange was
 * cancelled (its call's Cancel, Stop, `exchanges.cancel`): a task it created is cancelled with
 * `tasks/cancel` and recorded, as for a first request ({@link untilAborted}). `attachment` is the
 * server's current one, if connected (the task is then recorded as not cancelled).
 */
export function cancelLateExchangeTask(
  context: ToolCallContext,
  server: Pick<Attachment, 'serverId' | 'serverName'>,
  attachment: Attachment | undefined,
  toolName: string,
  answer: Record<string, unknown>,
  reason: unknown
): void {
  if (attachment?.modern) cancelLateModernTask(context, server, attachment.modern, toolName, answer, reason);
  else if (attachment) cancelLateLegacyTask(context, attachment, toolName, answer, reason);
  else {
    const created = CreateTaskResultSchema.safeParse(answer);
    const modern = answer.resultType === 'task' ? ModernTaskSchema.safeParse(answer) : undefined;
    const taskId = created.success ? created.data.task.taskId : modern?.success ? modern.data.taskId : undefined;
    if (taskId !== undefined) recordLateTask({ context, attachment: server, toolName, taskId, reason }, 'unsupported');
  }
}

/** Records a task cancelled after its call was, as the other cancels are recorded. */
function recordLateTask(late: LateTask, tasksCancel: 'sent' | 'failed' | 'unsupported', error?: unknown): void {
  try {
    late.context.audit?.record({
      type: TOOL_TASK_CANCELLED_LATE,
      serverId: late.attachment.serverId,
      serverName: late.attachment.serverName,
      taskId: late.taskId,
      detail: {
        tool: late.toolName,
        reason: toErrorData(late.reason).message,
        tasksCancel,
        ...(error !== undefined && { error: toErrorData(error).message })
      }
    });
  } catch (problem) {
    // Nobody waits on this any more: a failure to record it must not become an unhandled rejection.
    console.error('Taskdesk could not record a task cancelled after its call:', problem);
  }
}

/** A created task as the caller gets it: a copy, since the follower goes on changing its view. */
function taskOutcome(follower: OutboundFollower): CallToolOutcome {
  return { type: 'task', task: copyView(follower.view) };
}

/** A new outbound task's view, as the `CreateTaskResult` left it. */
function newOutboundView(
  clock: Clock,
  attachment: Pick<Attachment, 'serverId' | 'serverName'>,
  toolName: string,
  args: Record<string, unknown>,
  ttl: number | null,
  task: ServerTask,
  outboundId = `ob-${randomUUID()}`
): OutboundTaskView {
  const now = new Date(clock.now()).toISOString();
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
    // Known now, so that the first record (written before the caller hears of the task) holds it:
    // found missing by `trackTtl`, it made a second record of every task a moment later.
    expiresAt: expiresAtOf({ createdAt: now, task }),
    progress: { count: 0, history: [] }
  };
}
