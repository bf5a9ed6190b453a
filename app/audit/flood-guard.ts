import type { AuditEntry } from '../contract/host-api.js';
import type { Clock } from '../core/clock.js';
import { RateLimiter } from '../receiver/rate-limiter.js';

/** How many entries of one kind from one server are written one by one. */
export interface FloodRate {
  /** Entries written at once before the rate applies. */
  burst: number;
  /** Entries a second written one by one after the burst. */
  perSecond: number;
  /** How long one summary of this kind covers, at most (default: the policy's `windowMs`). */
  windowMs?: number;
  /**
   * The summary keeps the last held-back entry's detail (`detail.last`): for a kind whose last
   * entry tells the state now (a connection's), which the count alone would hide.
   */
  keepLast?: true;
}

/** Rates for the flood guard: a default, and kinds a server can cause without limit. */
export interface FloodPolicy {
  default: FloodRate;
  /** By entry type. */
  byType: Record<string, FloodRate>;
  /** How long one summary covers, at most (default 1 s). */
  windowMs: number;
}

/**
 * The default policy. Ordinary entries (task creation, status changes) are kept one by one at
 * the receiver's own limits (50 operations a second, bursts of 200 are the most a server gets,
 * and each makes one or two entries); lookups of unknown ids and rate-limit refusals are what a
 * misbehaving server makes without limit, so they are summarized much sooner.
 */
export const defaultFloodPolicy: FloodPolicy = {
  default: { burst: 200, perSecond: 100 },
  byType: {
    'task.unknown-id': { burst: 20, perSecond: 2 },
    'task.rate-limited': { burst: 20, perSecond: 2 },
    // A server that fails and is connected again in a loop: its first changes one by one, then
    // one a minute, and one summary a minute of the rest.
    'server.state': { burst: 30, perSecond: 1 / 60, windowMs: 60_000, keepLast: true }
  },
  windowMs: 1000
};

/** The type of the entry that stands for the entries a flood guard held back. */
export const SUMMARY_TYPE = 'audit.summary';

interface Window {
  serverId: string | undefined;
  serverName: string | undefined;
  type: string;
  firstAt: number;
  lastAt: number;
  count: number;
  taskIds: string[];
  /** How long this window covers, at most. */
  windowMs: number;
  /** The last held-back entry's detail, for a kind whose rate keeps it. */
  last?: Record<string, unknown> | undefined;
}

const SAMPLE_TASK_IDS = 3;
const SAMPLE_ID_CHARS = 64;

/**
 * Keeps one server from filling the audit log with entries of one kind: past a rate (a token
 * bucket per server and type) entries are counted instead of written, and each window of at
 * most `windowMs` with held-back entries becomes one `audit.summary` entry ("120
 * task.unknown-id entries in 0.8 s"), with a few sample task ids.
 *
 * The guard has no timer of its own: a window's summary is due once the window is over and is
 * taken by `due()` (the log calls it whenever it writes) or by `drain()` (before a read, and at
 * close), so a flood that stops is summarized at the log's next write or read.
 */
export class FloodGuard {
  readonly #clock: Clock;
  readonly #policy: FloodPolicy;
  readonly #limiters = new Map<string, RateLimiter>();
  readonly #windows = new Map<string, Window>();

  constructor(clock: Clock, policy: FloodPolicy = defaultFloodPolicy) {
    this.#clock = clock;
    this.#policy = policy;
  }

  /** Whether an entry is written one by one; when not, it is counted into its window. */
  admit(entry: Pick<AuditEntry, 'serverId' | 'serverName' | 'type' | 'taskId' | 'detail'>): boolean {
    const key = `${entry.serverId ?? ''}\u0000${entry.type}`;
    const rate = Object.hasOwn(this.#policy.byType, entry.type)
      ? this.#policy.byType[entry.type]!
      : this.#policy.default;
    let limiter = this.#limiters.get(entry.type);
    if (!limiter) this.#limiters.set(entry.type, (limiter = new RateLimiter(this.#clock, rate.perSecond, rate.burst)));
    if (limiter.take(key) === 0) return true;
    const now = this.#clock.now();
    let window = this.#windows.get(key);
    if (!window) {
      window = {
        serverId: entry.serverId,
        serverName: entry.serverName,
        type: entry.type,
        firstAt: now,
        lastAt: now,
        count: 0,
        taskIds: [],
        windowMs: rate.windowMs ?? this.#policy.windowMs
      };
      this.#windows.set(key, window);
    }
    window.count++;
    window.lastAt = now;
    if (rate.keepLast) window.last = entry.detail;
    if (entry.taskId !== undefined && window.taskIds.length < SAMPLE_TASK_IDS)
      window.taskIds.push(entry.taskId.slice(0, SAMPLE_ID_CHARS));
    return false;
  }

  /** Summaries of the windows that are over. */
  due(): AuditEntry[] {
    const now = this.#clock.now();
    return this.#take((window) => now - window.firstAt >= window.windowMs);
  }

  /** Summaries of every window, over or not (a window still open starts again from zero). */
  drain(): AuditEntry[] {
    return this.#take(() => true);
  }

  #take(ready: (window: Window) => boolean): AuditEntry[] {
    const out: AuditEntry[] = [];
    for (const [key, window] of this.#windows) {
      if (!ready(window)) continue;
      this.#windows.delete(key);
      out.push(summaryOf(window));
    }
    return out;
  }
}

function summaryOf(window: Window): AuditEntry {
  const seconds = Math.max(window.lastAt - window.firstAt, 0) / 1000;
  return {
    at: new Date(window.lastAt).toISOString(),
    type: SUMMARY_TYPE,
    ...(window.serverId !== undefined && { serverId: window.serverId }),
    ...(window.serverName !== undefined && { serverName: window.serverName }),
    detail: {
      of: window.type,
      count: window.count,
      from: new Date(window.firstAt).toISOString(),
      to: new Date(window.lastAt).toISOString(),
      ...(window.taskIds.length > 0 && { sampleTaskIds: window.taskIds }),
      ...(window.last !== undefined && { last: window.last }),
      message: `${window.count} more ${window.type} entries in ${seconds.toFixed(1)} s, past the rate written one by one`
    }
  };
}
