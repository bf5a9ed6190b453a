import type { SamplingRequestPart, SamplingResultPart } from '../contract/request-changes.js';

/**
 * One decision about a sampling request, for the audit log.
 *
 * - `sampling.request`: whether the request may go to a model
 *   (`refused` by policy, `auto-approved`, `approved`, `approved-with-edits`, `rejected`,
 *   `cancelled` while waiting, `interrupted` by Taskdesk closing while it waited: it waits
 *   again at the next start, `withdrawn` by Taskdesk because the task it was asked for ended,
 *   `written-by-you`: the person wrote the answer instead, and no model ran);
 * - `sampling.llm`: what the model call ended with (`completed`, `failed`, `stopped` by the person);
 * - `sampling.completion`: the person's review of the answer (`approved`,
 *   `approved-with-edits`, `rejected`, `cancelled`, `interrupted`, `withdrawn`).
 *
 * Holds ids, model names, messages, the names of changed parts and of what asked (`origin`) only:
 * never a key, never prompt text, but for a person's decision the short preview of the server's
 * question the Inbox's own `inbox.*` entries name an item by (`question`), never what the person
 * wrote.
 */
export interface SamplingAuditEvent {
  type: 'sampling.request' | 'sampling.llm' | 'sampling.completion';
  serverId: string;
  serverName?: string;
  taskId?: string;
  decision: SamplingAuditDecision;
  providerId?: string;
  model?: string;
  /** Why: the model-selection reason, the user's rejection reason, or the error message. */
  reason?: string;
  /**
   * For `approved-with-edits`, what the person changed, by part and never by content: the
   * request's (`messages`, `systemPrompt`, `maxTokens`, … and `model` for another model picked),
   * or the answer's (`content`, `model`, `stopReason`, …). `other` for any other field.
   */
  changed?: Array<SamplingRequestPart | SamplingResultPart>;
  /**
   * For a person's decision on an Inbox item, the server's request in a short preview (never
   * what the person wrote; none for a review), as the Inbox's own entries name an item.
   */
  question?: string;
  /** For a person's decision, the task of Taskdesk's the request was asked for, when there is one. */
  relatedTaskId?: string;
  /**
   * What the request came from, when a server asked it for one of Taskdesk's own calls: its tool,
   * prompt or resource in words ("tool ask-name"), as the Inbox item says it. On every entry of
   * the request, never with the call's arguments or result.
   */
  origin?: string;
  /** With `origin`: it is a multi round-trip request of Taskdesk's (MCP 2026-07-28), not a task. */
  relatedCall?: true;
  /** Milliseconds since the epoch, from the injected clock. */
  at: number;
}

export type SamplingAuditDecision =
  | 'refused'
  | 'auto-approved'
  | 'approved'
  | 'approved-with-edits'
  | 'rejected'
  | 'cancelled'
  | 'interrupted'
  | 'withdrawn'
  | 'written-by-you'
  | 'completed'
  | 'failed'
  | 'stopped';

/** Where audit events go; the host writes them to its audit log. */
export type SamplingAudit = (event: SamplingAuditEvent) => void;
