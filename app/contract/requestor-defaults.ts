/**
 * Defaults of tool calls as tasks that the Desk shows as well as the requestor uses. Values only,
 * no zod: the renderer imports this module (see `conversation-summary.ts`).
 */

/** How long a server is asked to keep a task Taskdesk starts, when the call names no ttl: an hour. */
export const DEFAULT_TASK_TTL_MS = 3_600_000;
