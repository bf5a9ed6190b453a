import type { Clock } from '../core/clock.js';
import type { OutboundTaskView } from '../contract/outbound-tasks.js';

/** How many forgotten tasks are remembered per server (the oldest go first). */
const DEFAULT_LIMIT_PER_SERVER = 256;

/** What is remembered of a forgotten task: its tool, for the reason, and when its ttl runs out. */
interface Forgotten {
  toolName: string;
  expiresAtMs: number | undefined;
}

/**
 * The tool-call tasks the person forgot (Forget), by server and task id, so that a question a
 * server asks later for one of them can be answered at once rather than wait in the Inbox for
 * ever: nothing follows that task any more, so nothing would take up an answer.
 *
 * Kept in memory only, and bounded three ways: a task is dropped once its ttl has run out (its
 * server keeps it no longer, and has nothing to ask for it), each server keeps only its most
 * recent {@link DEFAULT_LIMIT_PER_SERVER}, and a server's are all dropped when its connection
 * ends (see {@link connectionEnded}). Task ids are the receiver's, unique only while it keeps
 * them: a server that restarts may give an old id to a new task, which this must not stand for.
 */
export class ForgottenTasks {
  readonly #clock: Clock;
  readonly #limit: number;
  /** serverId → taskId → what is known of it; each inner map in the order the tasks were forgotten. */
  readonly #byServer = new Map<string, Map<string, Forgotten>>();

  constructor(clock: Clock, limitPerServer = DEFAULT_LIMIT_PER_SERVER) {
    this.#clock = clock;
    this.#limit = limitPerServer;
  }

  /** Remembers a task the person forgot. */
  remember(task: Pick<OutboundTaskView, 'serverId' | 'taskId' | 'toolName' | 'expiresAt'>): void {
    let tasks = this.#byServer.get(task.serverId);
    if (!tasks) this.#byServer.set(task.serverId, (tasks = new Map<string, Forgotten>()));
    tasks.delete(task.taskId);
    tasks.set(task.taskId, {
      toolName: task.toolName,
      expiresAtMs: task.expiresAt === null ? undefined : Date.parse(task.expiresAt)
    });
    for (const [taskId] of tasks) {
      if (tasks.size <= this.#limit) break;
      tasks.delete(taskId);
    }
  }

  /** The forgotten task a server's task id names, if it is remembered and its ttl has not run out. */
  find(serverId: string, taskId: string): { toolName: string } | undefined {
    const tasks = this.#byServer.get(serverId);
    const task = tasks?.get(taskId);
    if (!tasks || !task) return undefined;
    if (task.expiresAtMs !== undefined && this.#clock.now() >= task.expiresAtMs) {
      this.#drop(serverId, tasks, taskId);
      return undefined;
    }
    return { toolName: task.toolName };
  }

  /** A task of this id is followed again (the server gave the id out anew): the id is its now. */
  followed(serverId: string, taskId: string): void {
    const tasks = this.#byServer.get(serverId);
    if (tasks) this.#drop(serverId, tasks, taskId);
  }

  /**
   * The server's connection ended: what was forgotten until now is dropped. A new connection may
   * be a restarted server whose task ids mean other tasks; a task forgotten while the server is
   * away is remembered through its next connection, the one that can still ask for it.
   */
  connectionEnded(serverId: string): void {
    this.#byServer.delete(serverId);
  }

  #drop(serverId: string, tasks: Map<string, unknown>, taskId: string): void {
    tasks.delete(taskId);
    if (tasks.size === 0) this.#byServer.delete(serverId);
  }
}
