/* A module of its own (no JSX), so that code without React (row models, their tests) can name statuses. */

export { statusLabel } from '../../app/contract/status-labels.js';

/** A question's answer, by its action, as the person reads how the question ended. */
const ANSWERED: Record<string, string> = { accept: 'Answered', decline: 'Declined', cancel: 'Dismissed' };

/**
 * How a server's question to the person (a received elicitation, task or not) ended, said in
 * place of its protocol status "Completed" (every answer completes it, a decline and a dismissal
 * too): "Answered", "Declined" or "Dismissed", as its result's action (or History's summary's
 * `answer`) says; "Replied" when the record at hand holds neither (an entry of an older version).
 * Undefined for anything else, whose badge says its status.
 */
export function questionEndLabel(item: {
  kind: string;
  direction: string;
  status: string;
  result?: unknown;
  answer?: string | undefined;
}): string | undefined {
  if (item.kind !== 'elicitation' || item.direction !== 'received' || item.status !== 'completed') return undefined;
  const action = item.answer ?? (item.result as { action?: unknown } | undefined)?.action;
  return typeof action === 'string' && Object.hasOwn(ANSWERED, action) ? ANSWERED[action] : 'Replied';
}
