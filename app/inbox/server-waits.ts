import { z } from 'zod';
import { ServerWaitsSchema, type ServerWaits } from '../contract/host-api.js';
import { isTimeoutReason } from './inbox.js';
import type { EndedOrdinaryRequest } from '../receiver/task-receiver.js';
import type { JsonFileStoreFactory } from '../store/json-file-store.js';
import { openVersionedDocument, type OpenedDocument } from '../store/versioned-document.js';

/**
 * What the end of an ordinary request tells of how long its server waits for an answer, if
 * anything: it `sat-through` the wait (it was answered, and had not withdrawn it), or it
 * `gave-up` after it (it withdrew the request saying it timed out, as the SDK's timeout does).
 *
 * A server's cancel that does not say it timed out tells nothing: it may be its own timeout
 * unsaid (a wait it would not sit through again), or its caller stopping (no wait at all). Nor
 * does a request Taskdesk or the person ended unanswered (Taskdesk closed, a Disconnect, the
 * question's call cancelled): a server may stop waiting without a word (not every SDK sends a
 * cancel when its timeout fires), and an open request is no sign that it still waited.
 */
export function waitOfEnded(
  ended: Pick<EndedOrdinaryRequest, 'askedAt' | 'endedAt' | 'cancelled'>
): { how: 'sat-through' | 'gave-up'; waitedMs: number } | undefined {
  const waitedMs = Date.parse(ended.endedAt) - Date.parse(ended.askedAt);
  if (!Number.isFinite(waitedMs) || waitedMs < 0) return undefined;
  const { cancelled } = ended;
  if (cancelled === undefined) return { how: 'sat-through', waitedMs };
  if (cancelled.by === 'server' && isTimeoutReason(cancelled.reason)) return { how: 'gave-up', waitedMs };
  return undefined;
}

/**
 * How long each server waits for the answer to an ordinary request, as far as Taskdesk has seen
 * (`ServerView.waits`), by server id: the longest wait it sat through, and the shortest after
 * which it gave up. Kept in one small versioned document, so that the Inbox's cards say it after a
 * restart too. A file that does not parse is moved aside with a warning; the cards then say what
 * servers often do, as before anything was seen.
 */
export class ServerWaitsStore {
  readonly warnings: Array<{ message: string; movedTo?: string }> = [];
  readonly #document: OpenedDocument<Array<[string, ServerWaits]>>;
  readonly #waits: Map<string, ServerWaits>;

  constructor(options: { dir: string; corruptDir: string; factory: JsonFileStoreFactory }) {
    this.#document = openVersionedDocument({
      ...options,
      name: 'server-waits',
      label: 'record of how long servers wait for answers (the Inbox says what servers often do)',
      version: 1,
      // A list of pairs, not an object (whose `__proto__` key `z.record` would drop): any server id is a plain key.
      schema: z.array(z.tuple([z.string(), ServerWaitsSchema])),
      empty: () => []
    });
    if (this.#document.warning) this.warnings.push(this.#document.warning);
    this.#waits = new Map(this.#document.value);
  }

  /** What is known of how long the server waits (a copy); undefined when nothing is. */
  get(serverId: string): ServerWaits | undefined {
    const waits = this.#waits.get(serverId);
    return waits && { ...waits };
  }

  /**
   * Notes how an ordinary request of the server ended (see {@link waitOfEnded}), in whole seconds.
   * Returns whether that changed what is known: a longer wait sat through, or a shorter one given up after.
   */
  noteEnded(serverId: string, ended: Parameters<typeof waitOfEnded>[0]): boolean {
    const wait = waitOfEnded(ended);
    if (!wait) return false;
    const seconds = Math.floor(wait.waitedMs / 1000) * 1000;
    const known = this.#waits.get(serverId) ?? {};
    if (wait.how === 'sat-through') {
      // Under a second tells nothing a card would say.
      if (seconds <= (known.longestMs ?? 0)) return false;
      this.#waits.set(serverId, { ...known, longestMs: seconds });
    } else {
      if (known.gaveUpAfterMs !== undefined && seconds >= known.gaveUpAfterMs) return false;
      this.#waits.set(serverId, { ...known, gaveUpAfterMs: seconds });
    }
    this.#save();
    return true;
  }

  /** Forgets a removed server's waits: one added again under its id is another server. */
  forget(serverId: string): void {
    if (!this.#waits.delete(serverId)) return;
    this.#save();
  }

  /** Forgets the servers no longer configured (one given by Taskdesk's start options that is not any more). */
  keepOnly(serverIds: ReadonlySet<string>): void {
    const gone = [...this.#waits.keys()].filter((serverId) => !serverIds.has(serverId));
    if (gone.length === 0) return;
    for (const serverId of gone) this.#waits.delete(serverId);
    this.#save();
  }

  #save(): void {
    try {
      this.#document.save([...this.#waits]);
    } catch {
      // Kept in memory for this run (written with the next change): at worst, after a restart the
      // Inbox says what servers often do, as before anything was seen.
    }
  }
}
