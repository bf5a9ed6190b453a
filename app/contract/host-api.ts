/**
 * The host API contract: every method's params and result and every event's payload, as zod
 * schemas. Types are inferred from them, never written twice.
 *
 * This module depends on zod alone, so the renderer can import it. The core implements the
 * methods (`Host.dispatch` in `app/host/host.ts`); Electron IPC and browser mode (HTTP and Server-Sent Events) carry them.
 */
import { z } from 'zod';
import {
  ErrorDataSchema,
  ProtocolEraSchema,
  TaskViewSchema,
  type ErrorData,
  type ProtocolEra,
  type TaskView
} from './common.js';
import {
  CallToolOutcomeSchema,
  OutboundTaskEventSchema,
  OutboundTaskViewSchema,
  RequestorToolSchema,
  ServerTaskPageSchema
} from './outbound-tasks.js';

import {
  ProviderConfigSchema,
  ProviderSaveSchema,
  ProviderSettingsSchema,
  ProviderViewSchema,
  SavedProviderSchema
} from './providers.js';
import { SamplingPolicySchema } from './sampling-policy.js';
import { CallIdSchema, PlainCallViewSchema } from './plain-calls.js';
import {
  HistoryEntrySchema,
  HistoryFilterSchema,
  HistoryPageSchema,
  HistoryRetentionSchema,
  HistorySummarySchema
} from './history.js';
import { AssistantEvents, AssistantMethods } from './assistant.js';
import { ServerSettingsMethods } from './server-settings.js';
import { PreRegisteredClientSchema, SignInStartSchema, SignInViewSchema } from './server-auth.js';
export { SignInViewSchema, SignInStartSchema };
export type { SignInView, SignInStart } from './server-auth.js';
import { InputExchangeEvents, InputExchangeMethods, RootFolderSchema } from './input-exchanges.js';

export { ErrorDataSchema, ProtocolEraSchema, type ErrorData, type ProtocolEra };
export {
  ProviderConfigSchema,
  ProviderSaveSchema,
  ProviderSettingsSchema,
  ProviderViewSchema,
  SamplingPolicySchema,
  SavedProviderSchema
};
export type {
  ProviderConfig,
  ProviderSave,
  ProviderSaveMode,
  ProviderSettings,
  ProviderView,
  SavedProvider
} from './providers.js';
export type { SamplingPolicy } from './sampling-policy.js';

/** What "Test connection" found: the models, or what failed in words (never a key). */
export const ConnectionTestResultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), models: z.array(z.string()) }),
  z.object({ ok: z.literal(false), kind: z.string(), message: z.string(), status: z.number().optional() })
]);
export { CallToolOutcomeSchema, OutboundTaskViewSchema, RequestorToolSchema, ServerTaskPageSchema };
export type { CallToolOutcome, OutboundTaskView, RequestorTool, ServerTaskPage } from './outbound-tasks.js';

export { TaskViewSchema, type TaskView };
export { PlainCallViewSchema };
export type { PlainCallView } from './plain-calls.js';
export { HistoryEntrySchema, HistoryFilterSchema, HistoryPageSchema, HistoryRetentionSchema, HistorySummarySchema };
export type { HistoryEntry, HistoryFilter, HistoryPage, HistoryRetention, HistorySummary } from './history.js';

/** How a task's work ended: what the ordinary request would have returned. */
export const OutcomeSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('result'), result: z.record(z.string(), z.unknown()) }),
  z.object({ type: z.literal('error'), error: ErrorDataSchema })
]);
export type Outcome = z.infer<typeof OutcomeSchema>;

/** How Taskdesk reaches a server: a child process over stdio, or Streamable HTTP. */
export const ServerTransportSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('stdio'),
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).optional(),
    cwd: z.string().optional()
  }),
  z.object({
    type: z.literal('http'),
    url: z.url(),
    headers: z.record(z.string(), z.string()).optional()
  })
]);

