import {
  CreateMessageRequestParamsSchema,
  CreateMessageResultSchema,
  CreateMessageResultWithToolsSchema,
  type CreateMessageRequestParams,
  type CreateMessageResult
} from '@modelcontextprotocol/sdk/types.js';
import type { InboxAnswer } from '../contract/host-api.js';
import { HostError, JsonRpcCode } from '../core/errors.js';
import type {
  ApprovalDecision,
  ApprovalGate,
  CompletionDraft,
  ReviewDecision,
  SamplingDraft,
  Withdrawn
} from '../sampling/approval-gate.js';
import type { Inbox } from './inbox.js';
import { originFields, type OriginLookup } from './inbox-runners.js';

/**
 * The sampling approval gate over the inbox: a `sampling-approval` item before the model
 * runs, and a `sampling-review` item for the answer when the server's policy asks for review.
 *
 * Edited params and results are checked against the MCP schemas when the person answers, so
 * a bad edit is refused at the form, not sent to the model or the server.
 */
export class InboxApprovalGate implements ApprovalGate {
  readonly #inbox: Inbox;
  readonly #origin: OriginLookup | undefined;

  constructor(inbox: Inbox, origin?: OriginLookup) {
    this.#inbox = inbox;
    this.#origin = origin;
  }

  async requestApproval(draft: SamplingDraft, signal: AbortSignal): Promise<ApprovalDecision> {
    const answer = await this.#inbox.ask(this.#item('sampling-approval', draft), signal, (candidate) => {
      if (candidate.action === 'approve' && candidate.params) {
        const parsed = CreateMessageRequestParamsSchema.safeParse(candidate.params);
        if (!parsed.success)
          throw new HostError(
            JsonRpcCode.InvalidParams,
            `The edited request is not a valid model request: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`
          );
      }
    });
    if (this.#inbox.isWithdrawal(answer)) return withdrawn(this.#inbox, answer);
    if (answer.action === 'reply') return { decision: 'reply', text: answer.text, model: answer.model };
    if (answer.action !== 'approve')
      return { decision: 'reject', ...(rejectReason(answer) && { reason: rejectReason(answer)! }) };
    return {
      decision: 'approve',
      params: (answer.params as CreateMessageRequestParams | undefined) ?? draft.params,
      providerId: answer.providerId ?? draft.providerId,
      model: answer.model ?? draft.model
    };
  }

  async reviewCompletion(draft: CompletionDraft, signal: AbortSignal): Promise<ReviewDecision> {
    const withTools = Boolean(draft.params.tools || draft.params.toolChoice);
    const answer = await this.#inbox.ask(this.#item('sampling-review', draft, draft.result), signal, (candidate) => {
      if (candidate.action === 'approve' && candidate.result) {
        const parsed = (withTools ? CreateMessageResultWithToolsSchema : CreateMessageResultSchema).safeParse(
          candidate.result
        );
        if (!parsed.success)
          throw new HostError(
            JsonRpcCode.InvalidParams,
            `The edited answer is not a valid model answer: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`
          );
      }
    });
    if (this.#inbox.isWithdrawal(answer)) return withdrawn(this.#inbox, answer);
    if (answer.action !== 'approve')
      return { decision: 'reject', ...(rejectReason(answer) && { reason: rejectReason(answer)! }) };
    return { decision: 'approve', result: (answer.result as CreateMessageResult | undefined) ?? draft.result };
  }

  #item(kind: 'sampling-approval' | 'sampling-review', draft: SamplingDraft, result?: Record<string, unknown>) {
    const relatedTaskId = draft.relatedTaskId;
    const described = relatedTaskId ? this.#origin?.(draft.serverId, relatedTaskId) : undefined;
    return {
      ...(draft.taskId !== undefined && { id: draft.taskId, taskId: draft.taskId }),
      kind,
      serverId: draft.serverId,
      serverName: draft.serverName,
      ...(relatedTaskId !== undefined && { relatedTaskId }),
      ...originFields(described),
      ...(draft.askedAt !== undefined && { createdAt: draft.askedAt }),
      ...(draft.expiresAt !== undefined && { expiresAt: draft.expiresAt }),
      request: draft.params as unknown as Record<string, unknown>,
      draft: {
        providerId: draft.providerId,
        providerName: draft.providerName,
        model: draft.model,
        reason: draft.reason,
        ...(result && { result }),
        ...(draft.lastFailure && { lastFailure: { ...draft.lastFailure } })
      }
    };
  }
}

/** Taskdesk's withdrawal of the question, with why (and its cause, when the Inbox was given one). */
function withdrawn(inbox: Inbox, answer: InboxAnswer): Withdrawn {
  const cause = inbox.withdrawalCause(answer);
  return { decision: 'withdrawn', reason: rejectReason(answer) ?? '', ...(cause !== undefined && { cause }) };
}

function rejectReason(answer: InboxAnswer): string | undefined {
  return answer.action === 'reject' ? answer.reason : undefined;
}
