import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { INBOX_DRAFT_MAX_CHARS, InboxDraftValuesSchema, type InboxDraftValues } from '../contract/host-api.js';
import { errorMessage } from '../core/errors.js';
import { notMovedText, quarantineFile } from '../store/quarantine.js';

/** The drafts' file in the data directory. */
export const INBOX_DRAFTS_FILE = 'inbox-drafts.json';

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
}

/**
 * What the person has typed into the Inbox's task questions, kept in a small file in the data
 * directory so that a question back after a restart comes back with it (the Electron window and
 * browser mode share it: it is the host's).
 *
 * The values are kept as the card sends them; the card checks them against its form when it
 * starts from them. Each draft is bounded ({@link INBOX_DRAFT_MAX_CHARS}) and so is their number
 * ({@link INBOX_DRAFTS_MAX}). The file is written whole, under a temporary name renamed over it;
 * one that cannot be read is moved aside (a warning says so) and the drafts start empty. A write
 * that fails loses nothing but the draft: the card still holds what was typed.
 */
export class InboxDrafts {
  readonly #file: string;
  /** In the order they were last typed into, oldest first. */
  readonly #drafts = new Map<string, InboxDraftValues>();
  /** Why the file could not be read, for a host warning; undefined when it could. */
  readonly warning: { message: string; movedTo?: string } | undefined;

  constructor(options: InboxDraftsOptions) {
    this.#file = path.join(options.dataDir, INBOX_DRAFTS_FILE);
    const read = readDrafts(this.#file);
    if (read.ok) {
      for (const { id, values } of read.drafts) if (fits(values)) this.#drafts.set(id, values);
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
   * one kept before goes (it is no longer what was typed). Returns whether it was kept.
   */
  keep(id: string, values: InboxDraftValues | null): boolean {
    const had = this.#drafts.get(id);
    this.#drafts.delete(id);
    if (values === null || !fits(values)) {
      if (had !== undefined) this.#save();
      return false;
    }
    this.#drafts.set(id, structuredClone(values));
    for (const oldest of this.#drafts.keys()) {
      if (this.#drafts.size <= INBOX_DRAFTS_MAX) break;
      this.#drafts.delete(oldest);
    }
    return this.#save();
  }

  /** Forgets the draft of `id` (its question was answered or withdrawn). */
  drop(id: string): void {
    if (this.#drafts.delete(id)) this.#save();
  }

  /** Forgets every draft whose question can no longer come back (`keep` says which can). */
  prune(keep: (id: string) => boolean): void {
    let dropped = false;
    for (const id of [...this.#drafts.keys()]) {
      if (keep(id)) continue;
      this.#drafts.delete(id);
      dropped = true;
    }
    if (dropped) this.#save();
  }

  /** Ids with a draft, oldest first. */
  ids(): string[] {
    return [...this.#drafts.keys()];
  }

  /** Writes the file whole (none when there are no drafts); false when it could not be written. */
  #save(): boolean {
    if (this.#drafts.size === 0) {
      try {
        fs.rmSync(this.#file, { force: true });
        return true;
      } catch {
        return false;
      }
    }
    const body: z.infer<typeof DraftsFileSchema> = {
      version: 1,
      drafts: [...this.#drafts].map(([id, values]) => ({ id, values }))
    };
    const temporary = `${this.#file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
    try {
      fs.writeFileSync(temporary, `${JSON.stringify(body)}\n`);
      fs.renameSync(temporary, this.#file);
      return true;
    } catch {
      // Not writable (a full or read-only disk): the card still holds what was typed.
      try {
        fs.rmSync(temporary, { force: true });
      } catch {
        // Nothing more to do.
      }
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
