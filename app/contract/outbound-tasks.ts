import { z } from 'zod';
import { ErrorDataSchema, TaskStatusSchema, TaskViewSchema } from './common.js';
import { CallOriginSchema } from './plain-calls.js';

/**
 * Schemas of the requestor's outbound tasks: what the host API shows and what is kept on disk.
 *
 * Types are `z.infer` of these schemas, never written twice. The host API contract
 * references `OutboundTaskViewSchema`, `OutboundTaskEventSchema` and `RequestorToolSchema`.
 */

/** A task status as the receiver reports it (MCP 2025-11-25). */
export const ServerTaskStatusSchema = TaskStatusSchema;
export type ServerTaskStatus = z.infer<typeof ServerTaskStatusSchema>;

/** The receiver's `Task` object, as last seen in a `CreateTaskResult`, `tasks/get`, `tasks/cancel` or status notification. */
export const ServerTaskSchema = TaskViewSchema;
export type ServerTask = z.infer<typeof ServerTaskSchema>;

/**
 * Where an outbound task stands, from the requestor's side.
 *
 * The five protocol statuses, plus two the requestor concludes on its own:
 * `expired` (the ttl ran out before the result was fetched) and `lost` (the receiver
 * no longer knows the task although its ttl had not run out, e.g. it restarted).
 */
export const OutboundTaskStateSchema = z.enum([
  'working',
  'input_required',
  'completed',
  'failed',
  'cancelled',
  'expired',
  'lost'
]);
export type OutboundTaskState = z.infer<typeof OutboundTaskStateSchema>;

/** An error as data, as `app/core/errors.ts` defines it. */
export { ErrorDataSchema };

/**
 * The final outcome fetched with `tasks/result`: exactly what the `tools/call` would have returned.
 *
 * `result` is the `CallToolResult` as received (with `isError` for a tool that failed);
 * `error` is the JSON-RPC error the receiver answered `tasks/result` with.
 */
export const OutboundOutcomeSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('result'), result: z.record(z.string(), z.unknown()), fetchedAt: z.string() }),
  z.object({ type: z.literal('error'), error: ErrorDataSchema, fetchedAt: z.string() })
]);
export type OutboundOutcome = z.infer<typeof OutboundOutcomeSchema>;

/** One `notifications/progress` for the call's progress token. */
export const ProgressEntrySchema = z.object({
  at: z.string(),
  progress: z.number(),
  total: z.number().optional(),
  message: z.string().optional()
});
export type ProgressEntry = z.infer<typeof ProgressEntrySchema>;

/** Progress over the task's whole life: every notification is counted, the latest ones kept. */
export const ProgressLogSchema = z.object({
  count: z.number().int().nonnegative(),
  latest: ProgressEntrySchema.optional(),
  /** The most recent entries, oldest first; bounded so that a chatty tool cannot grow the document without end. */
  history: z.array(ProgressEntrySchema)
});
export type ProgressLog = z.infer<typeof ProgressLogSchema>;