/** One configured MCP server. */
export const ServerConfigSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'Use letters, digits, dot, dash and underscore'),
  name: z.string().min(1),
  transport: ServerTransportSchema,
  /** Connect when the host starts. */
  autoConnect: z.boolean().default(true),
  /**
   * Which MCP revision to speak: `auto` (or absent) probes with `server/discover` first (and remembers what it
   * found); `2025-11-25` initializes at once and never sends the probe (a server that takes it
   * badly); `2026-07-28` requires a `DiscoverResult` and never initializes.
   */
  protocol: z.enum(['auto', '2025-11-25', '2026-07-28']).optional(),
  /**
   * Env vars and headers whose values live in the key store, not in this config (an
   * `Authorization` header always does). Given to `servers.add` with their values in `env` /
   * `headers`; saved without them.
   */
  secrets: z.object({ env: z.array(z.string()).default([]), headers: z.array(z.string()).default([]) }).optional(),
  /**
   * The names of the env vars (stdio) or headers (HTTP), secret or not, in the order the person
   * entered them: secrets are kept apart from the others, so the order is kept by name. Absent
   * (lists older builds saved, or one whose order the records keep by themselves): plain ones first,
   * then secrets. Optional, so the list keeps its version: an older build still reads it.
   */
  entryOrder: z.array(z.string()).optional(),
  /** Folders (absolute paths) the server sees as its roots (`roots/list`); none when absent. */
  roots: z.array(RootFolderSchema).optional(),
  /**
   * When the server was added (or imported), ISO 8601: set by Taskdesk as it saves a new server
   * (one given to `servers.add` is not taken), kept through edits. Absent for lists older builds
   * saved and for servers from the host's config.
   */
  addedAt: z.string().optional(),
  /**
   * `taskdesk` for a server Taskdesk added of its own accord (the bundled demo server on a first
   * launch), not the person; set as it is saved (one given to `servers.add` is not taken), kept
   * through edits.
   */
  addedBy: z.literal('taskdesk').optional()
});
export type ServerConfig = z.infer<typeof ServerConfigSchema>;
export type ServerConfigInput = z.input<typeof ServerConfigSchema>;

/** Where a connection is in its life. */
export const ConnectionStateSchema = z.object({
  status: z.enum(['idle', 'connecting', 'ready', 'failed', 'closed']),
  /** Why it failed or closed, in words for the user. */
  reason: z.string().optional(),
  /**
   * What a `failed` connection failed for, when that is a sign-in: `sign-in` when the server
   * asked for authorization (HTTP 401) and no sign-in answers it yet. Absent for every other
   * failure (the server or its sign-in service could not be reached, answered an error…), even
   * while a sign-in the server asked for before still waits (`auth`).
   */
  failedFor: z.literal('sign-in').optional(),
  serverInfo: z.object({ name: z.string(), version: z.string() }).optional(),
  protocolVersion: z.string().optional(),
  /**
   * The server's generation, once ready: `legacy` (an `initialize` handshake, MCP 2025-11-25
   * and earlier) or `modern` (per-request metadata and `server/discover`, MCP 2026-07-28).
   */
  era: ProtocolEraSchema.optional(),
  capabilities: z.record(z.string(), z.unknown()).optional(),
  /** The executable a stdio server's command resolved to (on the login shell's PATH). */
  executable: z.string().optional(),
  /** The OAuth sign-in of a Streamable HTTP server that uses one. */
  auth: SignInViewSchema.optional(),
  /**
   * When the current connection became ready (ISO 8601; `ready` only). A task-augmented question
   * asked before it came over an earlier connection (the server or Taskdesk restarted since):
   * its answer is kept with the task for when the server asks for it again.
   */
  readySince: z.string().optional(),
  /**
   * The person disconnected the server (`servers.disconnect`) and has not connected it since: it
   * stays disconnected until they do, and Taskdesk does not connect it when it starts, whatever
   * its `autoConnect` says. Its reason, with no connection since a restart, is the
   * disconnect's ("Disconnected by you"). Never on a `ready` or `connecting` server.
   */
  stayDisconnected: z.literal(true).optional()
});
export type ConnectionState = z.infer<typeof ConnectionStateSchema>;

/**
 * What Taskdesk has seen of how long a server waits for the answer to an ordinary request of its
 * (one that is no task, which its SDK gives up on after its request timeout: a minute by default),
 * in whole seconds' milliseconds, kept across restarts. `longestMs`: the longest such wait it sat
 * through (its request was answered, or still open when Taskdesk or the person ended it, after that
 * long). `gaveUpAfterMs`: the shortest it waited before it withdrew a request saying it timed out.
 */
export const ServerWaitsSchema = z.object({
  longestMs: z.number().int().nonnegative().optional(),
  gaveUpAfterMs: z.number().int().nonnegative().optional()
});
export type ServerWaits = z.infer<typeof ServerWaitsSchema>;

