import { z } from 'zod';
import { ErrorDataSchema } from './common.js';

/**
 * Who made a tool call, when it was not the person on the Tools screen: the assistant, for a
 * conversation. Kept with the call, its task and its History entry, so that each can say where it
 * came from; absent for the person's own calls (and on records made before it was kept).
 */
export const CallOriginSchema = z.object({
  kind: z.literal('assistant'),
  conversationId: z.string(),
  /**
   * The call in the conversation: its `callId` there (Taskdesk's, unique, where the model's own
   * ids may repeat), so that a link to the conversation lands on it.
   */
  callId: z.string().optional()
});
export type CallOrigin = z.infer<typeof CallOriginSchema>;

/** A plain (not task-augmented) tool call while it runs and just after, as the UI shows it. */
export const PlainCallViewSchema = z.object({
  /** The caller's id for the call (`tools.call`'s `callId`), or one the host made. */
  callId: z.string(),
  serverId: z.string(),
  serverName: z.string(),
  toolName: z.string(),
  /**
   * Its arguments in a line (`argumentsPreview`, at most `CALL_ARGUMENTS_CHARS` characters, as a
   * task's card and row hold them): what tells apart calls of one tool running at once. Absent
   * for a call without arguments. The arguments themselves are not in the view.
   */
  argumentsPreview: z.string().optional(),
  startedAt: z.string(),
  state: z.enum(['running', 'completed', 'failed', 'cancelled']),
  /** The latest `notifications/progress` for the call's progress token. */
  progress: z
    .object({ progress: z.number(), total: z.number().optional(), message: z.string().optional(), at: z.string() })
    .optional(),
  /** Set while Taskdesk itself waits on the person for a request from this call's server: the call cannot time out then. */
  waitingOnPerson: z.boolean().optional(),
  /**
   * Set while the call waits for the person to sign in to its server: the server refused it for
   * want of a sign-in (HTTP 401, or 403 for more scope), so it never reached the tool, and it is
   * sent again, once, when the sign-in completes and the server is connected again. It cannot time
   * out meanwhile; a sign-in that fails, is cancelled or is not completed in time ends it failed.
   */
  waitingForSignIn: z.literal(true).optional(),
  endedAt: z.string().optional(),
  error: ErrorDataSchema.optional(),
  /** Who made the call, when it was not the person (see {@link CallOriginSchema}). */
  origin: CallOriginSchema.optional()
});
export type PlainCallView = z.infer<typeof PlainCallViewSchema>;

/** The id a caller may give a plain call, to follow and cancel it. */
export const CallIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Use 1 to 64 letters, digits, - and _');
