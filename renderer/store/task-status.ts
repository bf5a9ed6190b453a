/**
 * The statuses after which nothing changes any more, in one place: a receiver task's
 * (MCP 2025-11-25 `Task`) and an outbound task's (which adds `expired` and `lost`).
 */
const TERMINAL: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled', 'expired', 'lost']);

/** Whether a task status (inbound or outbound) is final. */
export function isTerminal(status: string): boolean {
  return TERMINAL.has(status);
}
