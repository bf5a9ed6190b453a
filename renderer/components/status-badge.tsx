import { statusLabel } from './status-words.js';

/**
 * A status as a word and a colour; the word carries the meaning, the colour only helps.
 * `rejected` for a model request turned down (see `isRejectedSampling`): its protocol status,
 * kept in `data-status`, is `failed`, but it reads "Rejected", a decision rather than a failure.
 * `label` replaces the status's word (History's "Cancelled by Taskdesk": who cancelled, said once).
 */
export function StatusBadge({
  status,
  rejected = false,
  label
}: {
  status: string;
  rejected?: boolean;
  label?: string;
}) {
  const shown = rejected && status === 'failed' ? 'rejected' : status;
  return (
    <span className={`status status-${shown}`} data-status={status}>
      {label ?? statusLabel(shown)}
    </span>
  );
}
