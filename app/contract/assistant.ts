import { z } from 'zod';

/**
 * Schemas of the assistant: conversations with a configured LLM that may call the tools of
 * chosen servers. What the host API shows and what is kept on disk (one document per
 * conversation). Depends on zod alone, so the renderer can import it.
 */

/** A conversation's id (file-name safe: it names the conversation's document). */
export const ConversationIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Use 1 to 64 letters, digits, - and _');

/** How the assistant treats a server's tool calls: ask the person, run them, or refuse them. */
export const AssistantToolPolicySchema = z.object({
  mode: z.enum(['ask', 'auto', 'refuse']).default('ask'),
  /** Tools of this server run without asking under `ask` ("always allow this tool"). */
  alwaysAllow: z.array(z.string()).default([])
});
export type AssistantToolPolicy = z.infer<typeof AssistantToolPolicySchema>;

/** Where one tool call the model made stands. */
export const ToolCallStateSchema = z.enum([
  /** Waiting for the person (policy `ask`). */
  'pending-approval',
  /** A plain call in flight. */
  'running',
  /** Running as a task on the server: `outboundId` follows it. */
  'task',
  'completed',
  /** The tool answered with an error, the call failed, or the task failed, expired or was lost. */
  'failed',
  /** The person denied it, or the policy refused it. */
  'denied',
  /** Stopped by the person (Stop, or the Cancel of a plain call: `tools.cancelCall`). */
  'cancelled'
]);
export type ToolCallState = z.infer<typeof ToolCallStateSchema>;

/** One tool call the model asked for. */
export const AssistantToolCallSchema = z.object({
  /** The model's `tool_call_id`. */
  id: z.string(),
  /** The function name offered to the model (`server__tool`). */
  functionName: z.string(),
  serverId: z.string().optional(),
  toolName: z.string().optional(),
  /** Arguments as the model wrote them (JSON text). */
  rawArguments: z.string(),
  /** Arguments as sent (edited by the person, when they were). */
  arguments: z.record(z.string(), z.unknown()).optional(),
  /** The person edited the arguments before approving: the model is told so with the result. */
  edited: z.boolean().optional(),
  state: ToolCallStateSchema,
  /** The plain call's id (`call.changed`, `tools.cancelCall`). */
  callId: z.string().optional(),
  /** The outbound task following this call, when it runs as a task (`outbound.changed`). */
  outboundId: z.string().optional(),
  /**
   * The stored exchange of a running call whose server asked for input first (a 2026-07-28
   * multi round-trip request, a 2025-11-25 link to open): after a restart its outcome still
   * reaches the conversation (`exchanges.*`).
   */
  exchangeId: z.string().optional(),
  /** The task's immediate response went to the model as an interim result; the final result follows as a notice. */
  interimSent: z.boolean().optional(),
  /** The person stopped it (`cancelled`), but its task could not be cancelled: it runs on on the server. */
  cancelFailed: z.boolean().optional()
});
export type AssistantToolCall = z.infer<typeof AssistantToolCallSchema>;

const Base = { id: z.string(), at: z.string() };

/** An image of a tool result, given to the model as an image input part. */
export const AssistantImageSchema = z.object({ mimeType: z.string(), data: z.string() });

/**
 * The title the person saw for a source in the picker (a prompt's `title`, a resource's name), so that
 * the sent message names it as its chip did rather than by its identifier. Display text only: what is
 * fetched is decided by the name or URI.
 */
const SourceTitle = z.string().optional();

/** A prompt or resource of a server the person adds to a message. */
export const MessageSourceSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('prompt'),
    serverId: z.string(),
    name: z.string(),
    title: SourceTitle,
    arguments: z.record(z.string(), z.string()).optional()
  }),
  z.object({ type: z.literal('resource'), serverId: z.string(), uri: z.string(), title: SourceTitle })
]);
export type MessageSource = z.infer<typeof MessageSourceSchema>;

/** A source as fetched when the message was sent, kept with the message. */
export const ResolvedSourceSchema = z.object({
  label: z.string(),
  text: z.string(),
  images: z.array(AssistantImageSchema).optional()
});
export type ResolvedSource = z.infer<typeof ResolvedSourceSchema>;

