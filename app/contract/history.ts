import { z } from 'zod';
import { ErrorDataSchema } from './common.js';
import { OutboundTaskStateSchema } from './outbound-tasks.js';
import { CallOriginSchema } from './plain-calls.js';
import { WAITING_FOR_YOU } from './task-row-words.js';

/**
 * Schemas of the task history: the user's own record of every task received from a server,
 * every task requested of one, every tool call that ran without a task and every request a
 * server sent that was no task, kept after the protocol's TTL (servers lose access at TTL, as the
 * spec says; the person does not lose the record).
 */

/**
 * Where a history entry's task stands or how it ended: the requestor's states, which are the
 * protocol's five plus `expired` (the TTL ran out first: for a question to the person, it went
 * unanswered) and `lost` (a requested task the server no longer knew).
 */
export const HistoryStatusSchema = OutboundTaskStateSchema;
export type HistoryStatus = z.infer<typeof HistoryStatusSchema>;

/** One status change of the task, as Taskdesk saw it. */
export const HistoryStepSchema = z.object({
  at: z.string(),
  status: HistoryStatusSchema,
  /**
   * What the step was when no status says it, shown in place of its status: `Asked` for the
   * arrival of a server's request (nothing was working yet), `Waiting for you` while it waited in
   * the Inbox for the person.
   */
  label: z.string().optional(),
  message: z.string().optional()
});
export type HistoryStep = z.infer<typeof HistoryStepSchema>;

/** A stored value that was too large for the history: its size and the start of its JSON. */
export const TruncatedValueSchema = z.object({
  truncated: z.literal(true),
  bytes: z.number().int().nonnegative(),
  preview: z.string(),
  /** A question's answer too large to keep: how the person answered, still. */
  action: z.enum(['accept', 'decline', 'cancel']).optional()
});

/** A question or model request a tool call's server asked for it or while it ran: its entry, named. */
export const HistoryAskedSchema = z.object({
  id: z.string(),
  kind: z.enum(['sampling', 'elicitation']),
  title: z.string(),
  createdAt: z.string()
});
export type HistoryAsked = z.infer<typeof HistoryAskedSchema>;

/** What a history list shows of an entry (no request or result bodies). */
export const HistorySummarySchema = z.object({
  /**
   * `received:<taskId>`, `requested:<outboundId>`, `call:<uuid>` for a tool call that ran without
   * a task, or `request:<uuid>` for a server's request that was no task.
   */
  id: z.string(),
  direction: z.enum(['received', 'requested']),
  kind: z.enum(['sampling', 'elicitation', 'tool-call']),
  serverId: z.string(),
  serverName: z.string(),
  /** The protocol task id (the server's for a requested task); absent for a call or a request that was no task. */
  taskId: z.string().optional(),
  /**
   * A server's question or model request asked for one of Taskdesk's own tasks (its related-task
   * `_meta`): that task's id, the server's. Kept whether or not it was asked as a task of its own.
   */
  relatedTaskId: z.string().optional(),
  /**
   * A question asked for a request of Taskdesk's that was no task (a multi round-trip request, a
   * 2025-11-25 link its server needs opened first): that request in words, "tool list-files"
   * (`relatedTaskId` is then Taskdesk's own id for it, which names nothing a person knows).
   */
  askedFor: z.string().optional(),
  /**
   * Kept on a question or model request (a plain request, or a task its server created with
   * Taskdesk) not asked for a task of Taskdesk's, asked while one plain tool call of Taskdesk's
   * (no task) ran on its server, the only one running then: that call's `callId` and tool.
   * Nothing on the wire ties such a request to a call, so this says only that it was asked while
   * the call ran.
   */
  duringCall: z.object({ callId: z.string(), tool: z.string() }).optional(),
  /** Kept on a plain tool call's entry: the call's `callId` (see `duringCall`). */
  callId: z.string().optional(),
  /**
   * Made as it is read, never kept: the tool call of Taskdesk's a question or model request was
   * asked for (`how: 'for'`, its `relatedTaskId` naming the call's task) or while (`how: 'while'`,
   * `duringCall`: nothing more ties them): its tool, and the id of that call's entry while History
   * has it.
   */
  forCall: z.object({ tool: z.string(), how: z.enum(['for', 'while']), entryId: z.string().optional() }).optional(),
  /** What was asked, in a line: the elicitation message, the last user message, the tool's name. */
  title: z.string(),
  /**
   * In a list, what tells it from others of the same title, in a line of at most 80 characters
   * (cut with an ellipsis): a tool call's arguments, or a model request's last message when that
   * is not the text its title quotes. Made from the request; a whole entry has the request itself.
   */
  preview: z.string().optional(),
  status: HistoryStatusSchema,
  /** A question to the person that expired without an answer. */
  unanswered: z.boolean().optional(),
  /**
   * Who cancelled a cancelled task: `you` (Cancel in Taskdesk) or `server`; `taskdesk` for a plain
   * call or request still open when Taskdesk closed, or for a request (a task of its own too)
   * Taskdesk withdrew because the task it was asked for ended. A request withdrawn because the
   * person cancelled (or forgot) the task it was asked for is `you`: their act, as that task's is.
   */
  cancelledBy: z.enum(['you', 'server', 'taskdesk']).optional(),
  /**
   * In a list, a model request Taskdesk turned down (−1, see `isRejectedSampling`): failed by
   * its protocol status, a decision by what happened. A whole entry says it by its `error`.
   */
  rejected: z.boolean().optional(),
  /**
   * A model request the person changed on the approval card before it ran (the whole entry's
   * `ranRequest` is what ran, its `request` what the server sent), or whose model's answer they
   * changed in review before it went (the whole entry's `modelAnswer` is the model's, `result` theirs).
   */
  edited: z.boolean().optional(),
  /**
   * How the person answered a server's question (its result's `action`), so that a list says
   * "Answered", "Declined" or "Dismissed" rather than the protocol's "Completed" for all three.
   */
  answer: z.enum(['accept', 'decline', 'cancel']).optional(),
  /**
   * A received task whose question or model request waits in the Inbox for the person: running,
   * with the status message Taskdesk gives its server for that ("Waiting for your answer in the
   * Inbox…", `WAITING_IN_INBOX`). Its row says "Waiting for you" in place of "Working", as the
   * Tasks screen's does, and the Status filter's `waiting` finds it. Made from the entry, never kept.
   */
  waitsOnYou: z.boolean().optional(),
  statusMessage: z.string().optional(),
  /**
   * In a list, why a tool call that ran without a task failed, which no status message says: its
   * error as its detail words it ("Error -32603: …"), or the text of a result with `isError`; in
   * a line cut as `preview` is. A whole entry has the error or result itself.
   */
  errorLine: z.string().optional(),
  /** A tool call (or task) the assistant made for a conversation; absent for the person's own. */
  origin: CallOriginSchema.optional(),
  /** When the server asked (received) or the task was created (requested): the task's own time. */
  createdAt: z.string(),
  updatedAt: z.string(),
  endedAt: z.string().optional()
});
export type HistorySummary = z.infer<typeof HistorySummarySchema>;

