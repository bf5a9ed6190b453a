/* Imports nothing: the Desk takes it as a value (a contract module that imports zod would bring
   zod's eval probe into the page), and the audit log's search says statuses as the Desk does. */

const LABELS: Record<string, string> = {
  working: 'Working',
  input_required: 'Input required',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
  expired: 'Expired',
  lost: 'Lost',
  // Not a protocol status: a model request turned down (`failed`), as its badge says it.
  rejected: 'Rejected',
  // Not protocol statuses either: how a question to the person ended (`completed`), as its badge says it.
  answered: 'Answered',
  declined: 'Declined',
  dismissed: 'Dismissed',
  idle: 'Not connected',
  connecting: 'Connecting',
  ready: 'Ready',
  closed: 'Disconnected'
};

/** A status in words ("Input required" for `input_required`), as the badges and filters say it. */
export function statusLabel(status: string): string {
  return LABELS[status] ?? status;
}
