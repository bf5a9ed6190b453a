import type { OutboundTaskView } from '../../app/contract/host-api.js';
import { askedTtlWords } from './ttl-granted.js';

/**
 * After a requested task's keep time, what Taskdesk asked for when the server keeps the task for
 * less (the receiver decides the ttl): " (Taskdesk asked for 1 h)". Said so on the Tools screen's
 * card, the Tasks screen's detail and the Assistant's task card; nothing once the task is no
 * longer kept (`gone`).
 */
export function AskedTtl({ task, gone = false }: { task: OutboundTaskView; gone?: boolean }) {
  const words = gone ? undefined : askedTtlWords(task.requestedTtl, task.task.ttl);
  return words ? <span className="ttl-asked">{words}</span> : null;
}