/** A server as the UI sees it: header and env values are hidden, they may hold secrets. */
export const ServerViewSchema = z.object({
  id: z.string(),
  name: z.string(),
  transport: z.object({ type: z.enum(['stdio', 'http']), target: z.string() }),
  /** The MCP revision the server is set to (`servers.add`'s `protocol`); absent: auto. */
  protocol: z.enum(['2025-11-25', '2026-07-28']).optional(),
  /**
   * True for a server given by Taskdesk's configuration (its start options), not added by the
   * person: it cannot be edited or removed from the Desk. Absent: the person's own.
   */
  configured: z.literal(true).optional(),
  /** When the person added (or imported) it: see `ServerConfig.addedAt`. */
  addedAt: z.string().optional(),
  /** `taskdesk` when Taskdesk added it, not the person: see `ServerConfig.addedBy`. */
  addedBy: z.literal('taskdesk').optional(),
  state: ConnectionStateSchema,
  /**
   * How long it waits for the answer to an ordinary request, as far as Taskdesk has seen (see
   * {@link ServerWaitsSchema}): an Inbox card says so in place of what servers often do. Absent
   * until one of its ordinary requests ended in a way that tells.
   */
  waits: ServerWaitsSchema.optional()
});
export type ServerView = z.infer<typeof ServerViewSchema>;

/** A task Taskdesk receives (a server's task-augmented sampling or elicitation request). */
export const InboundTaskSchema = z.object({
  task: TaskViewSchema,
  serverId: z.string(),
  serverName: z.string(),
  kind: z.enum(['sampling', 'elicitation']),
  request: z.record(z.string(), z.unknown()),
  outcome: OutcomeSchema.optional(),
  notes: z.array(z.record(z.string(), z.unknown())),
  /**
   * Who cancelled a `cancelled` task: `you` (Cancel in Taskdesk) or `server` (its `tasks/cancel`);
   * `you` too for a question Taskdesk withdrew (`withdrawn`) because the person cancelled its task.
   */
  cancelledBy: z.enum(['you', 'server']).optional(),
  /**
   * Set when Taskdesk, not the person, answered the task's question: it withdrew it, since the
   * task it was asked for had ended. Why, in words, as History says it. Its server was told it
   * was dismissed (the task `completed` with `cancel`, or `failed` with −1), which is no answer
   * of the person's: the Desk shows the task cancelled by Taskdesk, as History does.
   */
  withdrawn: z.string().optional(),
  /**
   * The person's Reject of a model request or of its model's answer, in words, as History says it
   * (`rejectionOf`: "You rejected the model’s answer; its server did not get it."). Read from the
   * whole record's notes, so a list's summary, whose notes may be cut short, says it as `tasks.get` does.
   */
  rejection: z.string().optional(),
  /** The person changed the request before it ran (its runner noted a `ranRequest`), as History's `edited`. */
  edited: z.literal(true).optional(),
  /**
   * A model request the person answered: they wrote its reply, or approved it (or its answer) before
   * it went; its row says "Answered", as History's does (`answer: 'accept'`). Not one run without asking.
   */
  answered: z.literal(true).optional(),
  /**
   * When its server first fetched the finished task's result (`tasks/result`). Absent while it
   * has not: the answer is kept for it until the task's TTL ends, and a server that lost its
   * tasks (a stdio server started again) never fetches it.
   */
  resultFetchedAt: z.string().optional(),
  /**
   * Its result is kept for its server, which has not fetched it yet. Absent once it has, and for
   * a task that ended before Taskdesk noted fetches (nothing is known of those).
   */
  awaitingFetch: z.literal(true).optional(),
  /**
   * Set in lists (`tasks.list`, `task.changed`) when the request, outcome, notes or status
   * message were shortened to keep them small; `tasks.get` has the whole record.
   */
  truncated: z.boolean().optional()
});
export type InboundTask = z.infer<typeof InboundTaskSchema>;

/** Most characters of one kept draft's values, as JSON. */
export const INBOX_DRAFT_MAX_CHARS = 64 * 1024;

/**
 * What a person typed into an Inbox card, as the card holds it: a form's values by field name
 * (text, a checkbox, chosen option indexes), or a card's own (`reply`, `model`).
 */
export const InboxDraftValuesSchema = z.record(z.string(), z.unknown());
export type InboxDraftValues = z.infer<typeof InboxDraftValuesSchema>;