/** One outbound task-augmented `tools/call`, as the UI shows it. */
export const OutboundTaskViewSchema = z.object({
  /** The requestor's own id (file-name safe); stable across restarts. */
  outboundId: z.string(),
  serverId: z.string(),
  serverName: z.string(),
  toolName: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  /** The ttl asked for in `task.ttl`; null when none was asked for. */
  requestedTtl: z.number().nullable(),
  /** Local time the `CreateTaskResult` arrived (ISO 8601): the base of poll times and of the ttl estimate. */
  createdAt: z.string(),
  /** Local time of the last recorded change (ISO 8601). */
  updatedAt: z.string(),
  /** The receiver's task id. */
  taskId: z.string(),
  state: OutboundTaskStateSchema,
  /** Why the task is `expired` or `lost`, in words for a person. */
  reason: z.string().optional(),
  /** The receiver's task as last seen. */
  task: ServerTaskSchema,
  /**
   * Set when the task ended with the status message it had while it ran: servers often leave
   * their last interim message ("Generating report…") on the finished task, and it does not say
   * how the task ended. A message that came with the end (a failure's reason) leaves it unset.
   */
  messageFromRun: z.literal(true).optional(),
  /** Local estimate of when the receiver may delete the task (createdAt + ttl); null when unlimited. */
  expiresAt: z.string().nullable(),
  /** `_meta["io.modelcontextprotocol/model-immediate-response"]` of the `CreateTaskResult`, for the model. */
  immediateResponse: z.string().optional(),
  /** `_meta` of the `CreateTaskResult`, kept whole. */
  createMeta: z.record(z.string(), z.unknown()).optional(),
  /** Set once `tasks/result` answered; never removed. */
  outcome: OutboundOutcomeSchema.optional(),
  progress: ProgressLogSchema,
  /** The last failed exchange about this task (a poll that errored), for diagnosis; cleared by the next success. */
  lastError: ErrorDataSchema.extend({ at: z.string(), method: z.string() }).optional(),
  /**
   * The protocol the task is followed with: absent for MCP 2025-11-25 (tasks utility), or
   * `2026-07-28` (the `io.modelcontextprotocol/tasks` extension: `tasks/get` carries the
   * outcome and the server's questions; answers go back with `tasks/update`).
   */
  protocol: z.literal('2026-07-28').optional(),
  /** When the person asked Taskdesk to cancel the task (`tasks/cancel` went out then). */
  cancelRequestedAt: z.string().optional(),
  /**
   * Who cancelled a `cancelled` task: `you` when it turned cancelled after Taskdesk's Cancel
   * (the person's, or the assistant's Stop), `server` when the server cancelled it on its own.
   */
  cancelledBy: z.enum(['you', 'server']).optional(),
  /**
   * Set on a `lost` task that the person's own act lost: their Disconnect, sign-out or settings
   * Save stopped the stdio process that ran it, or they removed its server. Their doing, as a
   * Cancel is: no notification tells them of it.
   */
  lostByYou: z.literal(true).optional(),
  /** 2026-07-28 only: the `inputRequests` keys already answered with `tasks/update` (each is answered once). */
  answeredInputs: z.array(z.string()).optional(),
  /** Who made the call that became the task, when it was not the person (absent on older records). */
  origin: CallOriginSchema.optional()
});
export type OutboundTaskView = z.infer<typeof OutboundTaskViewSchema>;

/** The document persisted for each outbound task (one file per task). */
export const OutboundTaskDocumentSchema = OutboundTaskViewSchema.extend({ schemaVersion: z.literal(1) });
export type OutboundTaskDocument = z.infer<typeof OutboundTaskDocumentSchema>;

/** A change the host streams to the UI. */
export const OutboundTaskEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('changed'), task: OutboundTaskViewSchema }),
  z.object({ type: z.literal('removed'), outboundId: z.string(), serverId: z.string() })
]);
export type OutboundTaskEvent = z.infer<typeof OutboundTaskEventSchema>;

/**
 * Audit entry type: a call asked as a task was cancelled or timed out before its server answered,
 * and the server created the task after all; Taskdesk sent it `tasks/cancel` where it could
 * (`detail.tasksCancel`: `sent`, `failed` or `unsupported`).
 */
export const TOOL_TASK_CANCELLED_LATE = 'tool.task-cancelled-late';

/** How a tool may be called on its server, after capability and tool-level negotiation. */
export const ToolCallModeSchema = z.enum([
  /** Always as a task (`taskSupport: required` on a server with `tasks.requests.tools.call`). */
  'task',
  /** As a task by default, or plainly when the caller asks (`optional`). */
  'task-or-plain',
  /** Never as a task (`forbidden`, absent, or a server without the capability). */
  'plain',
  /** Cannot be called: the tool requires a task but the server does not accept task-augmented calls. */
  'unavailable'
]);
export type ToolCallMode = z.infer<typeof ToolCallModeSchema>;

/** A tool of a connected server, with what the requestor will do when it is called. */
export const RequestorToolSchema = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: z.record(z.string(), z.unknown()),
  outputSchema: z.record(z.string(), z.unknown()).optional(),
  /** `execution.taskSupport`, with absent read as `forbidden` as the spec says. */
  taskSupport: z.enum(['required', 'optional', 'forbidden']),
  callMode: ToolCallModeSchema
});
export type RequestorTool = z.infer<typeof RequestorToolSchema>;

/** A task from the server's `tasks/list`, joined with the outbound task it belongs to when there is one. */
export const ListedServerTaskSchema = ServerTaskSchema.extend({
  outboundId: z.string().optional(),
  toolName: z.string().optional()
});
export type ListedServerTask = z.infer<typeof ListedServerTaskSchema>;

/** One page of the server's `tasks/list`. */
export const ServerTaskPageSchema = z.object({
  tasks: z.array(ListedServerTaskSchema),
  nextCursor: z.string().optional()
});
export type ServerTaskPage = z.infer<typeof ServerTaskPageSchema>;

/** What `callTool` ended with: a task to follow, or a plain call's result. */
export const CallToolOutcomeSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('task'), task: OutboundTaskViewSchema }),
  z.object({ type: z.literal('result'), result: z.record(z.string(), z.unknown()) })
]);
export type CallToolOutcome = z.infer<typeof CallToolOutcomeSchema>;
