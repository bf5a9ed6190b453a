import { JsonRpcCode, errorMessage, toErrorData } from '../core/errors.js';
import { STOPPED_WHILE_RUNNING } from '../requestor/plain-calls.js';

/**
 * How a tool call that threw ended, for its `tool.call-ended` entry: `cancelled` as History says
 * it (the person cancels a call, its Cancel or `exchanges.cancel`, or Taskdesk's closing does,
 * with its reason), else `error` with the error's message.
 */
export function thrownCallDetail(error: unknown): Record<string, unknown> {
  const data = toErrorData(error);
  if (data.code !== JsonRpcCode.RequestCancelled) return { outcome: 'error', error: errorMessage(error) };
  return data.message === STOPPED_WHILE_RUNNING
    ? { outcome: 'cancelled', cancelledBy: 'taskdesk', reason: data.message }
    : { outcome: 'cancelled', cancelledBy: 'you' };
}
