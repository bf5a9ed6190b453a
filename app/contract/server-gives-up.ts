/* Imports types alone: the Desk takes it as a value (a contract module that imports zod would
   bring zod's eval probe into the page), and the core asks it of each ordinary request that ends. */
import type { InboxItem } from './host-api.js';
import type { OutboundTaskView } from './outbound-tasks.js';

/**
 * Whether the item's server may stop waiting for the answer, as a server does with any ordinary
 * request it sent (an SDK server's default request timeout is a minute): then it withdraws the
 * request, and the card goes. The core notes how long such a server waited (`ServerView.waits`).
 *
 * That holds for a question a legacy (2025-11-25) server asks for one of its tasks too: the
 * related-task `_meta` ties it to the task, but the request itself is ordinary and times out.
 * No server times out a task-augmented request (Taskdesk's own task, which the server polls),
 * a multi round-trip request's question (`relatedCall`) or a 2026-07-28 task's input request
 * (its `relatedTask` has a `protocol`): Taskdesk holds those, and the server asks for the answer.
 */
export function serverMayGiveUp(
  item: Pick<InboxItem, 'taskId' | 'expiresAt' | 'relatedTaskId' | 'relatedCall'>,
  relatedTask: Pick<OutboundTaskView, 'protocol'> | undefined
): boolean {
  if (item.taskId !== undefined || item.expiresAt !== undefined || item.relatedCall) return false;
  return item.relatedTaskId === undefined || relatedTask?.protocol === undefined;
}