/** A question waiting for the user. */
export const InboxItemSchema = z.object({
  /** The receiver task id when the request was a task; otherwise a random id. */
  id: z.string(),
  /**
   * `elicitation`: a server's question. `sampling`: a person writes the reply (no model is
   * configured). `sampling-approval`: approve, edit or reject a request before the model runs.
   * `sampling-review`: approve, edit or reject the model's answer before it goes back.
   */
  kind: z.enum(['elicitation', 'sampling', 'sampling-approval', 'sampling-review']),
  serverId: z.string(),
  serverName: z.string(),
  taskId: z.string().optional(),
  /** The outbound (tool-call) task this request belongs to, when a server asks during one of our calls. */
  relatedTaskId: z.string().optional(),
  /** What is asking, e.g. the tool whose call asks. */
  origin: z.string().optional(),
  /**
   * `relatedTaskId` names a multi round-trip request of Taskdesk's (MCP 2026-07-28), not a task:
   * no task of the server waits on this question, the request does.
   */
  relatedCall: z.literal(true).optional(),
  /**
   * A link (URL elicitation) of a request of Taskdesk's that the person already agreed to open:
   * its server asks for it again after the request was sent again, the work there not done yet.
   */
  askedAgain: z.literal(true).optional(),
  /** When the server asked: for a task, its creation time, kept across restarts. */
  createdAt: z.string(),
  /** When the request's task expires, and the item with it (ISO 8601); absent for an ordinary request. */
  expiresAt: z.string().optional(),
  /**
   * From when the item counts as about to expire (five minutes before, or the last fifth of its
   * life when that is shorter): the countdown warns, and an `inbox.expiring` event goes out.
   */
  warnAt: z.string().optional(),
  /** The request params as the server sent them (for approvals: as they would be sent). */
  request: z.record(z.string(), z.unknown()),
  /**
   * Why a `sampling` item asks a person for the reply when the server's policy would not have:
   * `no-provider`, its policy is "Run without asking" but no LLM provider is set up to run it;
   * `no-model`, providers are set up but none lists a model (under "Ask me first" too; "Refuse" refuses).
   * Absent: the policy asks a person anyway ("Ask me first", with no provider to approve it for).
   */
  fallback: z.enum(['no-provider', 'no-model']).optional(),
  /** For sampling approvals and reviews: the model the engine chose and why, and the answer to review. */
  draft: z
    .object({
      providerId: z.string(),
      providerName: z.string(),
      model: z.string(),
      reason: z.string(),
      result: z.record(z.string(), z.unknown()).optional(),
      /**
       * A sampling approval asked again: the run the person approved failed (the provider's
       * error, on which model, when), and the request is theirs to try again or decline.
       * `stopped`: the person's Stop (`sampling.stop`) ended it, not the provider.
       */
      lastFailure: z
        .object({
          message: z.string(),
          providerId: z.string(),
          providerName: z.string(),
          model: z.string(),
          at: z.string(),
          stopped: z.literal(true).optional()
        })
        .optional()
    })
    .optional(),
  /**
   * What the person had typed into this task's question, kept by `inbox.keepDraft` across
   * restarts of Taskdesk: the card starts from it when it still fits (else it starts afresh).
   */
  keptDraft: InboxDraftValuesSchema.optional()
});
export type InboxItem = z.infer<typeof InboxItemSchema>;

/** How the user answers an inbox item. */
export const InboxAnswerSchema = z.discriminatedUnion('action', [
  /** Elicitation: accept with content (form) or consent (URL mode). */
  z.object({ action: z.literal('accept'), content: z.record(z.string(), z.unknown()).optional() }),
  z.object({ action: z.literal('decline') }),
  z.object({ action: z.literal('cancel') }),
  /**
   * Sampling: a person writes the reply, as MCP Inspector allows. A sampling approval takes it
   * too: the person answers instead of running a model (one that cannot be reached, say).
   */
  z.object({ action: z.literal('reply'), text: z.string(), model: z.string().min(1).default('human') }),
  z.object({ action: z.literal('reject'), reason: z.string().optional() }),
  /**
   * Sampling approval: run it, optionally with edited params (messages, system prompt) or on
   * another provider/model. Sampling review: send the answer, optionally edited (`result`).
   */
  z.object({
    action: z.literal('approve'),
    params: z.record(z.string(), z.unknown()).optional(),
    providerId: z.string().optional(),
    model: z.string().optional(),
    result: z.record(z.string(), z.unknown()).optional()
  })
]);
export type InboxAnswer = z.infer<typeof InboxAnswerSchema>;
export type InboxAnswerInput = z.input<typeof InboxAnswerSchema>;