/** A server's prompts and resources. */
export const ServerSourcesSchema = z.object({
  prompts: z.array(
    z.object({
      name: z.string(),
      title: z.string().optional(),
      description: z.string().optional(),
      arguments: z.array(z.object({ name: z.string(), description: z.string().optional(), required: z.boolean() }))
    })
  ),
  resources: z.array(
    z.object({ uri: z.string(), name: z.string(), description: z.string().optional(), mimeType: z.string().optional() })
  )
});
export type ServerSources = z.infer<typeof ServerSourcesSchema>;

/**
 * Why a provider ended an answer before the model finished it: `length`, the model's token limit
 * or its context was reached (finish reason `length`); `content-filter`, the provider's content
 * filter withheld the rest.
 */
export const AnswerCutOffSchema = z.enum(['length', 'content-filter']);
export type AnswerCutOff = z.infer<typeof AnswerCutOffSchema>;

/** One message of a conversation. */
export const AssistantMessageSchema = z.discriminatedUnion('role', [
  z.object({ ...Base, role: z.literal('user'), text: z.string(), sources: z.array(ResolvedSourceSchema).optional() }),
  z.object({
    ...Base,
    role: z.literal('assistant'),
    text: z.string(),
    toolCalls: z.array(AssistantToolCallSchema).default([]),
    /** The person stopped the generation: the text is what had streamed in. */
    stopped: z.boolean().optional(),
    /** The provider ended the answer before the model finished it (see {@link AnswerCutOffSchema}). */
    cutOff: AnswerCutOffSchema.optional(),
    /** The model that wrote it (the conversation's model may change later); absent in older conversations. */
    model: z.string().optional()
  }),
  /** A tool's result as the model reads it (text; images as image parts after it). */
  z.object({
    ...Base,
    role: z.literal('tool'),
    toolCallId: z.string(),
    text: z.string(),
    images: z.array(AssistantImageSchema).optional(),
    isError: z.boolean().optional(),
    /** The task's immediate response, not its result. */
    interim: z.boolean().optional(),
    /** The tool's `CallToolResult` as it came (for the person: rendered, with its JSON); never sent as is. */
    result: z.record(z.string(), z.unknown()).optional()
  }),
  /** Something the model is told that is not the person's words (a task's final result after an interim one). */
  z.object({
    ...Base,
    role: z.literal('notice'),
    text: z.string(),
    toolCallId: z.string().optional(),
    images: z.array(AssistantImageSchema).optional(),
    /** The ended task's `CallToolResult` as it came, as on a `tool` message. */
    result: z.record(z.string(), z.unknown()).optional()
  }),
  /** A failure shown to the person; never sent to the model. */
  z.object({
    ...Base,
    role: z.literal('error'),
    kind: z.string(),
    message: z.string(),
    retryable: z.boolean(),
    /**
     * What the person can change for a retry to work, when it is known: `tools-too-long`, the
     * model's context could not hold the conversation with the descriptions of the tools offered.
     */
    reason: z.string().optional(),
    /**
     * How many times in a row the model was asked and failed this way (same `kind` and `reason`),
     * the person's retries included, when more than once.
     */
    tries: z.number().int().min(2).optional()
  })
]);
export type AssistantMessage = z.infer<typeof AssistantMessageSchema>;

/** What a conversation is doing now. */
export const ConversationStatusSchema = z.enum([
  'idle',
  /** The model is answering. */
  'generating',
  /** Tool calls wait for the person, run, or run as tasks whose result the model waits for. */
  'tools',
  /** The last model call failed (an `error` message says why); `assistant.retry` tries again. */
  'failed'
]);

/** A conversation's settings: what `assistant.create` and `assistant.update` take. */
export const ConversationSettingsSchema = z.object({
  title: z.string().min(1).max(200),
  providerId: z.string().min(1),
  model: z.string().min(1),
  systemPrompt: z.string().optional(),
  /** The servers whose tools the model may call (when they are connected). */
  serverIds: z.array(z.string()).default([]),
  /**
   * For a server of `serverIds`, the names of the only tools of it the model is offered (a model
   * with a small context holds the descriptions of a few); a server not named here offers all.
   */
  toolsOffered: z.record(z.string(), z.array(z.string().max(500)).max(1000)).optional(),
  /** Model calls that may end in tool calls per user turn before the assistant stops. */
  maxToolRounds: z.number().int().min(1).max(1000).default(10),
  /** Send tool-result images as image input parts (off for models that take text only). */
  imageInput: z.boolean().default(true)
});

