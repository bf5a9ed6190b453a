/* Imports nothing: the Desk takes it as a value (a contract module that imports zod would bring
   zod's eval probe into the page), and the audit log's search says statuses as the Desk does. */

const LABELS: Record<string, string> = {
  working: 'Working',
  // The protocol's "input required": the task's server waits for an answer from Taskdesk, its
  // requestor (Taskdesk fetches its question, and a model may answer it), said as whose answer it
  // waits on, as "Waiting for you" says it of the person. Where the Desk knows the person is to give
  // it (the question waits in the Inbox), a badge says "Waiting for you" instead.
  input_required: 'Waiting for Taskdesk',
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

/** A status in words ("Waiting for Taskdesk" for `input_required`), as the badges and filters say it. */
export function statusLabel(status: string): string {
  return LABELS[status] ?? status;
}
