/* Imports nothing: the core (History's summaries) and the Desk (badges, results) say it alike. */

/** JSON-RPC code of a model request turned down: MCP's −1, "User rejected sampling request". */
export const USER_REJECTED = -1;

/** The message MCP clients answer a person's rejection with. */
export const userRejectedMessage = 'User rejected sampling request';

/**
 * Whether a task is a model request a server gave Taskdesk that was turned down (−1: the
 * person's Reject, or the server's sampling policy). Its protocol status is `failed`, but it is a
 * decision, not a failure, and the Desk says "Rejected".
 */
export function isRejectedSampling(task: {
  kind: string;
  direction: string;
  error?: { code: number } | undefined;
}): boolean {
  return task.kind === 'sampling' && task.direction === 'received' && task.error?.code === USER_REJECTED;
}
