import type { CreateMessageRequestParams } from '@modelcontextprotocol/sdk/types.js';
import type {
  ApprovalDecision,
  ApprovalGate,
  CompletionDraft,
  ReviewDecision,
  SamplingDraft
} from '../../../app/sampling/approval-gate.js';
import { Recorder } from './harness.js';

/** A request waiting in the test's "inbox". */
export interface PendingApproval {
  draft: SamplingDraft;
  approve(edit?: { params?: Partial<CreateMessageRequestParams>; providerId?: string; model?: string }): void;
  reject(reason?: string): void;
  /** The person writes the answer themselves ("Write the reply yourself…"). */
  reply(text: string, model?: string): void;
}

/** A completion waiting for review in the test's "inbox". */
export interface PendingReview {
  draft: CompletionDraft;
  approve(result?: CompletionDraft['result']): void;
  reject(reason?: string): void;
}

/**
 * An `ApprovalGate` the test answers by hand, like a person at the inbox.
 *
 * Each request shows up on `approvals` / `reviews`; the test awaits it, looks at the
 * draft, and decides. A wait ends with the signal's reason when the task is cancelled.
 */
export class ScriptedApprovalGate implements ApprovalGate {
  readonly approvals = new Recorder<PendingApproval>();
  readonly reviews = new Recorder<PendingReview>();

  requestApproval(draft: SamplingDraft, signal: AbortSignal): Promise<ApprovalDecision> {
    return this.#wait<ApprovalDecision>(signal, (settle) =>
      this.approvals.push({
        draft,
        approve: (edit = {}) =>
          settle({
            decision: 'approve',
            params: { ...draft.params, ...edit.params },
            providerId: edit.providerId ?? draft.providerId,
            model: edit.model ?? draft.model
          }),
        reject: (reason) => settle({ decision: 'reject', ...(reason ? { reason } : {}) }),
        reply: (text, model = 'person') => settle({ decision: 'reply', text, model })
      })
    );
  }

  reviewCompletion(draft: CompletionDraft, signal: AbortSignal): Promise<ReviewDecision> {
    return this.#wait<ReviewDecision>(signal, (settle) =>
      this.reviews.push({
        draft,
        approve: (result) => settle({ decision: 'approve', result: result ?? draft.result }),
        reject: (reason) => settle({ decision: 'reject', ...(reason ? { reason } : {}) })
      })
    );
  }

  #wait<T>(signal: AbortSignal, publish: (settle: (value: T) => void) => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      publish((value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      });
    });
  }
}

/** A gate that fails the test if it is ever asked anything. */
export const unreachableGate: ApprovalGate = {
  requestApproval: () => Promise.reject(new Error('the gate must not be asked')),
  reviewCompletion: () => Promise.reject(new Error('the gate must not be asked'))
};
