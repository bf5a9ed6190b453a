import { z } from 'zod';
import { ErrorDataSchema } from './common.js';
import { CallOriginSchema } from './plain-calls.js';

/**
 * Schemas of multi round-trip requests (MCP 2026-07-28, SEP-2322) and of roots: what the host
 * API shows and what is kept on disk. Depends on zod alone, so the renderer can import it.
 */

/**
 * The requests a 2026-07-28 server may answer with an `InputRequiredResult` (and that Taskdesk
 * retries after a 2025-11-25 server's URL-elicitation-required error).
 */
export const ExchangeMethodSchema = z.enum(['tools/call', 'prompts/get', 'resources/read']);
export type ExchangeMethod = z.infer<typeof ExchangeMethodSchema>;

/** One embedded input request, as the server sent it under its key. */
export const InputRequestSchema = z.looseObject({
  method: z.string(),
  params: z.record(z.string(), z.unknown()).optional()
});

/**
 * Where a multi round-trip request stands.
 *
 * `asking`: the server's questions of this round are out (in the Inbox, with the sampling
 * engine, or answered from the roots); `waiting-for-you`: every answer is in, one of them the
 * person's consent to open a link (URL elicitation), and the retry waits until they say they have
 * finished in the browser (`exchanges.continue`) or cancel; `retrying`: every answer is in and the
 * retry is on its way (or waits for the server to connect); then one of the three ends.
 */
export const ExchangeStateSchema = z.enum([
  'asking',
  'waiting-for-you',
  'retrying',
  'completed',
  'failed',
  'cancelled'
]);
export type ExchangeState = z.infer<typeof ExchangeStateSchema>;

/** How a multi round-trip request ended. `task`: the server made a task of the retried `tools/call`. */
export const ExchangeOutcomeSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('result'), result: z.record(z.string(), z.unknown()) }),
  z.object({ type: z.literal('error'), error: ErrorDataSchema }),
  z.object({ type: z.literal('task'), outboundId: z.string() })
]);
export type ExchangeOutcome = z.infer<typeof ExchangeOutcomeSchema>;

/**
 * A request whose server asked for input, kept on disk from the first `InputRequiredResult`
 * until it ends: the original request, the round's questions and `requestState` (opaque, sent
 * back unchanged), and the answers given so far.
 */
export const InputExchangeViewSchema = z.object({
  exchangeId: z.string(),
  serverId: z.string(),
  serverName: z.string(),
  method: ExchangeMethodSchema,
  /** The original params (tool name and arguments, prompt name and arguments, or resource URI). */
  params: z.record(z.string(), z.unknown()),
  /** Whether the request declared the tasks extension (a `tools/call` that may become a task). */
  asTask: z.boolean(),
  /** Who made the call when it was not the person (the assistant): given to the task it becomes after a restart. */
  origin: CallOriginSchema.optional(),
  /**
   * `2025-11-25`: a server of that revision answered the request with a URL-elicitation-required
   * error (−32042); each round's questions are the links it listed, and its retry is the original
   * request, as a task or plain as the server's tasks capability and the tool's `taskSupport` say
   * at the time of the retry (`params` and `asTask` then hold how it was last sent). Absent: a
   * 2026-07-28 multi round-trip request.
   */
  protocol: z.literal('2025-11-25').optional(),
  /** 1 for the first `InputRequiredResult`, one more for each that follows a retry. */
  round: z.number().int().positive(),
  inputRequests: z.record(z.string(), InputRequestSchema),
  requestState: z.string().optional(),
  /** Answers of this round by key, as they will be sent in `inputResponses`. */
  answers: z.record(z.string(), z.record(z.string(), z.unknown())),
  state: ExchangeStateSchema,
  outcome: ExchangeOutcomeSchema.optional(),
  /** Why the last retry or question failed, while the exchange goes on. */
  lastError: ErrorDataSchema.optional(),
  /**
   * The links of this round that the person agreed to open in the round before: the server asks
   * for them again (the person continued before the work in the browser was done, typically).
   */
  linksAskedAgain: z.array(z.string()).optional(),
  createdAt: z.string(),
  updatedAt: z.string()
});
export type InputExchangeView = z.infer<typeof InputExchangeViewSchema>;

/** The stored document of one exchange (versioned). */
export const InputExchangeDocumentSchema = InputExchangeViewSchema.extend({ schemaVersion: z.literal(1) });

/** A folder the user shares with a server as a root: an absolute path. */
export const RootFolderSchema = z
  .string()
  .min(1)
  .refine((folder) => folder.startsWith('/') || /^[A-Za-z]:[\\/]/.test(folder) || folder.startsWith('\\\\'), {
    message: 'A folder must be an absolute path'
  });

const Ok = z.object({ ok: z.literal(true) });

/** Host API methods of multi round-trip requests, prompts, resources and roots. */
export const InputExchangeMethods = {
  /** Multi round-trip requests not yet ended, and ended ones no caller was waiting for (after a restart). */
  'exchanges.list': { params: z.object({}).default({}), result: z.array(InputExchangeViewSchema) },
  /** Ends an exchange: its open questions are withdrawn and no retry is sent. */
  'exchanges.cancel': { params: z.object({ exchangeId: z.string() }), result: InputExchangeViewSchema },
  /** The person finished in the browser what a link they agreed to open asked: the retry is sent. */
  'exchanges.continue': { params: z.object({ exchangeId: z.string() }), result: InputExchangeViewSchema },
  /** Removes an ended exchange. */
  'exchanges.forget': { params: z.object({ exchangeId: z.string() }), result: Ok },
  /** `prompts/get`; a 2026-07-28 server's questions are answered and the request retried. */
  'prompts.get': {
    params: z.object({
      serverId: z.string(),
      name: z.string(),
      arguments: z.record(z.string(), z.string()).optional()
    }),
    result: z.record(z.string(), z.unknown())
  },
  /** `resources/read`; a 2026-07-28 server's questions are answered and the request retried. */
  'resources.read': {
    params: z.object({ serverId: z.string(), uri: z.string() }),
    result: z.record(z.string(), z.unknown())
  },
  /** The folders a server sees as its roots (none by default). */
  'roots.get': { params: z.object({ serverId: z.string() }), result: z.object({ folders: z.array(z.string()) }) },
  /** Sets a server's folders; a connected server is told with `notifications/roots/list_changed`. */
  'roots.set': {
    params: z.object({ serverId: z.string(), folders: z.array(RootFolderSchema) }),
    result: z.object({ folders: z.array(z.string()) })
  }
} as const;

/** Host events of multi round-trip requests. */
export const InputExchangeEvents = {
  /** An exchange changed, or was removed (`exchange` absent). */
  'exchange.changed': z.object({ exchangeId: z.string(), exchange: InputExchangeViewSchema.optional() })
} as const;

/** What the app's preload adds to the host API for roots: the system's folder picker (absent in browser mode). */
export interface FolderPicker {
  pickFolder(): Promise<string | null>;
}
