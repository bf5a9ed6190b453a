import { assertNever } from '../core/assert-never.js';
import type { OutboundTaskState, ServerTaskStatus } from '../contract/outbound-tasks.js';

/**
 * The outbound task state machine.
 *
 * Receiver statuses move `working ⇄ input_required → completed | failed | cancelled`, and
 * terminal is final. The requestor adds two conclusions of its own, `expired` and `lost`,
 * which are final too. This function is the only place transitions are decided.
 */

/** Something learned about a task. */
export type OutboundStateEvent =
  | { type: 'status'; status: ServerTaskStatus }
  /** The ttl ran out before the result was fetched. */
  | { type: 'expired' }
  /** The receiver no longer knows the task, before its ttl ran out. */
  | { type: 'lost' };

/**
 * The state after `event`, or undefined when the event must be ignored.
 *
 * A status report that would move a terminal task is ignored (terminal is final, and a
 * late poll answer can arrive after a status notification). `expired` and `lost` may end
 * a terminal task whose result was never fetched; the caller checks that.
 */
export function nextOutboundState(
  current: OutboundTaskState,
  event: OutboundStateEvent
): OutboundTaskState | undefined {
  switch (current) {
    case 'expired':
    case 'lost':
      return undefined;
    case 'completed':
    case 'failed':
    case 'cancelled':
      return event.type === 'status' ? undefined : event.type;
    case 'working':
    case 'input_required':
      return event.type === 'status' ? (event.status === current ? undefined : event.status) : event.type;
    default:
      return assertNever(current, 'Unknown outbound task state');
  }
}

/** Whether the receiver reported a terminal status. */
export function isServerTerminal(state: OutboundTaskState): state is 'completed' | 'failed' | 'cancelled' {
  switch (state) {
    case 'completed':
    case 'failed':
    case 'cancelled':
      return true;
    case 'working':
    case 'input_required':
    case 'expired':
    case 'lost':
      return false;
    default:
      return assertNever(state, 'Unknown outbound task state');
  }
}

/**
 * Whether nothing more will happen to the task: no poll, no `tasks/result`.
 *
 * A terminal task is finished only once its outcome was fetched; until then the
 * requestor keeps trying to fetch it (until the ttl runs out).
 */
export function isOutboundFinished(state: OutboundTaskState, hasOutcome: boolean): boolean {
  if (state === 'expired' || state === 'lost') return true;
  return isServerTerminal(state) && hasOutcome;
}
