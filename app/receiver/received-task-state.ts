import type { TaskStatus } from '@modelcontextprotocol/sdk/types.js';
import { assertNever } from '../core/assert-never.js';

/*
 * The state machine of received tasks: those a server hands Taskdesk (sampling, elicitation)
 * and Taskdesk serves as the receiver. The requestor's machine, for the tool calls Taskdesk
 * sends as tasks, is in `app/requestor/outbound-task-state.ts`.
 */

/** Statuses after which a task never changes again. */
export type TerminalStatus = 'completed' | 'failed' | 'cancelled';

/** Whether `status` is terminal. */
export function isTerminal(status: TaskStatus): status is TerminalStatus {
  switch (status) {
    case 'completed':
    case 'failed':
    case 'cancelled':
      return true;
    case 'working':
    case 'input_required':
      return false;
    default:
      return assertNever(status, 'Unknown task status');
  }
}

/**
 * Whether a task may move from `from` to `to` (spec 2025-11-25, "Task Status Lifecycle").
 *
 * working → input_required | completed | failed | cancelled;
 * input_required → working | completed | failed | cancelled; terminal is final.
 * A move to the same status is not a transition.
 */
export function canReceivedTaskTransition(from: TaskStatus, to: TaskStatus): boolean {
  if (from === to) return false;
  switch (from) {
    case 'working':
      return to !== 'working';
    case 'input_required':
      return to !== 'input_required';
    case 'completed':
    case 'failed':
    case 'cancelled':
      return false;
    default:
      return assertNever(from, 'Unknown task status');
  }
}
