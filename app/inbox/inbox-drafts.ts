import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { INBOX_DRAFT_MAX_CHARS, InboxDraftValuesSchema, type InboxDraftValues } from '../contract/host-api.js';
import { errorMessage } from '../core/errors.js';
import { notMovedText, quarantineFile } from '../store/quarantine.js';
import { trackDocumentWrite, workerDocumentWriter, type DocumentWriter } from '../store/document-writer.js';

/** The drafts' document (conf's name for it, without `.json`) and file in the data directory. */
const INBOX_DRAFTS_NAME = 'inbox-drafts';
export const INBOX_DRAFTS_FILE = `${INBOX_DRAFTS_NAME}.json`;

/** Drafts kept at most: past this, the one typed into longest ago goes. */
export const INBOX_DRAFTS_MAX = 100;

/** A file larger than this is no file of ours (every draft at its largest, and room for ids). */
const FILE_MAX_BYTES = INBOX_DRAFTS_MAX * (INBOX_DRAFT_MAX_CHARS + 1024);

const DraftsFileSchema = z.object({
  version: z.literal(1),
  /** Oldest first: the order they were last typed into. */
  drafts: z.array(z.object({ id: z.string(), values: InboxDraftValuesSchema }))
});

/** Where the drafts live and where a file that cannot be read goes. */
export interface InboxDraftsOptions {
  dataDir: string;
  corruptDir: string;
  /** Writes the file (the store's document writer, off the event loop, by default). */
  writer?: DocumentWriter;
}

/**
 * What the person has typed into the Inbox's task questions, kept in a small file in the data
 * directory so that a question back after a restart comes back with it (the Electron window and
 * browser mode share it: it is the host's).
 *
 * The values are kept as the card sends them; the card checks them against its form when it
 * starts from them. Each draft is bounded ({@link INBOX_DRAFT_MAX_CHARS}) and so is their number
 * ({@link INBOX_DRAFTS_MAX}). The file is written whole, or not at all, by the store's document
 * writer (conf, in the worker thread: a hundred drafts at their largest are megabytes, written
 * and synced off the event loop), one write at a time: a change made while one is on its way is
 * written by the next, which takes every change made until it starts. One that cannot be read is
 * moved aside (a warning says so) and the drafts start empty. A write that fails loses nothing but
 * the draft: the card still holds what was typed.
 */
export class InboxDrafts {
  readonly #dir: string;
  readonly #file: string;
  readonly #writer: DocumentWriter;
  /** The last write asked for (it never rejects), and the one not started yet, if any. */
  #tail: Promise<boolean> = Promise.resolve(true);
  #next: Promise<boolean> | undefined;
  /** Set by {@link close}: nothing is changed or written any more. */
  #closed = false;
  /** The drafts as the last write that landed held them. */
  #written = new Map<string, InboxDraftValues>();
  /** In the order they were last typed into, oldest first. */
  readonly #drafts = new Map<string, InboxDraftValues>();
  /** Why the file could not be read, for a host warning; undefined when it could. */
  readonly warning: { message: string; movedTo?: string } | undefined;

