import { errorMessage } from '../core/errors.js';
import { TaskdeskCancelled } from '../requestor/plain-calls.js';

/**
 * How a tool call that threw ended, for its `tool.call-ended` entry: `cancelled` as History says
 * it when Taskdesk ended it (the person cancels a call, its Cancel or `exchanges.cancel`, or
 * Taskdesk's closing does, with its reason), else `error` with the error's message. A −32800 the
 * server answered with on its own is an error too, in its words: nobody here cancelled the call.
 */
export function thrownCallDetail(error: unknown): Record<string, unknown> {
  if (!(error instanceof TaskdeskCancelled)) return { outcome: 'error', error: errorMessage(error) };
  return error.by === 'taskdesk'
    ? { outcome: 'cancelled', cancelledBy: 'taskdesk', reason: error.message }
    : { outcome: 'cancelled', cancelledBy: 'you' };
}
