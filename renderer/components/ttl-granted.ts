import { formatDuration } from './format.js';

/**
 * When the server keeps a requested task for less time than Taskdesk asked, that in words:
 * "Taskdesk asked for 1 h; the server keeps it for 5 min." (`past` once its time has ended: "kept").
 *
 * The receiver decides a task's ttl (MCP tasks): it may grant less than the `task.ttl` asked for.
 * Undefined when nothing was asked for, when the server keeps it as long or longer (or without a
 * limit), or when its ttl is not known.
 */
export function shorterTtlWords(
  requestedTtl: number | null,
  grantedTtl: number | null | undefined,
  { past = false }: { past?: boolean } = {}
): string | undefined {
  if (requestedTtl === null || grantedTtl === null || grantedTtl === undefined) return undefined;
  if (grantedTtl >= requestedTtl) return undefined;
  return `Taskdesk asked for ${formatDuration(requestedTtl)}; the server ${past ? 'kept' : 'keeps'} it for ${formatDuration(grantedTtl)}.`;
}
