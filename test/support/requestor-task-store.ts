import { randomUUID } from 'node:crypto';
import {
  type McpError,
  type Request,
  type RequestId,
  type Result,
  type Task
} from '@modelcontextprotocol/sdk/types.js';
import { isTerminal, type CreateTaskOptions, type TaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import type { Clock, TimerHandle } from '../../app/core/clock.js';

interface Stored {
  task: Task;
  result?: Result;
  error?: McpError;
}

/**
 * A server-side `TaskStore` for test peers, driven by an injected clock.
 *
 * Unlike the SDK's `InMemoryTaskStore` it shares tasks across sessions (so a task outlives
 * the HTTP session that created it, as a durable server's would), may omit `pollInterval`,
 * deletes tasks `ttl` ms after creation on the given clock, can store a JSON-RPC error as
 * a task's outcome, and returns copies.
 */
export class ClockedTaskStore implements TaskStore {
  readonly #clock: Clock;
  readonly #pollInterval: number | undefined;
  readonly #tasks = new Map<string, Stored>();
  readonly #timers = new Map<string, TimerHandle>();
  readonly #pageSize: number;

  constructor(options: { clock: Clock; pollInterval?: number | undefined; pageSize?: number }) {
    this.#clock = options.clock;
    this.#pollInterval = options.pollInterval;
    this.#pageSize = options.pageSize ?? 10;
  }

  async createTask(params: CreateTaskOptions, _requestId: RequestId, _request: Request): Promise<Task> {
    const taskId = randomUUID();
    const now = this.#iso();
    const task: Task = { taskId, status: 'working', ttl: params.ttl ?? null, createdAt: now, lastUpdatedAt: now };
    const pollInterval = params.pollInterval ?? this.#pollInterval;
    if (pollInterval !== undefined) task.pollInterval = pollInterval;
    this.#tasks.set(taskId, { task });
    if (task.ttl !== null) {
      this.#timers.set(
        taskId,
        this.#clock.setTimeout(() => this.forget(taskId), task.ttl)
      );
    }
    return { ...task };
  }

  async getTask(taskId: string): Promise<Task | null> {
    const stored = this.#tasks.get(taskId);
    return stored ? { ...stored.task } : null;
  }

  async storeTaskResult(taskId: string, status: 'completed' | 'failed', result: Result): Promise<void> {
    const stored = this.#require(taskId);
    if (isTerminal(stored.task.status)) throw new Error(`Task ${taskId} is already ${stored.task.status}`);
    stored.result = structuredClone(result);
    stored.task.status = status;
    stored.task.lastUpdatedAt = this.#iso();
    if (status === 'failed') stored.task.statusMessage = `Tool reported an error: ${firstText(result) ?? 'no details'}`;
  }

  /** Ends a task as failed whose `tasks/result` answers with a JSON-RPC error. */
  failWithError(taskId: string, error: McpError, statusMessage: string): void {
    const stored = this.#require(taskId);
    if (isTerminal(stored.task.status)) return;
    stored.error = error;
    stored.task.status = 'failed';
    stored.task.statusMessage = statusMessage;
    stored.task.lastUpdatedAt = this.#iso();
  }

  async getTaskResult(taskId: string): Promise<Result> {
    const stored = this.#require(taskId);
    if (stored.error) throw stored.error;
    if (!stored.result) throw new Error(`Task ${taskId} has no result stored`);
    return structuredClone(stored.result);
  }

  async updateTaskStatus(taskId: string, status: Task['status'], statusMessage?: string): Promise<void> {
    const stored = this.#require(taskId);
    if (isTerminal(stored.task.status)) throw new Error(`Task ${taskId} is already ${stored.task.status}`);
    stored.task.status = status;
    if (statusMessage !== undefined) stored.task.statusMessage = statusMessage;
    stored.task.lastUpdatedAt = this.#iso();
  }

  async listTasks(cursor?: string): Promise<{ tasks: Task[]; nextCursor?: string }> {
    const ids = [...this.#tasks.keys()];
    const start = cursor === undefined ? 0 : ids.indexOf(cursor) + 1;
    if (cursor !== undefined && start === 0) throw new Error(`Invalid cursor: ${cursor}`);
    const page = ids.slice(start, start + this.#pageSize);
    const tasks = page.map((id) => ({ ...this.#tasks.get(id)!.task }));
    return start + this.#pageSize < ids.length ? { tasks, nextCursor: page[page.length - 1]! } : { tasks };
  }

  /** Deletes a task, as a receiver may once its ttl ran out (or after a restart). */
  forget(taskId: string): void {
    this.#tasks.delete(taskId);
    const timer = this.#timers.get(taskId);
    if (timer) this.#clock.clearTimeout(timer);
    this.#timers.delete(taskId);
  }

  /** The task's current status, for test assertions. */
  statusOf(taskId: string): Task['status'] | undefined {
    return this.#tasks.get(taskId)?.task.status;
  }

  /** Stops every ttl timer. */
  close(): void {
    for (const timer of this.#timers.values()) this.#clock.clearTimeout(timer);
    this.#timers.clear();
  }

  #require(taskId: string): Stored {
    const stored = this.#tasks.get(taskId);
    if (!stored) throw new Error(`Task ${taskId} not found`);
    return stored;
  }

  #iso(): string {
    return new Date(this.#clock.now()).toISOString();
  }
}

function firstText(result: Result): string | undefined {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content;
  return content?.find((c) => c.type === 'text')?.text;
}
