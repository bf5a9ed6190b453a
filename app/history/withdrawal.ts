import type { TaskRecord } from '../receiver/task-record.js';
import { withdrawnOf, type WithdrawalCause } from '../receiver/withdrawn-note.js';

/**
 * Why Taskdesk answered a server's model requests still waiting in the Inbox when the person set
 * that server's model requests to Refuse (the Inbox's reason, which the Audit log says, and the
 * words its server is told after "Taskdesk withdrew this request: "), in the words of the choice
 * the person made on the Servers screen. History tells such a refusal by the withdrawal's `cause`
 * (see {@link refusedByPolicy}).
 */
export const REFUSED_BY_POLICY = 'This server’s model requests were set to Refuse.';

/**
 * {@link REFUSED_BY_POLICY} as records made before the withdrawal's `cause` was kept have it: they
 * are told by these words alone, so they stay as those records wrote them.
 */
export const REFUSED_BY_POLICY_BEFORE = 'Sampling was turned off for this server (its policy is now Refuse).';

/** The withdrawal cause of a request refused because its server's policy was set to refuse. */
const POLICY_CAUSE: WithdrawalCause = 'policy';

/**
 * Whether a runner's `notes` say its model request was refused because the person set its
 * server's policy to refuse while it waited: its withdrawal note's `cause` says so. A note
 * written before the cause was kept has none, and says it only by its reason's words
 * ({@link REFUSED_BY_POLICY_BEFORE}), which are read for it as they were.
 */
function refusedByPolicy(notes: ReadonlyArray<Record<string, unknown>> | undefined): boolean {
  const withdrawn = withdrawnOf(notes);
  if (withdrawn === undefined) return false;
  return 'cause' in withdrawn ? withdrawn.cause === POLICY_CAUSE : withdrawn.reason === REFUSED_BY_POLICY_BEFORE;
}

/**
 * What History says of a model request refused because the person set its server's policy to
 * refuse while it waited, in place of the −1 its server was told; undefined for any other.
 *
 * Not a withdrawal (see `withdrawalOf`): its server was told it was declined, as a request that
 * arrives under that policy is, so the Desk says it as such a request: rejected, by the setting
 * the person chose, not cancelled by them.
 */
export function policyRefusalOf(
  notes: ReadonlyArray<Record<string, unknown>> | undefined,
  serverName: string
): string | undefined {
  return refusedByPolicy(notes) ? `Refused when you set ${serverName}’s model requests to Refuse.` : undefined;
}

/**
 * Taskdesk's withdrawal of a server's request (a plain one or one asked as a task of its own),
 * as History says it: a cancellation, with why and what its server was told. Its runner's notes
 * say whether it was withdrawn (`withdrawnOf`); undefined when it was not, and for a model
 * request refused by a policy change (`policyRefusalOf`), which History says as the refusal it is.
 *
 * Its server was answered as a dismissal (an elicitation's `cancel`, a model request's −1; a
 * task of its own ended `completed` or `failed` with that answer), which is no answer of the
 * person's: History records it as cancelled, not as what the protocol calls it. Cancelled by
 * you when the person's own action is why (they pressed Stop or Cancel on the task it was asked
 * for, as the task's entry beside it says), else by Taskdesk.
 */
export function withdrawalOf(
  kind: 'sampling' | 'elicitation',
  notes: ReadonlyArray<Record<string, unknown>> | undefined
): { by: 'you' | 'taskdesk'; reason: string } | undefined {
  const withdrawn = withdrawnOf(notes);
  if (withdrawn === undefined || refusedByPolicy(notes)) return undefined;
  const told = kind === 'elicitation' ? 'dismissed' : 'declined';
  return {
    by: withdrawn.byYou ? 'you' : 'taskdesk',
    reason: `${withdrawn.reason} Taskdesk withdrew it, and told its server it was ${told}.`
  };
}

/**
 * Taskdesk's withdrawal of a received task that ended with the dismissal it answered its server
 * (see `withdrawalOf`); undefined for any other task, and while it runs.
 */
export function withdrawnTask(record: Pick<TaskRecord, 'kind' | 'notes' | 'task'>): ReturnType<typeof withdrawalOf> {
  const { status } = record.task;
  return status === 'completed' || status === 'failed' ? withdrawalOf(record.kind, record.notes) : undefined;
}
