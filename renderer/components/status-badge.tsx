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
  // A question declined or dismissed completed, but nothing was answered: not the green of an answer.
  const quiet = label === 'Declined' || label === 'Dismissed';
  return (
    <span className={`status status-${shown}${quiet ? ' status-quiet' : ''}`} data-status={status}>
      {label ?? statusLabel(shown)}
    </span>
  );
}