/** A whole history entry: the summary, its timeline, what was asked and how it ended. */
export const HistoryEntrySchema = HistorySummarySchema.extend({
  timeline: z.array(HistoryStepSchema),
  /** What the server sent. */
  request: z.union([z.record(z.string(), z.unknown()), TruncatedValueSchema]),
  /**
   * What ran, when the person changed the request before approving it (its messages, system
   * prompt, limits); absent when it ran as the server sent it.
   */
  ranRequest: z.union([z.record(z.string(), z.unknown()), TruncatedValueSchema]).optional(),
  result: z.union([z.record(z.string(), z.unknown()), TruncatedValueSchema]).optional(),
  /**
   * A model's answer the person rejected in review: what they rejected, which its server never
   * got (its `error` is what the server was told instead).
   */
  rejectedAnswer: z.union([z.record(z.string(), z.unknown()), TruncatedValueSchema]).optional(),
  /**
   * A model's answer the person changed in review before it went back: the model's answer as it
   * came (its `result` is what its server got).
   */
  modelAnswer: z.union([z.record(z.string(), z.unknown()), TruncatedValueSchema]).optional(),
  error: ErrorDataSchema.optional(),
  /**
   * Made as it is read, never kept: on a tool call's entry, the questions and model requests its
   * server asked for it or while it ran (see `forCall`) that History has, oldest first.
   */
  asked: z.array(HistoryAskedSchema).optional()
});
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;

/** Which entries a list or an export covers. All given filters must match. */
export const HistoryFilterSchema = z.object({
  /**
   * Words that must all appear (case-insensitive) in the title, preview, server, status message,
   * error line, ids or the words of its row: its badge ("Answered", "Rejected", "Cancelled by the
   * server", "Waiting for you"), "changed by you", "by the Assistant"; or in how it ended: a
   * question's answer as its detail says it (fields' titles, options' titles, Yes and No) and as
   * it was sent, a model's reply, a tool's result (the start of it: see `MAX_OUTCOME_SEARCH_CHARS`).
   */
  text: z.string().optional(),
  serverId: z.string().optional(),
  /**
   * A status as the rows' badges say it: `rejected` for a model request turned down (see
   * `isRejectedSampling`), `answered`, `declined` or `dismissed` for a question to the person
   * that ended so (see `HistorySummary.answer`). Their protocol statuses are `failed` and
   * `completed`, but those do not match them: a filter finds what the rows say, as the Tasks
   * screen's does. `waiting` finds what waits on the person (`HistorySummary.waitsOnYou`), which
   * `working` finds too, as on the Tasks screen.
   */
  status: z
    .union([HistoryStatusSchema, z.enum(['rejected', 'answered', 'declined', 'dismissed', WAITING_FOR_YOU])])
    .optional(),
  kind: z.enum(['sampling', 'elicitation', 'tool-call']).optional(),
  direction: z.enum(['received', 'requested']).optional(),
  /**
   * Received tasks (their `taskId`) whose question or model request has the person's Decline,
   * Dismiss or Reject waiting out its undo window in the Inbox (or on its way): they wait on the
   * person no more, so `waiting` leaves them out, as the Tasks screen's "Waiting for you" does.
   * Only the Desk knows them; the core still has them waiting until the answer comes.
   */
  heldTaskIds: z.array(z.string()).max(1000).optional(),
  /** This entry only: whether it matches the rest (an open detail the list has no page of yet). */
  id: z.string().optional()
});
export type HistoryFilter = z.infer<typeof HistoryFilterSchema>;

/** One page of a history list, newest first. */
export const HistoryPageSchema = z.object({
  entries: z.array(HistorySummarySchema),
  /** Entries matching the filter in all. */
  total: z.number().int().nonnegative(),
  /** Pass back as `cursor` for the next page; absent on the last one. */
  nextCursor: z.string().optional()
});
export type HistoryPage = z.infer<typeof HistoryPageSchema>;

/** How long and how much history is kept. */
export const HistoryRetentionSchema = z.object({
  /** Entries older than this (by their last change) are removed. */
  days: z.number().int().min(1).max(3650),
  /** At most this many entries; past it, the oldest entry of the server that holds the most goes first. */
  maxEntries: z.number().int().min(100).max(100_000)
});
export type HistoryRetention = z.infer<typeof HistoryRetentionSchema>;
