/* A module of its own (no JSX), so that code without React (row models, their tests) can name statuses. */

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
  idle: 'Not connected',
  connecting: 'Connecting',
  ready: 'Ready',
  closed: 'Disconnected'
};

/** A status in words ("Input required" for `input_required`), as the badges and filters say it. */
export function statusLabel(status: string): string {
  return LABELS[status] ?? status;
}
