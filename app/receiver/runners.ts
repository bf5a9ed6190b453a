import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  CreateMessageResultWithTools,
  ElicitRequestParams,
  ElicitResult
} from '@modelcontextprotocol/sdk/types.js';
import type { ErrorData } from '../core/errors.js';

/**
 * What a piece of receiver work ended with.
 *
 * `result` is what the ordinary request returns; `error` is the JSON-RPC error the
 * ordinary request would have been answered with (a user's rejection, a provider
 * failure). Both are replayed unchanged by `tasks/result`.
 */
export type WorkOutcome<R> = { type: 'result'; result: R } | { type: 'error'; error: ErrorData };

/** Who is asking, and about which task, for a runner's bookkeeping and its UI. */
export interface WorkContext {
  /** The configured server id that sent the request. */
  serverId: string;
  /** The server's display name. */
  serverName: string;
  /** The receiver task id when the request was task-augmented. */
  taskId?: string;
  /**
   * The requestor-side task this request belongs to, when the server sent it with
   * related-task metadata (a side-channel request of one of Taskdesk's own tool calls).
   */
  relatedTaskId?: string;
  /**
   * What the runner recorded on this task before (through `annotate`), e.g. before a restart.
   * The stored list itself: read it, never change it (annotate instead).
   */
  notes?: ReadonlyArray<Record<string, unknown>>;
  /** When the server asked: the task's creation (kept across restarts), or when an ordinary request came. */
  askedAt?: string;
  /** When the task's TTL ends (ISO 8601); absent when it has none. */
  expiresAt?: string;
  /** Aborted when the task is cancelled, expires, or the request is cancelled. */
  signal: AbortSignal;
  /** Sends a progress notification for the request, when the server gave a progress token. */
  reportProgress?(progress: number, total?: number, message?: string): void;
  /** Records a fact about the work on the task (model chosen, why), for the audit log and the UI. */
  annotate?(note: Record<string, unknown>): void;
  /**
   * Says the work is waiting for the Taskdesk user (a message), or no longer (undefined), and
   * then what it does now (`next`: "Approved by you; … is writing the answer."; by default
   * Taskdesk's "working on the request").
   *
   * Shown as the task's `statusMessage`; the status stays `working`. `input_required` is
   * not used for this: it tells the requestor that *it* must supply input through
   * `tasks/result`, and Taskdesk never needs input from the server.
   */
  setWaitingFor?(message: string | undefined, next?: string): void;
}

/** Runs `sampling/createMessage`: through an LLM, a person, or both. */
export interface SamplingRunner {
  /**
   * Whether work this runner had in flight can be started again after a restart.
   *
   * A question in the inbox can be asked again; a model call that was streaming is
   * lost, and re-running it would bill the user twice.
   */
  readonly resumable: boolean;
  /**
   * Whether one task's work can start again after a restart, judged from what was recorded on
   * it (`notes`); when absent, `resumable` decides for every task.
   */
  canResume?(notes: ReadonlyArray<Record<string, unknown>>): boolean;
  /** `params` is the stored request itself, shared with the task record: read it, never change it. */
  run(
    params: CreateMessageRequestParams,
    context: WorkContext
  ): Promise<WorkOutcome<CreateMessageResult | CreateMessageResultWithTools>>;
}

/** Asks the user an `elicitation/create` question. */
export interface UserPrompter {
  readonly resumable: boolean;
  /** `params` is the stored request itself, shared with the task record: read it, never change it. */
  prompt(params: ElicitRequestParams, context: WorkContext): Promise<WorkOutcome<ElicitResult>>;
}