  constructor(options: InboxDraftsOptions) {
    this.#dir = options.dataDir;
    this.#file = path.join(options.dataDir, INBOX_DRAFTS_FILE);
    this.#writer = options.writer ?? workerDocumentWriter();
    const read = readDrafts(this.#file);
    if (read.ok) {
      for (const { id, values } of read.drafts) if (fits(values)) this.#drafts.set(id, values);
      this.#written = new Map(this.#drafts);
      return;
    }
    const kept = quarantineFile(this.#file, options.corruptDir, 'inbox-drafts');
    this.warning = {
      message: `What was typed into the Inbox's questions before Taskdesk last closed could not be read, so it is not back in their cards: ${read.reason}${kept ? notMovedText(kept) : ''}`,
      ...(kept && kept.notMoved === undefined && { movedTo: kept.movedTo })
    };
  }

  /** A copy of the draft kept for `id`, if one is. */
  get(id: string): InboxDraftValues | undefined {
    const values = this.#drafts.get(id);
    return values && structuredClone(values);
  }

  /**
   * Keeps `values` as the draft of `id` (null forgets it). A draft too large is not kept, and the
   * one kept before goes (it is no longer what was typed). Resolves to whether it was kept: on
   * disk, in a write that holds it.
   */
  async keep(id: string, values: InboxDraftValues | null): Promise<boolean> {
    // A card's last send as the window goes, after Taskdesk began closing: the draft on disk stays.
    if (this.#closed) return false;
    const had = this.#drafts.get(id);
    this.#drafts.delete(id);
    if (values === null || !fits(values)) {
      if (had !== undefined) void this.#save();
      return false;
    }
    const kept = structuredClone(values);
    this.#drafts.set(id, kept);
    for (const oldest of this.#drafts.keys()) {
      if (this.#drafts.size <= INBOX_DRAFTS_MAX) break;
      this.#drafts.delete(oldest);
    }
    // Kept only if the write that landed held it (not dropped or pushed out before it started).
    return (await this.#save()) && this.#written.get(id) === kept;
  }

  /** Forgets the draft of `id` (its question was answered or withdrawn). */
  drop(id: string): void {
    if (!this.#closed && this.#drafts.delete(id)) void this.#save();
  }

  /** Forgets every draft whose question can no longer come back (`keep` says which can). */
  prune(keep: (id: string) => boolean): void {
    if (this.#closed) return;
    let dropped = false;
    for (const id of [...this.#drafts.keys()]) {
      if (keep(id)) continue;
      this.#drafts.delete(id);
      dropped = true;
    }
    if (dropped) void this.#save();
  }

  /** Ids with a draft, oldest first. */
  ids(): string[] {
    return [...this.#drafts.keys()];
  }

  /** Resolves once every write asked for so far has landed or failed. */
  async settled(): Promise<void> {
    await this.#tail;
  }

  /**
   * Takes no more changes (Taskdesk is closing): a write already asked for still lands, and is
   * counted among the document writes a closing host waits for (see {@link #save}).
   */
  close(): void {
    this.#closed = true;
  }

  /**
   * Writes the drafts as they are when the write starts, after the one on its way: a write not
   * started yet takes this change too. Resolves to whether it landed.
   */
  #save(): Promise<boolean> {
    if (this.#next) return this.#next;
    const next = this.#tail.then(() => {
      this.#next = undefined;
      return this.#write();
    });
    this.#next = next;
    this.#tail = next;
    // Counted from now, not from when it starts: a closing host waits for a write still queued too.
    void trackDocumentWrite(next.then(() => undefined));
    return next;
  }

  /** The file written whole (none when there are no drafts); false when it could not be. */
  async #write(): Promise<boolean> {
    const written = new Map(this.#drafts);
    try {
      if (this.#drafts.size === 0) await fs.promises.rm(this.#file, { force: true });
      else {
        const body: z.infer<typeof DraftsFileSchema> = {
          version: 1,
          drafts: [...this.#drafts].map(([id, values]) => ({ id, values }))
        };
        // Serialized in the writer (the worker), as a checkpoint's records are.
        await this.#writer({ cwd: this.#dir, name: INBOX_DRAFTS_NAME, data: [{ json: body }, '\n'] });
      }
      this.#written = written;
      return true;
    } catch {
      // Not writable (a full or read-only disk): the card still holds what was typed.
      return false;
    }
  }
}

/** Whether a draft is small enough to keep. */
function fits(values: InboxDraftValues): boolean {
  return JSON.stringify(values).length <= INBOX_DRAFT_MAX_CHARS;
}

type Read = { ok: true; drafts: z.infer<typeof DraftsFileSchema>['drafts'] } | { ok: false; reason: string };

/** The drafts in `file`: none when there is no file; why not when it cannot be read or is not ours. */
function readDrafts(file: string): Read {
  let text: string;
  try {
    if (fs.statSync(file).size > FILE_MAX_BYTES) return { ok: false, reason: 'the file is too large' };
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, drafts: [] };
    return { ok: false, reason: errorMessage(error) };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'the file is not JSON' };
  }
  const parsed = DraftsFileSchema.safeParse(json);
  return parsed.success
    ? { ok: true, drafts: parsed.data.drafts }
    : { ok: false, reason: 'the file is not as expected' };
}
