import type { InboundTask } from '../../app/contract/host-api.js';
import { asText, truncate } from '../components/format.js';
import { isTerminal } from '../store/task-status.js';
import { cancelledWords } from '../components/cancelled-words.js';

/** How a task ended, in a line: the elicitation answer, the reply's text, or the error. */
export function outcomeSummary(inbound: InboundTask): string {
  // A cancelled task's stored −32800 says nothing beyond who cancelled it.
  if (inbound.task.status === 'cancelled') return cancelledWords(inbound.cancelledBy);
  const outcome = inbound.outcome;
  if (!outcome) return isTerminal(inbound.task.status) ? '—' : 'Pending';
  if (outcome.type === 'error') return `Error ${outcome.error.code}: ${outcome.error.message}`;
  const result = outcome.result;
  if (inbound.kind === 'elicitation') {
    const action = asText(result.action, 'answered');
    return result.content ? `${action}: ${truncate(JSON.stringify(result.content), 120)}` : action;
  }
  const content = result.content as { type?: unknown; text?: unknown } | undefined;
  const text =
    content?.type === 'text' && typeof content.text === 'string'
      ? `“${truncate(content.text, 100)}”`
      : `[${asText(content?.type, 'no')} content]`;
  return typeof result.model === 'string' ? `${text} (${result.model})` : text;
}