/** One line of the audit log. */
export const AuditEntrySchema = z.object({
  at: z.string(),
  /** What happened, e.g. `task.created`, `task.status`, `task.result-retrieved`, `task.unknown-id`. */
  type: z.string(),
  serverId: z.string().optional(),
  serverName: z.string().optional(),
  taskId: z.string().optional(),
  detail: z.record(z.string(), z.unknown()).optional()
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

const Ok = z.object({ ok: z.literal(true) });

/** Every host API method: its params and its result. */
export const HostMethods = {
  'servers.list': { params: z.object({}).default({}), result: z.array(ServerViewSchema) },
  'servers.add': { params: ServerConfigSchema, result: ServerViewSchema },
  'servers.remove': { params: z.object({ serverId: z.string() }), result: Ok },
  'servers.connect': { params: z.object({ serverId: z.string() }), result: ServerViewSchema },
  'servers.disconnect': { params: z.object({ serverId: z.string() }), result: ServerViewSchema },
  'tasks.list': {
    params: z.object({ serverId: z.string().optional() }).default({}),
    result: z.array(InboundTaskSchema)
  },
  /** The whole record of one task (`tasks.list` entries may be shortened: see `truncated`). */
  'tasks.get': { params: z.object({ taskId: z.string() }), result: InboundTaskSchema },
  'tasks.cancel': { params: z.object({ taskId: z.string() }), result: TaskViewSchema },
  'inbox.list': { params: z.object({}).default({}), result: z.array(InboxItemSchema) },
  'inbox.answer': { params: z.object({ id: z.string(), answer: InboxAnswerSchema }), result: Ok },
  /**
   * The person's answer to item `id` waits out its undo window in the Desk (`held`), or Undo took
   * it back (`held: false`). A held item stays in the inbox until its answer comes, but waits on
   * the person no more: the tray's and dock's count leaves it out. A hold goes with its item, and
   * after a minute (a Desk that went before it sent the answer). An item no longer in the inbox
   * changes nothing.
   */
  'inbox.hold': { params: z.object({ id: z.string(), held: z.boolean() }), result: Ok },
  /**
   * Keeps what the person has typed into a task's question (`values`; null forgets it), so that
   * it is back in its card (`keptDraft`) when the question is back after a restart. Only a task's
   * question that is waiting keeps one (an ordinary request does not outlive a restart), and only
   * one of at most {@link INBOX_DRAFT_MAX_CHARS}: `kept` says whether it was kept. Forgotten when
   * the question is answered or withdrawn, or its task is gone.
   */
  'inbox.keepDraft': {
    params: z.object({ id: z.string(), values: InboxDraftValuesSchema.nullable() }),
    result: z.object({ kept: z.boolean() })
  },
  /** Tools of a connected server, with their input schema and how they may be called. */
  'tools.list': {
    params: z.object({ serverId: z.string(), refresh: z.boolean().optional() }),
    result: z.array(RequestorToolSchema)
  },
  /**
   * Calls a tool: as a task when the server and tool allow it (`asTask` chooses for `optional`
   * tools), else plainly. Arguments are validated against the tool's input schema first.
   */
  'tools.call': {
    params: z.object({
      serverId: z.string(),
      name: z.string(),
      arguments: z.record(z.string(), z.unknown()).default({}),
      asTask: z.boolean().optional(),
      ttlMs: z.number().int().positive().nullable().optional(),
      /** The caller's id for a plain call: `call.changed` events carry it, `tools.cancelCall` takes it. */
      callId: CallIdSchema.optional()
    }),
    result: CallToolOutcomeSchema
  },
  /** Plain (not task) tool calls running now, with their progress. */
  'tools.runningCalls': { params: z.object({}).default({}), result: z.array(PlainCallViewSchema) },
  /**
   * Cancels a running plain call: `notifications/cancelled` goes to the server, and its
   * `tools.call` ends −32800 with `data: { cancelledBy: 'you' }` (what tells it from a server's own −32800).
   */
  'tools.cancelCall': { params: z.object({ callId: z.string() }), result: Ok },
  'outbound.list': { params: z.object({}).default({}), result: z.array(OutboundTaskViewSchema) },
  'outbound.get': { params: z.object({ outboundId: z.string() }), result: OutboundTaskViewSchema },
  'outbound.cancel': { params: z.object({ outboundId: z.string() }), result: OutboundTaskViewSchema },
  'outbound.refresh': { params: z.object({ outboundId: z.string() }), result: OutboundTaskViewSchema },
  'outbound.forget': { params: z.object({ outboundId: z.string() }), result: Ok },
  /** The server's own `tasks/list`, one page, when it declared `tasks.list`. */
  'outbound.serverTasks': {
    params: z.object({ serverId: z.string(), cursor: z.string().optional() }),
    result: ServerTaskPageSchema
  },
  /** LLM providers as the UI may see them: `hasKey`, never the key. */
  'providers.list': { params: z.object({}).default({}), result: z.array(ProviderViewSchema) },
  /**
   * Adds a provider (`mode: 'add'`, the default: an id in use is −32602 with `data.fields.id`) or
   * updates one (`mode: 'update'`). An `apiKey` goes to the key store (safeStorage in the app);
   * without one an update keeps the stored key, unless the base URL moves to another origin:
   * then the key is deleted and `keyDroppedFor` names the origin it was for.
   */
  'providers.save': { params: ProviderSaveSchema, result: SavedProviderSchema },
  'providers.remove': { params: z.object({ providerId: z.string() }), result: Ok },
  /**
   * Puts a provider at `position` in the person's order (0: first; past the end: last). The
   * first provider's default model is what a model request runs on when the server's preferences
   * choose none, and what a first chat starts on. An unknown id is −32602.
   */
  'providers.move': {
    params: z.object({ providerId: z.string(), position: z.number().int().min(0).max(10_000) }),
    result: Ok
  },
  /** Deletes a provider's stored API key (a leaked key, or a server that no longer needs one). */
  'providers.clearKey': { params: z.object({ providerId: z.string() }), result: ProviderViewSchema },
  'providers.test': { params: z.object({ providerId: z.string() }), result: ConnectionTestResultSchema },
  /** Probes the usual loopback ports of Ollama, LM Studio, llama.cpp and vLLM. */
  'providers.detect': { params: z.object({}).default({}), result: z.array(ProviderSettingsSchema) },
  'sampling.getPolicy': { params: z.object({ serverId: z.string() }), result: SamplingPolicySchema },
  /**
   * Saves a server's policy; answers it as saved. Saving Refuse answers its model requests that
   * wait in the Inbox as refused, and `refused` says how many it did (0 when none waited); absent
   * for any other mode.
   */
  'sampling.setPolicy': {
    params: z.object({ serverId: z.string(), policy: SamplingPolicySchema }),
    result: SamplingPolicySchema.extend({ refused: z.number().int().nonnegative().optional() })
  },
  /**
   * Stops a model writing the answer to a server's sampling request (the Inbox's Stop): the one
   * for its task (`taskId`), or for a request that is not a task, its stream (`streamId`, as
   * `sampling.partial` names it). Its provider request is aborted and the run ends "Stopped by
   * you.": a request the person approved is back before them (`lastFailure.stopped`), to try
   * again or answer otherwise; one run without asking fails to its server. What the model had
   * written is not sent. `stopped` is false when no such model was writing (it ended meanwhile).
   */
  'sampling.stop': {
    params: z
      .object({ serverId: z.string(), taskId: z.string().optional(), streamId: z.string().optional() })
      .refine((target) => (target.taskId === undefined) !== (target.streamId === undefined), {
        message: 'Name the task (taskId) or the stream (streamId) of the model to stop: one of them, not both.'
      }),
    result: z.object({ stopped: z.boolean() })
  },
  'audit.read': {
    params: z
      .object({
        limit: z.number().int().min(1).max(5000).optional(),
        serverId: z.string().optional(),
        taskId: z.string().optional(),
        /** An event type (`task.created`), or the start of several (`task`). */
        type: z.string().optional(),
        /** Words that must all appear (case-insensitive) in the type, server, task id or detail. */
        text: z.string().optional()
      })
      .default({}),
    result: z.array(AuditEntrySchema)
  },
  /**
   * The servers the audit log has entries of, each with the name its newest entry gives it:
   * servers removed since among them, for the Audit log's server filter.
   */
  'audit.servers': {
    params: z.object({}).default({}),
    result: z.array(z.object({ serverId: z.string(), serverName: z.string().optional() }))
  },
  /** A page of the task history, newest first, filtered. */
  'history.list': {
    params: z
      .object({
        filter: HistoryFilterSchema.optional(),
        cursor: z.string().optional(),
        limit: z.number().int().min(1).max(500).optional()
      })
      .default({}),
    result: HistoryPageSchema
  },
  /** One whole history entry: timeline, request, result. */
  'history.get': { params: z.object({ id: z.string() }), result: HistoryEntrySchema },
  /** The entries a filter matches, as JSON Lines (newest first). */
  'history.export': {
    params: z.object({ filter: HistoryFilterSchema.optional() }).default({}),
    result: z.object({ jsonl: z.string(), count: z.number().int().nonnegative() })
  },
  'history.getRetention': { params: z.object({}).default({}), result: HistoryRetentionSchema },
  'history.setRetention': { params: HistoryRetentionSchema, result: HistoryRetentionSchema },
  ...ServerSettingsMethods,
  ...AssistantMethods,
  /** The user agreed to sign in: the page to open in their browser (the redirect comes back to 127.0.0.1). */
  'auth.signIn': { params: z.object({ serverId: z.string() }), result: SignInStartSchema },
  /** Forgets the server's tokens (its client registration stays) and disconnects it. */
  'auth.signOut': { params: z.object({ serverId: z.string() }), result: ServerViewSchema },
  /** A client registered by hand with the server's authorization server; kept in the key store. */
  'auth.setClient': { params: PreRegisteredClientSchema, result: Ok },
  /** Stops waiting for the sign-in page handed out by `auth.signIn`; the next Sign in starts afresh. */
  'auth.cancelSignIn': { params: z.object({ serverId: z.string() }), result: Ok },
  /** Forgets the client registered by hand (and its tokens): the next sign-in registers automatically. */
  'auth.forgetClient': { params: z.object({ serverId: z.string() }), result: Ok },
  ...InputExchangeMethods
} as const;

export type HostMethod = keyof typeof HostMethods;
export type HostParams<M extends HostMethod> = z.input<(typeof HostMethods)[M]['params']>;
export type HostResult<M extends HostMethod> = z.infer<(typeof HostMethods)[M]['result']>;

/** Every event the host streams to the UI. */
export const HostEvents = {
  'task.changed': z.object({ taskId: z.string(), task: InboundTaskSchema.optional() }),
  'inbox.added': z.object({ item: InboxItemSchema }),
  'inbox.removed': z.object({
    id: z.string(),
    why: z.enum(['answered', 'withdrawn']),
    /**
     * Set when Taskdesk itself withdrew the item, not its server (the task of Taskdesk's that the
     * question was for has ended): why, in words for a person. The server's request was answered
     * as if the person had dismissed it (cancel, or −1 for sampling).
     */
    reason: z.string().optional(),
    /**
     * True when Taskdesk withdrew the item because of what the person did themselves (they
     * cancelled or stopped the task it was asked for, or forgot it): they know already, so the UI
     * does not warn them of it (it may still say so to a screen reader; History keeps the record).
     */
    byYou: z.boolean().optional(),
    /**
     * Set when its server withdrew an ordinary question after the person stopped a plain call to
     * that server that was running when it was asked: that call's tool. Likely what it was asked
     * for, but nothing on the wire says which call a request belongs to: the UI tells the two
     * in their order, blaming neither the server nor the person.
     */
    afterStoppedCall: z.string().optional(),
    /** True when its server withdrew it saying the request timed out (the SDK's −32001 "Request timed out"). */
    timedOut: z.literal(true).optional(),
    /**
     * True when the item was handed over to another way of answering it before the person answered
     * (a provider that lists a model was saved: `Inbox.handOver`), with `why` `answered`: its
     * request goes on, and under "Ask me first" an approval card takes its place under the same id.
     * What was typed into its card is kept for that card: the host keeps a task's draft for it
     * (`keptDraft`), and the UI keeps its own; nothing says the item went.
     */
    handedOver: z.literal(true).optional()
  }),
  /** An item reached its `warnAt` unanswered (the app notifies the person). */
  'inbox.expiring': z.object({ item: InboxItemSchema }),
  /**
   * The person's answer to an item is held in a Desk (`inbox.hold`), or no longer (Undo, or the
   * hold ran out): it waits on them no more, or again. Not told when the item goes (`inbox.removed`).
   */
  'inbox.held': z.object({ id: z.string(), held: z.boolean() }),
  'server.state': z.object({ serverId: z.string(), state: ConnectionStateSchema }),
  'store.warning': z.object({
    message: z.string(),
    movedTo: z.string().optional(),
    /**
     * This warning's own id (the host gives each warning it makes one): the same warning replayed
     * (a new event stream starts with the host's warnings) keeps its id, and the same problem
     * happening again is a new warning with a new id, shown again even when its words are the same.
     * The Desk dedupes and dismisses by it; a warning without one is told apart by its words.
     */
    id: z.string().optional(),
    /**
     * The id of an earlier warning this one takes the place of (a server's newest failed run made
     * without asking replaces its last): the Desk stops showing that one.
     */
    replaces: z.string().optional(),
    /**
     * Where to go about it, in the warning's text order: Desk screens (`#providers`, a card's
     * `#providers/<id>`, `#servers`), never a page outside the Desk. A warning without them is
     * only words. Not part of what tells one warning from another (its id, or its words, do).
     */
    links: z.array(z.object({ label: z.string().min(1), href: z.string().regex(/^#[a-z]+(\/[^\s]*)?$/) })).optional()
  }),
  /** A model run the person approved failed (the Inbox says so where they approved it). */
  'sampling.approvedRunFailed': z.object({
    /** This failure's own id (a notice is dismissed by it). */
    id: z.string(),
    serverId: z.string(),
    serverName: z.string(),
    taskId: z.string().optional(),
    message: z.string()
  }),
  /** Text a model has generated so far for a sampling request (throttled). */
  'sampling.partial': z.object({
    serverId: z.string(),
    taskId: z.string().optional(),
    /** One model call's stream: what tells apart requests that are not tasks. */
    streamId: z.string(),
    providerId: z.string(),
    model: z.string(),
    text: z.string(),
    /** The stream's last update (it ended, failed or was cancelled), with all its text. */
    done: z.literal(true).optional()
  }),
  /** An outbound (tool-call) task changed or was forgotten. */
  'outbound.changed': OutboundTaskEventSchema,
  /**
   * An outbound task ended in this run (completed, failed, cancelled, expired or lost), once, after
   * its `outbound.changed` (which carries the task): a task that had ended before Taskdesk started
   * is not told again. `notice` is the system notification it is worth (see `taskEndNotice`):
   * none for a task the person cancelled or their own act lost (`lostByYou`: a Disconnect, Remove,
   * sign-out or settings Save that restarted its server), nor for one whose ttl ran out while
   * Taskdesk was closed.
   */
  'outbound.ended': z.object({
    outboundId: z.string(),
    serverId: z.string(),
    state: OutboundTaskViewSchema.shape.state,
    notice: z.object({ title: z.string(), body: z.string() }).optional()
  }),
  /** A plain tool call started, made progress, or ended. */
  'call.changed': z.object({ call: PlainCallViewSchema }),
  /**
   * A history entry was added or changed; `entry.unanswered` marks a question that expired
   * without an answer (the UI tells the person).
   */
  'history.changed': z.object({ entry: HistorySummarySchema }),
  /** A connected server said its tools changed (`notifications/tools/list_changed`): `tools.list` reads them again. */
  'tools.changed': z.object({ serverId: z.string() }),
  /**
   * A connected server said its prompts or its resources changed
   * (`notifications/prompts/list_changed`, `notifications/resources/list_changed`), or a
   * 2026-07-28 server's `subscriptions/listen` stream opened again (a change between two streams
   * was heard by nobody): `assistant.sources` reads them again.
   */
  'sources.changed': z.object({ serverId: z.string() }),
  /**
   * A server was added, edited, imported or removed, or what Taskdesk knows of how long one waits
   * (`waits`) changed: the whole list, as `servers.list` answers it.
   */
  'servers.changed': z.object({ servers: z.array(ServerViewSchema) }),
  /** A provider was saved, removed or lost its key: the whole list, as `providers.list` answers it. */
  'providers.changed': z.object({ providers: z.array(ProviderViewSchema) }),
  /** A server's sampling policy was set (or reset, when the server was removed). */
  'policies.changed': z.object({ serverId: z.string(), policy: SamplingPolicySchema }),
  /**
   * The audit log has new entries (`audit.read` to see them): at most one event every half
   * second, the last change always told.
   */
  'audit.changed': z.object({}),
  ...AssistantEvents,
  ...InputExchangeEvents
} as const;

export type HostEvent = keyof typeof HostEvents;
export type HostEventPayload<E extends HostEvent> = z.infer<(typeof HostEvents)[E]>;

/** A call's reply: a result or an error as data. */
export type HostReply<M extends HostMethod> = { ok: true; result: HostResult<M> } | { ok: false; error: ErrorData };

/** The two-method seam every transport of the contract implements. */
export interface HostApiClient {
  call<M extends HostMethod>(method: M, params: HostParams<M>): Promise<HostResult<M>>;
  on<E extends HostEvent>(event: E, listener: (payload: HostEventPayload<E>) => void): () => void;
}