/**
 * Where the load of a chat's model file stands, when New chat had it loaded to know whether the
 * tools it would offer fit the model's context (`assistant.create`'s `fitTools`): `loading`, with
 * how far (`progress`, 0 to 1) when llama.cpp says it; `failed`, with why in words, until
 * `assistant.retry` loads it again. Gone once it has loaded (its tools then decided), or once the
 * chat is moved to another model. Not a change of the conversation: it keeps its `updatedAt` (a
 * chat as it was made stays one), and of two copies with the same `updatedAt` the one whose load
 * went further is the later.
 */
export const ModelLoadSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('loading'), progress: z.number().min(0).max(1).optional() }),
  z.object({ state: z.literal('failed'), message: z.string() })
]);
export type ModelLoad = z.infer<typeof ModelLoadSchema>;

/** A whole conversation. */
export const ConversationSchema = ConversationSettingsSchema.extend({
  id: ConversationIdSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
  status: ConversationStatusSchema,
  messages: z.array(AssistantMessageSchema),
  /**
   * Set when the chat began without the tools of the servers it would have offered (see
   * `assistant.create`'s `fitTools`): their descriptions (`tools` of them) alone are more than the
   * model's context of `contextSize` tokens holds. Gone once servers are chosen, or the provider
   * or the model changes.
   */
  toolsOff: z.object({ tools: z.number().int().positive(), contextSize: z.number().int().positive() }).optional(),
  /** The chat's model file while New chat has it loading, or when that load failed (see {@link ModelLoadSchema}). */
  modelLoad: ModelLoadSchema.optional()
});
export type Conversation = z.infer<typeof ConversationSchema>;

/** A conversation in the list. */
export const ConversationSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  providerId: z.string(),
  model: z.string(),
  updatedAt: z.string(),
  /**
   * When its last message came (or it was made): the list's order and date. A rename or another
   * setting changed does not move a conversation up, as `updatedAt` would.
   */
  activeAt: z.string(),
  status: ConversationStatusSchema,
  messageCount: z.number().int().nonnegative(),
  pendingApprovals: z.number().int().nonnegative(),
  /** The outbound tasks its tool calls run as (see `runningTaskCalls`). */
  runningTasks: z.array(z.string())
});
export type ConversationSummary = z.infer<typeof ConversationSummarySchema>;

/** The stored document of one conversation. */
export const ConversationDocumentSchema = z.object({ schemaVersion: z.literal(1), conversation: ConversationSchema });

/** The person's answer to a pending tool call. */
export const ToolDecisionSchema = z.discriminatedUnion('action', [
  /** Run it, with the arguments edited when given (checked against the tool's schema). */
  z.object({ action: z.literal('approve'), arguments: z.record(z.string(), z.unknown()).optional() }),
  /** Run it and every later call of this tool on this server without asking. */
  z.object({ action: z.literal('always') }),
  z.object({ action: z.literal('deny'), reason: z.string().optional() })
]);
export type ToolDecision = z.infer<typeof ToolDecisionSchema>;

import { UNTITLED_CONVERSATION } from './conversation-summary.js';
export { UNTITLED_CONVERSATION };

/** The longest title a first message gives a conversation. */
export const FIRST_MESSAGE_TITLE_LENGTH = 60;

const Ok = z.object({ ok: z.literal(true) });
const ById = z.object({ conversationId: ConversationIdSchema });

