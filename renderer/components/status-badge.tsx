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

/**
 * A status as a word and a colour; the word carries the meaning, the colour only helps.
 * `rejected` for a model request turned down (see `isRejectedSampling`): its protocol status,
 * kept in `data-status`, is `failed`, but it reads "Rejected", a decision rather than a failure.
 */
export function StatusBadge({ status, rejected = false }: { status: string; rejected?: boolean }) {
  const shown = rejected && status === 'failed' ? 'rejected' : status;
  return (
    <span className={`status status-${shown}`} data-status={status}>
      {shown === 'rejected' ? 'Rejected' : statusLabel(status)}
    </span>
  );
}
