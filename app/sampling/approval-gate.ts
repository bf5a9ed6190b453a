import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  CreateMessageResultWithTools
} from '@modelcontextprotocol/sdk/types.js';
import type { WithdrawalCause } from '../receiver/withdrawn-note.js';

/**
 * A sampling request waiting for a person: what the server asked for and which model
 * the engine would run it on, with the engine's reason.
 */
export interface SamplingDraft {
  serverId: string;
  serverName: string;
  taskId?: string;
  /** The tool-call task of ours this request belongs to, when the server sent related-task metadata. */
  relatedTaskId?: string;
  /** When the server asked (an ordinary request too), and when the task expires (ISO 8601), for a task-augmented request. */
  askedAt?: string;
  expiresAt?: string;
  params: CreateMessageRequestParams;
  providerId: string;
  providerName: string;
  model: string;
  /** Why this model, in words (from model selection). */
  reason: string;
  /** The last run the person approved, when it failed: the request is before them again. */
  lastFailure?: RunFailure;
}

/**
 * An approved model run that failed: why (the provider's error), on which model, and when (ISO
 * 8601); `stopped` when it was the person's Stop that ended it (the message says so too).
 */
export interface RunFailure {
  message: string;
  providerId: string;
  providerName: string;
  model: string;
  at: string;
  stopped?: true;
}

/**
 * A person's answer to a sampling request.
 *
 * On approval `params` is what to send (the person may have edited the messages or the
 * system prompt), and `providerId`/`model` what to run it on (they may have picked
 * another model); pass the draft's values back unchanged to accept them as they are.
 */
export type ApprovalDecision =
  | { decision: 'approve'; params: CreateMessageRequestParams; providerId: string; model: string }
  | PersonReply
  | { decision: 'reject'; reason?: string }
  | Withdrawn;

/**
 * The person wrote the reply themselves instead of running a model (a provider that cannot be
 * reached, or no wish to run one): `text` goes back as the answer, `model` the name they gave it.
 */
export interface PersonReply {
  decision: 'reply';
  text: string;
  model: string;
}

/**
 * Not the person's decision: Taskdesk took the question back (the task of Taskdesk's it was
 * asked for has ended), `reason` saying why. The server is told it is declined, in those words.
 */
export interface Withdrawn {
  decision: 'withdrawn';
  reason: string;
  /** Why, for a machine (see `WithdrawalCause`): kept with its withdrawal note for History. */
  cause?: WithdrawalCause;
}

/** What a server is told of a model request Taskdesk withdrew: −1 (declined), and why, never "the user rejected". */
export function withdrawnMessage(reason: string): string {
  return `Taskdesk withdrew this request: ${reason}`;
}

/** A generated answer waiting for a person before it goes back to the server. */
export interface CompletionDraft extends SamplingDraft {
  result: CreateMessageResult | CreateMessageResultWithTools;
}

/** A person's answer to a generated completion; `result` may be edited. */
export type ReviewDecision =
  | { decision: 'approve'; result: CreateMessageResult | CreateMessageResultWithTools }
  | { decision: 'reject'; reason?: string }
  | Withdrawn;

/**
 * The human in the loop of sampling (MCP: "a human in the loop with the ability to deny
 * sampling requests"; "present generated responses for review before delivery").
 *
 * The host implements it over the inbox. Both calls may wait for hours; they must
 * settle (reject or throw) when `signal` aborts, since the task was cancelled or expired.
 */
export interface ApprovalGate {
  requestApproval(draft: SamplingDraft, signal: AbortSignal): Promise<ApprovalDecision>;
  reviewCompletion(draft: CompletionDraft, signal: AbortSignal): Promise<ReviewDecision>;
}
