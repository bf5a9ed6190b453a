import type { AuditSink } from '../audit/audit-log.js';
import type { OutboundTaskView } from '../contract/host-api.js';
import { isOutboundFinished } from '../requestor/outbound-task-state.js';

/** The audit entry type of a tool call run as a task that has ended. */
export const TOOL_TASK_ENDED = 'tool.task-ended';

/**
 * Records how each tool call run as a task ended, once per task: when nothing more will happen
 * to it (its outcome fetched, or it expired or was lost), with its state, who cancelled it,
 * Taskdesk's reason, the server's status message (not a completed task's) and, for an error, its
 * message (not a cancelled task's). `tool.called` recorded its start, and `tool.call-ended` that it
 * became a task.
 *
 * Tasks already finished when their records were loaded were recorded by the run that saw them
 * end; `finishedIds` names them, so that a later write of one (a retried save) records nothing.
 * A task that expired while Taskdesk was stopped is not one of them: it ends as this run starts,
 * and this run records it.
 */
export class ToolTaskEndAudit {
  readonly #audit: AuditSink;
  /** Tasks whose end is recorded (or happened before this run): ids only. */
  readonly #ended = new Set<string>();

  constructor(audit: AuditSink, finishedIds: Iterable<string>) {
    this.#audit = audit;
    for (const id of finishedIds) this.#ended.add(id);
  }

  /** A task's view changed (`outbound.changed`); true when this change ended it (its end recorded now, once). */
  changed(view: OutboundTaskView): boolean {
    if (!finished(view) || this.#ended.has(view.outboundId)) return false;
    this.#ended.add(view.outboundId);
    const outcome = view.outcome;
    // What the person reads: Taskdesk's reason (an expiry, a lost task) as a reason; the server's
    // last status message as that, and only where it may say why the task ended (a completed
    // task's is what it last said while it worked, "Generating report..."). A cancelled task has
    // no result, and the error its `tasks/result` answered ("has no result stored") says nothing.
    const statusMessage = view.state === 'completed' ? undefined : view.task.statusMessage;
    const error = view.state === 'cancelled' || outcome?.type !== 'error' ? undefined : outcome.error.message;
    this.#audit.record({
      type: TOOL_TASK_ENDED,
      serverId: view.serverId,
      serverName: view.serverName,
      taskId: view.taskId,
      detail: {
        tool: view.toolName,
        outboundId: view.outboundId,
        state: view.state,
        ...(view.state === 'cancelled' && view.cancelledBy !== undefined && { cancelledBy: view.cancelledBy }),
        ...(outcome &&
          !(view.state === 'cancelled' && outcome.type === 'error') && {
            outcome: outcome.type === 'error' ? 'error' : outcome.result.isError === true ? 'tool-error' : 'result'
          }),
        ...(view.reason !== undefined && { reason: view.reason }),
        ...(statusMessage !== undefined && statusMessage !== view.reason && { statusMessage }),
        ...(error !== undefined && { error })
      }
    });
    return true;
  }

  /** A task was forgotten: its id is no longer kept. */
  removed(outboundId: string): void {
    this.#ended.delete(outboundId);
  }
}

function finished(view: OutboundTaskView): boolean {
  return isOutboundFinished(view.state, view.outcome !== undefined);
}
