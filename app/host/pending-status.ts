import type { TaskView } from '../contract/common.js';

/** How many status notifications are kept per server identity while it is away. */
export const MAX_PENDING_NOTIFICATIONS = 1000;

/**
 * `notifications/tasks/status` for servers that are not connected: the newest per task, up to
 * {@link MAX_PENDING_NOTIFICATIONS} per server identity (the oldest task's goes first), handed
 * over when the server connects.
 */
export class PendingStatusNotifications {
  readonly #byIdentity = new Map<string, Map<string, TaskView>>();
  readonly #limit: number;

  constructor(limit = MAX_PENDING_NOTIFICATIONS) {
    this.#limit = limit;
  }

  /** Keeps `task` as the one to announce for its id, replacing an older one. */
  keep(identity: string, task: TaskView): void {
    let pending = this.#byIdentity.get(identity);
    if (!pending) this.#byIdentity.set(identity, (pending = new Map<string, TaskView>()));
    pending.delete(task.taskId);
    pending.set(task.taskId, task);
    if (pending.size > this.#limit) {
      const oldest = pending.keys().next();
      if (!oldest.done) pending.delete(oldest.value);
    }
  }

  /** The kept notifications of an identity, oldest first, and forgets them. */
  take(identity: string): TaskView[] {
    const pending = this.#byIdentity.get(identity);
    if (!pending) return [];
    this.#byIdentity.delete(identity);
    return [...pending.values()];
  }
}
