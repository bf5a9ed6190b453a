import { formatDuration } from './format.js';

/**
 * What Taskdesk asked for, when the server keeps a requested task for less time than that, in
 * words said after the keep time: " (Taskdesk asked for 1 h)". The countdown alone would look like
 * Taskdesk forgot what was asked; a line of its own would say the task's lifetime twice.
 *
 * The receiver decides a task's ttl (MCP tasks): it may grant less than the `task.ttl` asked for.
 * Undefined when nothing was asked for, when the server keeps it as long or longer (or without a
 * limit), or when its ttl is not known.
 */
export function askedTtlWords(requestedTtl: number | null, grantedTtl: number | null | undefined): string | undefined {
  if (requestedTtl === null || grantedTtl === null || grantedTtl === undefined) return undefined;
  if (grantedTtl >= requestedTtl) return undefined;
  return ` (Taskdesk asked for ${formatDuration(requestedTtl)})`;
}
