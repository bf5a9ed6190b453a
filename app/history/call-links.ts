import type { HistoryAsked, HistoryEntry, HistorySummary } from '../contract/history.js';

/**
 * The links between a tool call's History entry and the questions and model requests its server
 * asked for it or while it ran, made as they are read from what the entries keep: a request's
 * `relatedTaskId` names a requested task by its server's task id (`taskId` on the call's entry),
 * its `duringCall` a plain call by its `callId` (on the call's entry, which began before the
 * request was asked and had not ended before it). Indexes the call entries by those keys.
 */
export class CallLinks {
  /** `requested:` entries by their server and the server's task id. */
  readonly #tasks = new Map<string, string>();
  /** Plain calls' entries by their server and `callId` (a caller may use a `callId` again). */
  readonly #calls = new Map<string, string[]>();
  /** Received requests asked for a requested task, by their server and that task's id (what {@link askedForTask} reads). */
  readonly #askers = new Map<string, Set<string>>();

  add(entry: HistoryEntry): void {
    const asking = askingKey(entry);
    if (asking !== undefined) {
      const ids = this.#askers.get(asking);
      if (ids) ids.add(entry.id);
      else this.#askers.set(asking, new Set([entry.id]));
    }
    if (entry.kind !== 'tool-call') return;
    if (entry.id.startsWith('requested:') && entry.taskId !== undefined)
      this.#tasks.set(keyOf(entry.serverId, entry.taskId), entry.id);
    if (entry.callId !== undefined) {
      const key = keyOf(entry.serverId, entry.callId);
      const ids = this.#calls.get(key);
      if (!ids) this.#calls.set(key, [entry.id]);
      else if (!ids.includes(entry.id)) ids.push(entry.id);
    }
  }

  remove(entry: HistoryEntry): void {
    const asking = askingKey(entry);
    const ids = asking === undefined ? undefined : this.#askers.get(asking);
    if (ids) {
      ids.delete(entry.id);
      if (ids.size === 0) this.#askers.delete(asking!);
    }
    if (entry.kind !== 'tool-call') return;
    if (entry.taskId !== undefined && this.#tasks.get(keyOf(entry.serverId, entry.taskId)) === entry.id)
      this.#tasks.delete(keyOf(entry.serverId, entry.taskId));
    if (entry.callId !== undefined) {
      const key = keyOf(entry.serverId, entry.callId);
      const left = (this.#calls.get(key) ?? []).filter((id) => id !== entry.id);
      if (left.length > 0) this.#calls.set(key, left);
      else this.#calls.delete(key);
    }
  }

  /**
   * The received requests asked for the task of a requested call's entry: what they say of it
   * ("for the call of …") comes and goes with that entry.
   */
  askedForTask(call: HistoryEntry): ReadonlySet<string> {
    if (call.kind !== 'tool-call' || !call.id.startsWith('requested:') || call.taskId === undefined) return NONE;
    return this.#askers.get(keyOf(call.serverId, call.taskId)) ?? NONE;
  }

  /** The tool call a received request was asked for or while, and its entry's id while `get` has it. */
  forCall(entry: HistoryEntry, get: (id: string) => HistoryEntry | undefined): HistorySummary['forCall'] {
    if (entry.direction !== 'received') return undefined;
    // A `relatedTaskId` beside `askedFor` is Taskdesk's own id for a request that was no task.
    if (entry.relatedTaskId !== undefined && entry.askedFor === undefined) {
      const id = this.#tasks.get(keyOf(entry.serverId, entry.relatedTaskId));
      const call = id === undefined ? undefined : get(id);
      return call === undefined ? undefined : { tool: toolOf(call), how: 'for', entryId: call.id };
    }
    if (entry.duringCall === undefined) return undefined;
    const { callId, tool } = entry.duringCall;
    const call = (this.#calls.get(keyOf(entry.serverId, callId)) ?? [])
      .map(get)
      .find(
        (found) =>
          found !== undefined &&
          found.createdAt <= entry.createdAt &&
          (found.endedAt === undefined || entry.createdAt <= found.endedAt)
      );
    return { tool, how: 'while', ...(call && { entryId: call.id }) };
  }

  /** What a tool call's server asked for it or while it ran, oldest first; undefined for any other entry. */
  asked(
    call: HistoryEntry,
    entries: Iterable<HistoryEntry>,
    get: (id: string) => HistoryEntry | undefined
  ): HistoryAsked[] | undefined {
    if (call.kind !== 'tool-call') return undefined;
    const asked: HistoryAsked[] = [];
    for (const entry of entries) {
      if (entry.serverId !== call.serverId || entry.kind === 'tool-call') continue;
      if (this.forCall(entry, get)?.entryId !== call.id) continue;
      asked.push({ id: entry.id, kind: entry.kind, title: entry.title, createdAt: entry.createdAt });
    }
    return asked.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  }
}

const NONE: ReadonlySet<string> = new Set();

/** The key of the requested task a received request was asked for (see {@link CallLinks.forCall}), if any. */
function askingKey(entry: HistoryEntry): string | undefined {
  if (entry.direction !== 'received' || entry.relatedTaskId === undefined || entry.askedFor !== undefined)
    return undefined;
  return keyOf(entry.serverId, entry.relatedTaskId);
}

function keyOf(serverId: string, id: string): string {
  return `${serverId}\u0000${id}`;
}

/** A tool call entry's tool, by its request's `name` (its title says it too, after "Tool call: "). */
function toolOf(call: HistoryEntry): string {
  const name = (call.request as { name?: unknown }).name;
  return typeof name === 'string' ? name : call.title.replace(/^Tool call: /, '');
}
