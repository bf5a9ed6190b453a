const LABELS: Record<string, string> = {
  working: 'Working',
  input_required: 'Input required',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
  expired: 'Expired',
  lost: 'Lost',
  idle: 'Not connected',
  connecting: 'Connecting',
  ready: 'Ready',
  closed: 'Disconnected'
};

/** A status in words ("Input required" for `input_required`), as the badges and filters say it. */
export function statusLabel(status: string): string {
  return LABELS[status] ?? status;
}

/** A status as a word and a colour; the word carries the meaning, the colour only helps. */
export function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`status status-${status}`} data-status={status}>
      {statusLabel(status)}
    </span>
  );
}
