import type { OutboundTaskView } from '../../app/contract/host-api.js';
import { shorterTtlWords } from './ttl-granted.js';
import { useNow } from './use-now.js';

/**
 * That the server keeps a requested task for less time than Taskdesk asked, when it does (the
 * receiver decides the ttl): the countdown alone would look like Taskdesk forgot what was asked.
 *
 * Said the same on the Tools screen's card, the Tasks screen's detail and the Assistant's task
 * card. Renders nothing otherwise, and keeps a clock (for "keeps" turning "kept") only then, so
 * that a long list of tasks kept as asked ticks for none of them.
 */
export function ShorterTtl({ task, className }: { task: OutboundTaskView; className?: string }) {
  if (!shorterTtlWords(task.requestedTtl, task.task.ttl)) return null;
  return <ShorterTtlLine task={task} className={className} />;
}

function ShorterTtlLine({ task, className }: { task: OutboundTaskView; className: string | undefined }) {
  const now = useNow(15_000);
  const past = task.expiresAt !== null && Date.parse(task.expiresAt) <= now;
  const words = shorterTtlWords(task.requestedTtl, task.task.ttl, { past });
  return words ? <p className={className ? `ttl-shorter ${className}` : 'ttl-shorter'}>{words}</p> : null;
}