/** The assistant's host API methods (merged into `HostMethods`). */
export const AssistantMethods = {
  /** Conversations, the last active first (`activeAt`: a rename does not move one); `query` matches titles (case-insensitive). */
  'assistant.list': {
    params: z.object({ query: z.string().optional() }).default({}),
    result: z.array(ConversationSummarySchema)
  },
  'assistant.get': { params: ById, result: ConversationSchema },
  /** Without a title, the conversation is {@link UNTITLED_CONVERSATION} until its first message names it. */
  'assistant.create': {
    params: ConversationSettingsSchema.extend({
      title: ConversationSettingsSchema.shape.title.default(UNTITLED_CONVERSATION),
      /**
       * When the model's context is known to be too small for the descriptions of the tools the
       * chat would offer (a model file's), it starts without them (`serverIds` empty) rather than
       * fail at its first message, and `toolsOff` says why. Without it, the servers are as given.
       * On a model file the chat is made at once, its model loading (`modelLoad`): the tools are
       * decided once it has loaded, and a message sent meanwhile waits for that.
       */
      fitTools: z.boolean().optional()
    }),
    result: ConversationSchema
  },
  /** Changes settings (rename, model, servers, limit); `systemPrompt: null` removes it. */
  'assistant.update': {
    params: ById.extend({
      title: ConversationSettingsSchema.shape.title.optional(),
      providerId: z.string().min(1).optional(),
      model: z.string().min(1).optional(),
      systemPrompt: z.string().nullable().optional(),
      serverIds: z.array(z.string()).optional(),
      /** Replaces the whole choice (see `ConversationSettingsSchema.toolsOffered`). */
      toolsOffered: ConversationSettingsSchema.shape.toolsOffered,
      maxToolRounds: z.number().int().min(1).max(1000).optional(),
      imageInput: z.boolean().optional()
    }),
    result: ConversationSchema
  },
  'assistant.delete': { params: ById, result: Ok },
  /**
   * Adds the person's message, with the prompts and resources it draws on (fetched now, kept with
   * the message), and starts the model (it streams: `assistant.partial`).
   */
  'assistant.send': {
    params: ById.extend({ text: z.string().min(1), sources: z.array(MessageSourceSchema).max(20).optional() }),
    result: ConversationSchema
  },
  /**
   * Sends the person's last message again, changed to `text` when given (with the prompts and
   * resources it had), in place of it and of all that came after it: the answers, tool calls and
   * results it led to leave the conversation, and the model is asked again. Refused while the
   * conversation is busy, for any message but the person's last, and while a tool call after it
   * still runs as a task.
   */
  'assistant.resend': {
    params: ById.extend({ messageId: z.string(), text: z.string().min(1).optional() }),
    result: ConversationSchema
  },
  /** A connected server's prompts and resources, to add to a message. */
  'assistant.sources': { params: z.object({ serverId: z.string() }), result: ServerSourcesSchema },
  /** Stops the generation and every tool call it started (tasks cancelled where the server allows). */
  'assistant.stop': { params: ById, result: ConversationSchema },
  /**
   * Tries the failed model call again (or goes on after the tool-round limit). Refused (invalid
   * params) after a failure of tools too long for a model file's context while the descriptions of
   * the tools it offers alone still are: the same tools would fail the same way. When the load of
   * the chat's model file failed (`modelLoad`), loads it again too (or only that, when no model
   * call failed).
   */
  'assistant.retry': { params: ById, result: ConversationSchema },
  /** Answers a pending tool call. */
  'assistant.decide': {
    params: ById.extend({ toolCallId: z.string(), decision: ToolDecisionSchema }),
    result: ConversationSchema
  },
  'assistant.getPolicy': { params: z.object({ serverId: z.string() }), result: AssistantToolPolicySchema },
  'assistant.setPolicy': {
    params: z.object({ serverId: z.string(), policy: AssistantToolPolicySchema }),
    result: AssistantToolPolicySchema
  }
} as const;

/** The assistant's host events (merged into `HostEvents`). */
export const AssistantEvents = {
  /** The model's answer so far (throttled to ten a second; the last one has `done`). */
  'assistant.partial': z.object({
    conversationId: z.string(),
    messageId: z.string(),
    text: z.string(),
    done: z.literal(true).optional()
  }),
  /** A conversation changed (a message, a status, a tool call); absent when it was deleted. */
  'assistant.changed': z.object({ conversationId: z.string(), conversation: ConversationSchema.optional() }),
  /** A tool call waits for the person's decision (`assistant.decide`). */
  'assistant.approval': z.object({ conversationId: z.string(), toolCall: AssistantToolCallSchema })
} as const;
