import fs from 'node:fs';
import path from 'node:path';
import { assertDirectoryOrAbsent, ensureDirectory } from './data-directory.js';
import { Journal, type JournalContents, type JournalSync, type JournalWrite } from './journal.js';
import {
  inlineDocumentWriter,
  trackDocumentWrite,
  workerDocumentWriter,
  type DocumentText,
  type DocumentWriter
} from './document-writer.js';
import { confStoreFactory, STAGING_SUFFIX, writeDocument, type JsonFileStoreFactory } from './json-file-store.js';
import { notMovedText, quarantineFile, type Quarantined } from './quarantine.js';
import { syncDirectory } from './sync-directory.js';
import { errorMessage } from '../core/errors.js';
import { jsonText, jsonTextPieces, PieceList } from './json-text.js';

/** The version of the segment layout; bump it with a migration in `load`. */
const SEGMENT_VERSION = 1;
const SEGMENT_NAME = /^seg-(\d{12})$/;
/**
 * The journal file. Its name changed with its layout (a header, reuse from the top): a build
 * that knew only `journal.log` would read this one's leftovers as commits. A `journal.log` left
 * by such a build is replayed once and removed.
 */
const JOURNAL_FILE = 'wal.log';
const LEGACY_JOURNAL_FILE = 'journal.log';

/** What loading the log found. */
export interface SegmentLoadReport<T> {
  records: Map<string, T>;
  /** Segment files that did not parse, moved aside. */
  quarantined: Array<{ id: string; reason: string; movedTo: string }>;
}

/** A record a load's `parse` refused: reported, and left out of the records. */
export interface Rejected {
  id: string;
  reason: string;
  value: unknown;
}

/** How a caller follows a load as it goes (see {@link SegmentLog.load}). */
export interface SegmentLoadHooks<T> {
  /**
   * A key's value as read so far (a later entry may replace it), or `undefined` once deleted or
   * refused; also `undefined` for a dropped key whose deletion is found later on disk.
   */
  changed(id: string, value: T | undefined): void;
  /**
   * Called after each document and each journal batch: keys to drop now. A dropped key stays
   * dropped for the rest of the load (later entries for it are ignored) and is not in the result;
   * the caller deletes it afterwards. Drop only keys whose value can no longer change.
   */
  drop(): Iterable<string>;
}

/** Options for {@link SegmentLog}. */
export interface SegmentLogOptions {
  dir: string;
  corruptDir: string;
  factory: JsonFileStoreFactory;
  /** Records per segment written by a compaction. */
  compactSegmentSize?: number;
  /** Stale entries tolerated before a compaction, at least. */
  minGarbage?: number;
  /** How long a write nobody waits on may wait to share a commit (ms). */
  lazyMs?: number;
  /**
   * Commit through a journal (default true): a batch is acknowledged once appended to
   * `wal.log` with fdatasync, and written into a segment document within `checkpointMs`.
   * Without it every batch is a segment document of its own.
   */
  journal?: boolean;
  /** How long journalled batches wait to be written into a segment document (ms). */
  checkpointMs?: number;
  /** Replaces `fs.fdatasync` for the journal's background syncs: tests hold and fail syncs with it. */
  journalSync?: JournalSync;
  /** Replaces the journal's positioned `fs.writeSync`: tests make it write short or fail with it. */
  journalWrite?: JournalWrite;
  /**
   * Writes the checkpoints made in the background (see {@link SegmentLog}). Default: conf in a
   * worker thread when `factory` writes as conf does (conf itself, or electron-store's factory
   * marked so with {@link writesLikeConf}); otherwise `factory` on the event loop, a turn later.
   */
  documentWriter?: DocumentWriter;
  /**
   * Told when the store cannot write (a full or read-only disk: checkpoints failing, changes
   * refused) and when it writes again; the host shows these as warnings.
   */
  report?: (notice: StoreNotice) => void;
}

/** A change in whether the store can write, for a person to see. */
export interface StoreNotice {
  kind: 'problem' | 'recovered';
  message: string;
  movedTo?: string;
}

/**
 * Marks a store factory that writes documents exactly as conf does (electron-store, whose engine
 * conf is), so that the task store may write its checkpoints through conf in a worker thread.
 */
export function writesLikeConf<F extends JsonFileStoreFactory>(factory: F): F {
  confLike.add(factory);
  return factory;
}

const confLike = new WeakSet<JsonFileStoreFactory>([confStoreFactory]);

/** What kind of write is failing: a problem is reported once, when it starts. */
type ProblemKind = 'checkpoint' | 'commit' | 'journal';

/**
 * A durable key → record map as a log of small JSON documents ("segments"), each written
 * through the store factory (electron-store, or its engine `conf`, with fsync and atomic rename),
 * with a journal in front of them.
 *
 * Every change made in one turn of the event loop is one commit: a line appended to the journal
 * and made durable by an fdatasync in the thread pool that it shares with every line written while
 * the previous sync ran (or, without the journal, one new segment). `put`/`delete` return a promise that
 * settles once the commit is on disk, so a caller can acknowledge a change only after it is
 * durable. Journalled changes go into a segment document within `checkpointMs`, which records the
 * last journal batch it holds (the floor), and the journal starts again; on load the journal's
 * batches above the floor are replayed over the segments. The cost of persisting a change
 * depends on how many changes share the commit, never on how many records are retained: a
 * single-file store rewrites everything on every write.
 *
 * Checkpoints due on their timer are written in the background (conf in a worker thread, see
 * `documentWriter`), so that writing and syncing megabytes never holds the event loop: while one
 * is on its way, the journal takes no new lines (commits wait in memory and go in once it has
 * landed or failed), so that the document holds every line up to its floor and the journal
 * starts again only over lines the document holds, as a checkpoint made at once does. One that
 * fails leaves the journal as it was. Loading, `flushNow` and `close` checkpoint at once (a
 * background checkpoint still on its way is then superseded by theirs, which holds all it held).
 *
 * Later segments override earlier ones; a deletion is a tombstone. When stale entries outnumber
 * live ones, a compaction rewrites the live records into fresh segments, the last of which names
 * the first fresh sequence number (`compactedBelow`), so older segments are ignored on load even
 * if a crash interrupts their removal. One due after a background checkpoint is written in the
 * background too; loading, `flushNow` and `close` compact at once, unless one is on its way in the
 * background, which then lands on its own (a closing host waits for it: `documentWritesLanded`).
 */
export class SegmentLog<T> {
  readonly #dir: string;
  readonly #corruptDir: string;
  readonly #factory: JsonFileStoreFactory;
  readonly #compactSegmentSize: number;
  readonly #minGarbage: number;
  /** Each key's latest value: as loaded, or the JSON text `put` made of it (see {@link Written}). */
  readonly #live = new Map<string, Held<T>>();
  /** Entries per segment file on disk, and how many of them are still the latest version. */
  readonly #segments = new Map<number, { entries: number; live: number }>();
  /** The segment holding each key's latest entry. */
  readonly #where = new Map<string, number>();
  #nextSeq = 1;
  #pending = new Map<string, Held<T> | null>();
  /** Who waits for each pending change (a later change of the same key replaces the earlier, and is waited for by both). */
  #waiters = new Map<string, Waiter[]>();
  /** Batches written to the journal file, waiting for a sync to make them durable. */
  #unsynced: WrittenBatch<T>[] = [];
  /** The batches covered by the sync now running in the thread pool. */
  #syncing: WrittenBatch<T>[] | undefined;
  #flushScheduled = false;
  /** After a failed compaction, the entry count to reach before trying again. */
  #compactAfterEntries = 0;
  /** A compaction writing in the background (see {@link #compactInBackground}): no other starts meanwhile. */
  #compacting = false;
  #lazyTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #lazyMs: number;
  readonly #journal: Journal | undefined;
  readonly #checkpointMs: number;
  /** Journalled changes not yet in a segment document. */
  #checkpointPending = new Map<string, Held<T> | null>();
  /** The last journal batch number given out. */
  #journalSeq = 0;
  /** The last journal batch number held by the documents (a checkpoint's), carried by compactions. */
  #journalFloor = 0;
  /** A journal of the earlier layout, replayed at load, removed once a checkpoint holds it. */
  #legacyJournal: string | undefined;
  /** A journal sync failed: commits go through checkpoints until one starts a new round. */
  #journalSuspect = false;
  #checkpointTimer: ReturnType<typeof setTimeout> | undefined;
  /** The journal of the earlier layout could not be trusted: it is moved aside, not removed. */
  #legacyUntrusted = false;
  /** Where a damaged journal of the earlier layout was moved. */
  #legacyMovedTo: string | undefined;
  readonly #report: ((notice: StoreNotice) => void) | undefined;
  /** Writes failing now, each reported once when it started failing. */
  readonly #problems = new Set<ProblemKind>();
  readonly #documents: DocumentWriter;
  /**
   * The background checkpoint under way (its number), if any: the journal takes no new lines
   * meanwhile. A checkpoint made at once supersedes it (this is then cleared).
   */
  #background: number | undefined;
  #backgroundCount = 0;

  constructor(options: SegmentLogOptions) {
    this.#dir = options.dir;
    this.#corruptDir = options.corruptDir;
    this.#factory = options.factory;
    this.#compactSegmentSize = options.compactSegmentSize ?? 500;
    this.#minGarbage = options.minGarbage ?? 1000;
    this.#lazyMs = options.lazyMs ?? 10;
    this.#checkpointMs = options.checkpointMs ?? 200;
    this.#report = options.report;
    this.#documents =
      options.documentWriter ??
      (confLike.has(options.factory) ? workerDocumentWriter() : inlineDocumentWriter(options.factory));
    this.#journal =
      options.journal === false
        ? undefined
        : new Journal(path.join(options.dir, JOURNAL_FILE), {
            ...(options.journalSync && { fdatasync: options.journalSync }),
            ...(options.journalWrite && { write: options.journalWrite })
          });
    ensureDirectory(this.#dir);
    assertDirectoryOrAbsent(this.#corruptDir);
  }

  /**
   * Replays the segments on disk, one document at a time. `parse` validates one record; a record
   * it rejects is reported and dropped.
   *
   * With `hooks`, the caller follows the replay as it goes and may drop keys after each document
   * and journal batch, so that what the load holds at once is bounded by what the caller keeps
   * (plus one document), not by what the directory holds.
   */
  load(parse: (value: unknown) => T, hooks?: SegmentLoadHooks<T>): SegmentLoadReport<T> & { rejected: Rejected[] } {
    const quarantined: SegmentLoadReport<T>['quarantined'] = [];
    const rejected = new Map<string, Rejected & { seq?: number }>();
    /** Keys the caller dropped: later entries for them are stale copies, ignored. */
    const dropped = new Set<string>();
    const apply = (id: string, value: unknown, seq: number | undefined): void => {
      if (dropped.has(id)) {
        // Deleted on disk already (an earlier run's deletion, read after its older values).
        if (value === null) hooks?.changed(id, undefined);
        return;
      }
      rejected.delete(id);
      // A journal entry stays counted in its segment until the checkpoint below writes it.
      if (seq !== undefined) this.#retire(id);
      let parsed: T | null = null;
      if (value !== null) {
        try {
          parsed = parse(value);
        } catch (error) {
          rejected.set(id, { id, reason: errorMessage(error), value, seq });
        }
      }
      if (parsed === null) this.#live.delete(id);
      else {
        this.#live.set(id, parsed);
        if (seq !== undefined) this.#place(id, seq);
      }
      if (seq === undefined) this.#checkpointPending.set(id, parsed);
      hooks?.changed(id, parsed ?? undefined);
    };
    const drop = (): void => {
      if (!hooks) return;
      for (const id of hooks.drop()) {
        dropped.add(id);
        this.#retire(id);
        this.#live.delete(id);
        // A tombstone, not just forgetting it: the load's checkpoint then holds the deletion before
        // the journal lines that held the key's last version are reused.
        this.#checkpointPending.set(id, null);
      }
    };
    let journalFloor = 0;
    let floor = 0;
    // Names only: each document is read, applied and let go before the next one.
    const seqs: number[] = [];
    for (const file of fs.readdirSync(this.#dir)) {
      // A document whose write never finished (never renamed into place): the journal still
      // holds what it was to hold, since the journal starts again only after the rename.
      if (file.endsWith(`${STAGING_SUFFIX}.json`)) {
        fs.rmSync(path.join(this.#dir, file), { force: true });
        continue;
      }
      const match = SEGMENT_NAME.exec(file.replace(/\.json$/, ''));
      if (match && file.endsWith('.json')) seqs.push(Number(match[1]));
    }
    seqs.sort((a, b) => a - b);
    for (const seq of seqs) {
      this.#nextSeq = Math.max(this.#nextSeq, seq + 1);
      const name = segmentName(seq);
      let entries: Array<[string, unknown]>;
      try {
        const doc = this.#factory({ cwd: this.#dir, name }).store as {
          schemaVersion?: unknown;
          entries?: unknown;
          compactedBelow?: unknown;
          journalFloor?: unknown;
        };
        if (doc.schemaVersion !== SEGMENT_VERSION)
          throw new Error(`Unsupported segment version ${JSON.stringify(doc.schemaVersion)}`);
        if (!Array.isArray(doc.entries)) throw new Error('Segment has no entries list');
        if (typeof doc.journalFloor === 'number') journalFloor = Math.max(journalFloor, doc.journalFloor);
        if (typeof doc.compactedBelow === 'number') floor = Math.max(floor, doc.compactedBelow);
        entries = doc.entries as Array<[string, unknown]>;
      } catch (error) {
        const reason = errorMessage(error);
        const moved = this.#quarantine(name);
        quarantined.push({ id: name, reason: `${reason}${notMovedText(moved)}`, movedTo: moved.movedTo });
        continue;
      }
      // A segment below a finished compaction's marker (its removal was interrupted) is read
      // before the marker is: replaying it is harmless, as the compaction's fresh segments that
      // follow hold every key it left live, and the old ones left are the newest of their set.
      // It is removed below.
      this.#segments.set(seq, { entries: entries.length, live: 0 });
      for (const entry of entries) {
        if (!Array.isArray(entry) || typeof entry[0] !== 'string') continue;
        apply(entry[0], entry[1], seq);
      }
      drop();
    }
    if (floor > 0) {
      // Superseded by a finished compaction. A key whose latest entry is in one of them was not
      // live when the compaction ran (it holds every live key): it is not live now either.
      for (const [id, seq] of [...this.#where]) {
        if (seq >= floor) continue;
        this.#where.delete(id);
        this.#live.delete(id);
        hooks?.changed(id, undefined);
      }
      for (const [id, entry] of [...rejected]) if (entry.seq !== undefined && entry.seq < floor) rejected.delete(id);
      for (const seq of seqs) {
        if (seq >= floor) continue;
        this.#segments.delete(seq);
        fs.rmSync(this.#file(seq), { force: true });
      }
    }
    // Kept through compactions in either mode, so that a journal's floor is always checked against it.
    this.#journalFloor = journalFloor;
    if (this.#journal) {
      // Batches acknowledged after the last checkpoint: newer than every segment. A journal of
      // the earlier layout comes first: this layout's lines were all numbered after it.
      const legacy = path.join(this.#dir, LEGACY_JOURNAL_FILE);
      const older = fs.existsSync(legacy)
        ? new Journal(legacy).read(this.#corruptDir, journalFloor, true)
        : { batches: [], lastSeq: journalFloor };
      const contents = this.#readJournal(journalFloor, quarantined);
      if (contents.headerFloor !== undefined && contents.headerFloor > journalFloor) {
        // A round starts only once a document holds every line before it: that document is gone.
        this.#journal.distrust(
          `the journal starts after change ${contents.headerFloor}, but the documents hold changes only up to ${journalFloor}: the document that held the changes in between is missing or was moved aside`
        );
      }
      this.#journalSeq = Math.max(older.lastSeq, contents.lastSeq);
      if (older.batches.length > 0) this.#legacyJournal = legacy;
      else if (!older.untrusted) fs.rmSync(legacy, { force: true });
      if (older.untrusted) {
        this.#legacyJournal = legacy;
        this.#legacyUntrusted = true;
      }
      for (const batch of [...older.batches, ...contents.batches]) {
        for (const entry of batch) {
          if (!Array.isArray(entry) || typeof entry[0] !== 'string') continue;
          apply(entry[0], entry[1], undefined);
        }
        drop();
      }
      // This run never adds to a round an earlier run left: lines that run wrote without hearing
      // "done" may sit after the ones replayed, in any order. The replayed changes go into a
      // document and a new round starts (should that fail, the round goes on, and the checkpoint
      // is tried again later). A journal that cannot be trusted is never written to: commits go
      // through documents until a checkpoint has moved it aside.
      const untrusted = this.#journal.untrusted;
      if (untrusted !== undefined) this.#journalSuspect = true;
      const moved = this.#checkpointPending.size > 0 ? this.#checkpoint() : this.#restartJournalAtLoad();
      if (older.untrusted) {
        quarantined.push({
          id: 'journal',
          reason: `The task journal of the earlier layout is damaged: ${older.untrusted}. Its readable lines were replayed; ${this.#legacyJournal ? 'it is kept as it is, and moved aside once a document holds them' : 'it was moved aside'}`,
          movedTo: this.#legacyJournal ?? this.#legacyMovedTo ?? legacy
        });
      }
      if (untrusted !== undefined) {
        quarantined.push({
          id: 'journal',
          reason:
            `The task journal cannot be trusted: ${untrusted}. ` +
            (moved
              ? 'What could be read of it was replayed; the file was moved aside and a new journal started'
              : 'What could be read of it was replayed; the file is kept as it is, unused, and moved aside once its changes are in a document'),
          movedTo: moved?.movedTo ?? this.#journal.path
        });
      }
    }
    // Nothing was put yet: every value held is one the load read.
    const records = new Map<string, T>();
    for (const [id, value] of this.#live) if (!(value instanceof Written)) records.set(id, value);
    return {
      records,
      quarantined,
      rejected: [...rejected.values()].map(({ id, reason, value }) => ({ id, reason, value }))
    };
  }

  /**
   * Stores `value` under `id`; resolves when it is on disk.
   *
   * `urgent` writes (someone is waiting to be answered) are committed at the end of this turn
   * of the event loop. Others wait up to `lazyMs` so that they share a commit with the next
   * urgent batch: under load that halves the number of fsyncs, at the cost of a few
   * milliseconds before a status notification.
   */
  put(id: string, value: T, urgent = true): Promise<void> {
    // Serialized here, once: a value JSON cannot hold is refused on its own, before it is
    // anywhere, rather than failing the whole commit it would share with others.
    let json: { text: string; pieces?: readonly string[] } | undefined;
    try {
      json = jsonTextPieces(value);
    } catch (error) {
      return Promise.reject(new Error(`Cannot store ${id}: ${errorMessage(error)}`));
    }
    if (json === undefined || value === null)
      return Promise.reject(new Error(`Cannot store ${id}: it has no JSON value`));
    const large = json.text.length >= LARGE_RECORD_CHARS;
    const written = new Written(json.text, large ? value : undefined, large ? json.pieces : undefined);
    this.#live.set(id, written);
    return this.#enqueue(id, written, urgent);
  }

  /**
   * The length of the JSON text `put` made of `id`'s latest value (what the journal writes);
   * undefined for a value as loaded, or none. Lets a caller that bounds its records by size
   * count one without serializing it again.
   */
  textLength(id: string): number | undefined {
    const held = this.#live.get(id);
    return held instanceof Written ? held.text.length : undefined;
  }

  /** Deletes `id`; resolves when the deletion is on disk. */
  delete(id: string): Promise<void> {
    this.#live.delete(id);
    return this.#enqueue(id, null, false);
  }

  /** Number of segment files, for diagnostics and benchmarks. */
  get segmentCount(): number {
    return this.#segments.size;
  }

  /** Writes what is pending now, and checkpoints the journal into a segment document. */
  flushNow(): void {
    // A background checkpoint on its way is superseded: this one holds everything it holds.
    this.#supersedeBackground();
    this.#flush(true);
    this.#checkpoint();
  }

  /** Writes everything and releases the journal. Later writes open it again. */
  close(): void {
    this.flushNow();
    if (this.#checkpointTimer) clearTimeout(this.#checkpointTimer);
    this.#checkpointTimer = undefined;
    this.#journal?.close();
  }

  #enqueue(id: string, value: Held<T> | null, urgent: boolean): Promise<void> {
    this.#pending.set(id, value);
    const promise = new Promise<void>((resolve, reject) => {
      const waiting = this.#waiters.get(id);
      if (waiting) waiting.push({ resolve, reject });
      else this.#waiters.set(id, [{ resolve, reject }]);
    });
    if (urgent && !this.#flushScheduled) {
      this.#flushScheduled = true;
      setImmediate(() => this.#flush());
    } else if (!urgent && !this.#flushScheduled && !this.#lazyTimer) {
      this.#lazyTimer = setTimeout(() => this.#flush(), this.#lazyMs);
    }
    return promise;
  }

  /** Writes what is pending: a journal line's worth at a time (see `#takeLine`), or `whole`. */
  #flush(whole = false): void {
    this.#flushScheduled = false;
    if (this.#lazyTimer) clearTimeout(this.#lazyTimer);
    this.#lazyTimer = undefined;
    if (this.#pending.size === 0) return;
    // No new journal lines while a checkpoint is on its way: they go in once it has finished.
    if (this.#background !== undefined) return;
    if (this.#journal) {
      if (this.#journalSuspect) {
        this.#commitByCheckpoint(this.#takeBatch());
        return;
      }
      const { batch, waiters } = whole ? this.#takeBatch() : this.#takeLine();
      const entries = [...batch.entries()];
      try {
        this.#journal.writeBatch(++this.#journalSeq, this.#lineEntries(entries));
      } catch (error) {
        for (const waiter of waiters) waiter.reject(error);
        this.#problem('commit', error);
        return;
      }
      this.#unsynced.push({ batch, waiters });
      this.#startSync();
      return;
    }
    const { batch, waiters } = this.#takeBatch();
    const entries = [...batch.entries()];
    try {
      this.#writeSegment(entries);
      syncDirectory(this.#dir);
    } catch (error) {
      for (const waiter of waiters) waiter.reject(error);
      this.#problem('commit', error);
      return;
    }
    // The batch is on disk: its waiters hear so whatever a compaction does next.
    for (const waiter of waiters) waiter.resolve();
    this.#recovered('commit', 'checkpoint');
    this.#compactSafely();
  }

  /**
   * Group commit: one fdatasync in the thread pool covers every batch written since the last
   * one started. While it runs, the event loop takes the next requests and writes their
   * batches, which the next sync covers; waiters hear "done" only when a sync covering their
   * batch has finished.
   */
  #startSync(): void {
    if (this.#syncing || this.#unsynced.length === 0) return;
    const covered = this.#unsynced;
    this.#unsynced = [];
    this.#syncing = covered;
    this.#journal!.sync((error) => {
      // Already settled by a blocking sync (a checkpoint, a flush) while this one ran.
      if (this.#syncing !== covered) return;
      this.#syncing = undefined;
      if (error) {
        for (const { waiters } of covered) for (const waiter of waiters) waiter.reject(error);
        // The failed lines' pages may never reach the disk (Linux drops them after an error),
        // leaving a hole that a later read stops at: later lines are acknowledged only once a
        // document holds them, until a checkpoint has started a new round.
        this.#journalSuspect = true;
        this.#problem('commit', error);
        if (this.#unsynced.length > 0) this.#commitByCheckpoint(undefined);
        this.#continueBackground();
        return;
      }
      this.#settleDurable(covered);
      this.#startSync();
      this.#continueBackground();
    });
  }

  /**
   * Commits through a checkpoint instead of the journal (after a failed sync): the changes
   * journalled so far, the lines written but not synced, and `next`, go into one document, and a
   * new round starts. Their waiters hear "done" only once the document is on disk.
   */
  #commitByCheckpoint(next: WrittenBatch<T> | undefined): void {
    this.#supersedeBackground();
    const written = [...(this.#syncing ?? []), ...this.#unsynced, ...(next ? [next] : [])];
    this.#syncing = undefined;
    this.#unsynced = [];
    const entries = new Map(this.#checkpointPending);
    for (const { batch } of written) for (const [id, value] of batch) entries.set(id, value);
    const floor = this.#journalSeq;
    try {
      this.#writeSegment([...entries.entries()], floor);
      syncDirectory(this.#dir);
    } catch (error) {
      for (const { waiters } of written) for (const waiter of waiters) waiter.reject(error);
      this.#problem('commit', error);
      return;
    }
    // The document holds every line up to `floor`: whatever the journal does next loses none.
    this.#checkpointPending = new Map();
    this.#journalFloor = floor;
    this.#startNewRound(floor);
    this.#dropLegacyJournal();
    for (const { waiters } of written) for (const waiter of waiters) waiter.resolve();
    this.#recovered('commit', 'checkpoint');
    this.#compactSafely();
  }

  /** Makes every written batch durable now with a blocking sync, and settles its waiters. */
  #syncWrittenNow(): void {
    const written = [...(this.#syncing ?? []), ...this.#unsynced];
    this.#syncing = undefined;
    this.#unsynced = [];
    if (written.length === 0) return;
    try {
      this.#journal!.syncNow();
    } catch (error) {
      for (const { waiters } of written) for (const waiter of waiters) waiter.reject(error);
      // As after a failed background sync: the lines may leave a hole that a read stops at.
      this.#journalSuspect = true;
      this.#problem('commit', error);
      return;
    }
    this.#settleDurable(written);
  }

  /** Batches whose journal lines are on disk: due for a checkpoint, and their waiters hear so. */
  #settleDurable(written: WrittenBatch<T>[]): void {
    for (const { batch } of written) for (const [id, value] of batch) this.#checkpointPending.set(id, value);
    this.#scheduleCheckpoint();
    for (const { waiters } of written) for (const waiter of waiters) waiter.resolve();
    this.#recovered('commit');
  }

  /**
   * The next journal line's batch: what is pending, up to {@link LINE_CHARS} of text (and at least
   * one change), with the waiters of its changes: each line is a batch of its own, acknowledged
   * (or refused) once a sync covering it has finished. What is left is written on the next turn of
   * the event loop. After a background checkpoint,
   * megabytes of changes wait (a flood of large requests); written as one line they held the
   * event loop, and every other server, for as long as it took to encode them all.
   */
  #takeLine(): WrittenBatch<T> {
    let chars = 0;
    let batch: Map<string, Held<T> | null> | undefined;
    for (const [id, value] of this.#pending) {
      if (batch && chars >= LINE_CHARS) break;
      batch ??= new Map();
      chars += this.#textOf(value).length;
      batch.set(id, value);
    }
    if (!batch || batch.size === this.#pending.size) return this.#takeBatch();
    const waiters: Waiter[] = [];
    for (const id of batch.keys()) {
      this.#pending.delete(id);
      waiters.push(...(this.#waiters.get(id) ?? []));
      this.#waiters.delete(id);
    }
    if (!this.#flushScheduled) {
      this.#flushScheduled = true;
      setImmediate(() => this.#flush());
    }
    return { batch, waiters };
  }

  #takeBatch(): WrittenBatch<T> {
    const batch = this.#pending;
    const waiters = [...this.#waiters.values()].flat();
    this.#pending = new Map();
    this.#waiters = new Map();
    return { batch, waiters };
  }

  /** One new segment document holding `entries`, and the bookkeeping that follows. */
  #writeSegment(entries: Array<[string, Held<T> | null]>, journalFloor?: number): void {
    const seq = this.#nextSeq++;
    this.#write(seq, entries, undefined, journalFloor);
    this.#segments.set(seq, { entries: entries.length, live: 0 });
    for (const [id, value] of entries) {
      this.#retire(id);
      if (value !== null) this.#place(id, seq);
    }
  }

  #scheduleCheckpoint(delay = this.#checkpointMs): void {
    if (this.#checkpointTimer) return;
    this.#checkpointTimer = setTimeout(() => this.#startBackground(), delay);
    this.#checkpointTimer.unref?.();
  }

  /**
   * A checkpoint in the background (see {@link SegmentLog}): the journal stops taking lines, the
   * syncs running finish, and the document is written off the event loop.
   */
  #startBackground(): void {
    if (this.#checkpointTimer) clearTimeout(this.#checkpointTimer);
    this.#checkpointTimer = undefined;
    if (!this.#journal || this.#background !== undefined) return;
    this.#background = ++this.#backgroundCount;
    this.#continueBackground();
  }

  /** Writes the background checkpoint's document once no journal sync is running. */
  #continueBackground(): void {
    const id = this.#background;
    if (id === undefined || this.#syncing || this.#unsynced.length > 0) return;
    if (this.#checkpointPending.size === 0) {
      this.#endBackground(id);
      return;
    }
    // Every line up to the last one written is durable and held here: no line is written until this ends.
    const floor = this.#journalSeq;
    const entries = [...this.#checkpointPending.entries()];
    const seq = this.#nextSeq++;
    let data: DocumentText;
    try {
      data = this.#segmentPieces({ schemaVersion: SEGMENT_VERSION, journalFloor: floor }, entries);
    } catch (error) {
      this.#backgroundFailed(id, error);
      return;
    }
    trackDocumentWrite(this.#documents({ cwd: this.#dir, name: segmentName(seq), data })).then(
      () => this.#backgroundLanded(id, seq, entries, floor),
      (error: unknown) => this.#backgroundFailed(id, error)
    );
  }

  /** The background checkpoint's document is on disk, its name durable: as `#checkpoint` after its write. */
  #backgroundLanded(id: number, seq: number, entries: Array<[string, Held<T> | null]>, floor: number): void {
    if (this.#background !== id) {
      // Superseded by a checkpoint made at once, which holds all this one holds, and is newer.
      this.#segments.set(seq, { entries: entries.length, live: 0 });
      return;
    }
    this.#segments.set(seq, { entries: entries.length, live: 0 });
    for (const [key, value] of entries) {
      this.#retire(key);
      if (value !== null) this.#place(key, seq);
      if (this.#checkpointPending.get(key) === value) this.#checkpointPending.delete(key);
    }
    this.#journalFloor = floor;
    this.#startNewRound(floor);
    this.#dropLegacyJournal();
    this.#recovered('checkpoint', 'commit');
    this.#compactSafely(true);
    this.#endBackground(id);
  }

  #backgroundFailed(id: number, error: unknown): void {
    if (this.#background !== id) return;
    // The journal still holds every change: nothing is lost, the store only waits.
    this.#problem('checkpoint', error);
    this.#scheduleCheckpoint(this.#checkpointMs * CHECKPOINT_RETRY_FACTOR);
    this.#endBackground(id);
  }

  /**
   * A checkpoint made at once (or a commit through one) replaces the one on its way, which then
   * changes nothing when it ends; the commits that waited for it go in.
   */
  #supersedeBackground(): void {
    if (this.#background === undefined) return;
    this.#background = undefined;
    if (this.#pending.size > 0 && !this.#flushScheduled) {
      this.#flushScheduled = true;
      setImmediate(() => this.#flush());
    }
  }

  /** The journal takes lines again: the commits that waited go in now. */
  #endBackground(id: number): void {
    if (this.#background !== id) return;
    this.#background = undefined;
    if (this.#pending.size > 0) this.#flush();
    if (this.#checkpointPending.size > 0) this.#scheduleCheckpoint();
  }

  /**
   * Moves journalled changes into a segment document, then starts the journal again; returns
   * where a journal that could not be trusted was moved, when it was.
   *
   * The journal starts again only once the document is known to be whole on disk (written under
   * a staging name, its size checked, renamed, its directory synced): a checkpoint that did not
   * land leaves the journal as it was, holding every change.
   */
  #checkpoint(): Quarantined | undefined {
    if (this.#checkpointTimer) clearTimeout(this.#checkpointTimer);
    this.#checkpointTimer = undefined;
    this.#supersedeBackground();
    if (!this.#journal) return undefined;
    // Batches whose sync has not finished go into the document too: the journal starts again below.
    this.#syncWrittenNow();
    if (this.#checkpointPending.size === 0) return undefined;
    // Every line up to the last one written is held by this document now (or was refused).
    const floor = this.#journalSeq;
    try {
      this.#writeSegment([...this.#checkpointPending.entries()], floor);
      // The document's name must be durable before the journal lines it holds are overwritten:
      // a sync of lines over existing blocks does not commit the rename that created it.
      syncDirectory(this.#dir);
    } catch (error) {
      // The journal still holds every change: nothing is lost, the store only waits.
      this.#problem('checkpoint', error);
      this.#scheduleCheckpoint(this.#checkpointMs * CHECKPOINT_RETRY_FACTOR);
      return undefined;
    }
    this.#checkpointPending = new Map();
    this.#journalFloor = floor;
    const moved = this.#startNewRound(floor);
    this.#dropLegacyJournal();
    // Documents land again, and the journal restarts at the top of its file, where it has room.
    this.#recovered('checkpoint', 'commit');
    this.#compactSafely();
    return moved;
  }

  /**
   * A new round of the journal, once the documents hold every change up to `floor`. Should the
   * journal refuse (a read-only disk, a file that cannot be trusted and cannot be moved), nothing
   * is lost: the documents hold everything, and commits go through documents until a later
   * checkpoint starts a round.
   */
  #startNewRound(floor: number): Quarantined | undefined {
    try {
      const moved = this.#journal!.restart(floor);
      this.#journalSuspect = false;
      this.#recovered('journal');
      return moved;
    } catch (error) {
      this.#journalSuspect = true;
      this.#problem('journal', error);
      return undefined;
    }
  }

  /**
   * The journal's batches above `floor`. A journal that cannot be read at all (not a file, no
   * permission) is moved aside and reported, so that the host starts and a new one is made; one
   * that cannot even be moved is reported where it is, and writes fail with the reason.
   */
  #readJournal(floor: number, quarantined: SegmentLoadReport<T>['quarantined']): JournalContents {
    const journal = this.#journal!;
    try {
      return journal.read(this.#corruptDir, floor);
    } catch (error) {
      const moved = quarantineFile(journal.path, this.#corruptDir, 'journal') ?? { movedTo: journal.path };
      if (moved.notMoved !== undefined) journal.distrust(`it could not be read (${errorMessage(error)})`);
      quarantined.push({
        id: 'journal',
        reason: `The task journal could not be read: ${errorMessage(error)}${notMovedText(moved)}`,
        movedTo: moved.movedTo
      });
      return { batches: [], lastSeq: floor };
    }
  }

  /**
   * A new round at start, when nothing was left to replay. A disk that refuses it (read-only, full)
   * must not stop the host from starting: the first write tries again, and fails with the reason.
   */
  #restartJournalAtLoad(): Quarantined | undefined {
    // Nothing was replayed: the documents hold every line a journal that can be trusted has (its
    // header's floor is at most theirs). A new file (one that could not be trusted is moved
    // aside) starts at the documents' floor, so the next start checks it against them.
    const moved = this.#startNewRound(this.#journalFloor);
    this.#dropLegacyJournal();
    return moved;
  }

  /** The earlier layout's journal is held by a document now. */
  #dropLegacyJournal(): void {
    if (!this.#legacyJournal) return;
    // A damaged one keeps its bytes for a person to look at; it is moved aside, never deleted.
    if (this.#legacyUntrusted) {
      const moved = quarantineFile(this.#legacyJournal, this.#corruptDir, 'journal');
      if (moved?.notMoved !== undefined) return;
      this.#legacyMovedTo = moved?.movedTo;
    } else fs.rmSync(this.#legacyJournal, { force: true });
    this.#legacyJournal = undefined;
    this.#legacyUntrusted = false;
  }

  /** Reports a kind of write that started failing (once, until it recovers). */
  #problem(kind: ProblemKind, error: unknown): void {
    if (this.#problems.has(kind)) return;
    this.#problems.add(kind);
    const reason = errorMessage(error);
    const message = {
      checkpoint: `Taskdesk could not write a checkpoint of its task store (${reason}). Every acknowledged change is still in its journal, which keeps taking changes while it has room; Taskdesk tries again every ${(this.#checkpointMs * CHECKPOINT_RETRY_FACTOR) / 1000} s.`,
      commit: `Taskdesk could not store a change to its tasks (${reason}): it was refused (−32603), and so is every new task and status change until the disk takes writes again. Taskdesk tries again on its own.`,
      journal: `Taskdesk could not start its task journal (${reason}). Every stored change is in its documents; new changes are written as documents (slower) until the journal can start again.`
    }[kind];
    if (this.#report) this.#report({ kind: 'problem', message });
    else console.error(message);
  }

  /** Writes of these kinds land again: once none is failing, that is reported. */
  #recovered(...kinds: ProblemKind[]): void {
    if (this.#problems.size === 0) return;
    for (const kind of kinds) this.#problems.delete(kind);
    if (this.#problems.size > 0) return;
    const message = 'Taskdesk writes its task store again: changes are stored and acknowledged as usual.';
    if (this.#report) this.#report({ kind: 'recovered', message });
    else console.error(message);
  }

  /**
   * Compacts when garbage outnumbers live records: at once, or with `background` off the event loop
   * (see {@link #compactInBackground}), as a checkpoint made in the background does.
   */
  #compactSafely(background = false): void {
    try {
      if (!this.#dueForCompaction()) return;
      if (background) this.#compactInBackground();
      else this.#compact();
    } catch (error) {
      this.#compactionFailed(error);
    }
  }

  #compactionFailed(error: unknown): void {
    // Not tried again on every commit: only once the store has grown by half again.
    this.#compactAfterEntries = Math.ceil(this.#entryCount() * 1.5);
    console.error('Taskdesk could not compact its task store (it stays correct, only larger):', error);
  }

  /** Writes one segment document, whole or not at all (see {@link writeDocument}). */
  #write(seq: number, entries: Array<[string, unknown]>, compactedBelow?: number, journalFloor?: number): void {
    writeDocument(
      this.#factory,
      { cwd: this.#dir, name: segmentName(seq), serialize: this.#serializeSegment },
      {
        schemaVersion: SEGMENT_VERSION,
        entries,
        ...(compactedBelow !== undefined && { compactedBelow }),
        ...(journalFloor !== undefined && { journalFloor })
      }
    );
  }

  /**
   * A segment document as compact JSON, with each value's text from `put` rather than a second
   * serialization (a value read at load has none, and is serialized here).
   */
  readonly #serializeSegment = (doc: Record<string, unknown>): string => {
    const { entries, ...rest } = doc;
    const head = JSON.stringify(rest);
    return `${head.slice(0, -1)}${head === '{}' ? '' : ','}"entries":${this.#entriesText(entries as Array<[string, unknown]>)}}`;
  };

  /**
   * A background checkpoint's document as pieces (see `DocumentText`): the text `#serializeSegment`
   * makes, with each large record left as a value for the worker to serialize, and the small ones'
   * texts between them joined here.
   */
  #segmentPieces(head: Record<string, unknown>, entries: Array<[string, Held<T> | null]>): DocumentText {
    const pieces: Array<string | { json: unknown }> = [];
    let run: string[] = [`${JSON.stringify(head).slice(0, -1)},"entries":[`];
    for (const [index, [id, held]] of entries.entries()) {
      const prefix = `${index === 0 ? '' : ','}[${JSON.stringify(id)},`;
      const text = this.#textOf(held);
      const value = held instanceof Written ? held.value : held;
      // A rope's length is known without making it flat.
      if (text.length < LARGE_RECORD_CHARS || value === undefined) run.push(prefix, text, ']');
      else {
        run.push(prefix);
        pieces.push(run.join(''), { json: value });
        run = [']'];
      }
    }
    run.push(']}');
    pieces.push(run.join(''));
    return pieces.length === 1 && typeof pieces[0] === 'string' ? pieces[0] : pieces;
  }

  #entriesText(entries: Array<[string, unknown]>): string {
    // Concatenated, not joined: `join` copies every record's text into a new flat string, megabytes
    // for large records, which the write then copies again when it encodes the whole. A
    // concatenation is a rope over the texts, made flat once, by that write.
    let text = '[';
    for (const [index, [id, value]] of entries.entries())
      text += `${index === 0 ? '' : ','}[${JSON.stringify(id)},` + this.#textOf(value) + ']';
    return text + ']';
  }

  /**
   * A journal line's entries: their text, or, when a large record is among them, the pieces of
   * that text (see `Written.pieces`), so that the line is written without a flat copy of it.
   */
  #lineEntries(entries: Array<[string, unknown]>): string | string[] {
    if (!entries.some(([, value]) => value instanceof Written && value.pieces !== undefined))
      return this.#entriesText(entries);
    const list = new PieceList();
    list.add('[');
    for (const [index, [id, value]] of entries.entries()) {
      list.add(`${index === 0 ? '' : ','}[${JSON.stringify(id)},`);
      if (value instanceof Written) list.addPart(value);
      else list.add(this.#textOf(value));
      list.add(']');
    }
    list.add(']');
    return list.done();
  }

  #textOf(value: unknown): string {
    if (value instanceof Written) return value.text;
    if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
    return jsonText(value) ?? 'null';
  }

  /** The key's previous entry is stale now. */
  #retire(id: string): void {
    const previous = this.#where.get(id);
    if (previous === undefined) return;
    this.#where.delete(id);
    const segment = this.#segments.get(previous);
    if (segment) segment.live--;
  }

  #place(id: string, seq: number): void {
    this.#where.set(id, seq);
    const segment = this.#segments.get(seq);
    if (segment) segment.live++;
  }

  #dueForCompaction(): boolean {
    // One in the background is on its way: it is the compaction (a checkpoint made at once, which
    // would compact at once, leaves it to finish).
    if (this.#compacting) return false;
    const entries = this.#entryCount();
    if (entries < this.#compactAfterEntries) return false;
    const live = this.#where.size;
    // Garbage-driven only: a compaction rewrites `live` records after at least `live` stale
    // writes, so its cost per write stays constant whatever the number retained.
    return entries - live > Math.max(live, this.#minGarbage);
  }

  /**
   * {@link #compact} off the event loop, for a store that has grown large: rewriting 20,000 task
   * records of about 1 KB on the event loop held it for 120 ms here, every window and the other
   * servers waiting. The live records as they are now go to the document writer one fresh segment
   * at a time (a record written by `put` with the JSON text it was given; one as loaded at start,
   * which has none, serialized here, a segment's worth at a time), while commits and
   * checkpoints go on; the fresh segments are numbered before any segment written meanwhile, so
   * a change made meanwhile, in a later segment or the journal, is read after them, and the last
   * fresh one names the first (`compactedBelow`), as a compaction made at once does. Once all are
   * whole on disk, the records unchanged meanwhile are counted in them and the segments from
   * before go. One that fails leaves fresh segments without the marker, which hold current values
   * only and change nothing when read: they are removed by the next compaction. A segment at a
   * time, so that a checkpoint due meanwhile waits in the writer behind one segment, not all of
   * them (commits wait for a checkpoint on its way).
   */
  #compactInBackground(): void {
    const old = [...this.#segments.keys()];
    const items = [...this.#live.entries()];
    const chunks = Math.max(1, Math.ceil(items.length / this.#compactSegmentSize));
    const firstNew = this.#nextSeq;
    this.#nextSeq += chunks;
    const floor = this.#journalFloor;
    this.#compacting = true;
    const written: Array<{ seq: number; slice: Array<[string, Held<T>]> }> = [];
    const run = async () => {
      for (let chunk = 0; chunk < chunks; chunk++) {
        const seq = firstNew + chunk;
        const slice = items.slice(chunk * this.#compactSegmentSize, (chunk + 1) * this.#compactSegmentSize);
        const last = chunk === chunks - 1;
        const head = {
          schemaVersion: SEGMENT_VERSION,
          ...(last && { compactedBelow: firstNew }),
          ...(last && floor > 0 && { journalFloor: floor })
        };
        await this.#documents({ cwd: this.#dir, name: segmentName(seq), data: this.#segmentPieces(head, slice) });
        written.push({ seq, slice });
      }
      // Each document's writer synced the directory after its rename: the fresh names are durable.
    };
    trackDocumentWrite(run()).then(
      () => {
        this.#compacting = false;
        for (const { seq, slice } of written) {
          this.#segments.set(seq, { entries: slice.length, live: 0 });
          // A record changed meanwhile is counted where its newer entry is (or will be).
          for (const [id, held] of slice)
            if (this.#live.get(id) === held && this.#where.get(id) !== undefined && this.#where.get(id)! < firstNew) {
              this.#retire(id);
              this.#place(id, seq);
            }
        }
        // Below the marker now, each is read for nothing at the next start, which removes it:
        // one that cannot be removed now (a file held open elsewhere) stays counted until then.
        let kept: unknown;
        for (const seq of old) {
          try {
            fs.rmSync(this.#file(seq), { force: true });
            this.#segments.delete(seq);
          } catch (error) {
            kept ??= error;
          }
        }
        if (kept !== undefined)
          console.error('Taskdesk could not remove a document its compaction replaced (the next start does):', kept);
      },
      (error: unknown) => {
        this.#compacting = false;
        // Written without the marker: counted as all stale, so that the next compaction removes them.
        for (const { seq, slice } of written) this.#segments.set(seq, { entries: slice.length, live: 0 });
        this.#compactionFailed(error);
      }
    );
  }

  #entryCount(): number {
    let entries = 0;
    for (const segment of this.#segments.values()) entries += segment.entries;
    return entries;
  }

  /**
   * Rewrites live records into fresh segments, then removes the old ones.
   *
   * The bookkeeping changes only once every fresh segment is written. A compaction that fails
   * half-way leaves fresh segments without the completion marker: they hold current values only,
   * so replaying them after the old ones changes nothing, and the next compaction removes them.
   */
  #compact(): void {
    const old = [...this.#segments.keys()];
    const firstNew = this.#nextSeq;
    const items = [...this.#live.entries()];
    const segments = new Map<number, { entries: number; live: number }>();
    const where = new Map<string, number>();
    const chunks = Math.max(1, Math.ceil(items.length / this.#compactSegmentSize));
    for (let chunk = 0; chunk < chunks; chunk++) {
      const seq = this.#nextSeq++;
      const slice = items.slice(chunk * this.#compactSegmentSize, (chunk + 1) * this.#compactSegmentSize);
      try {
        // The last fresh segment marks the compaction complete, and keeps the journal's floor.
        const last = chunk === chunks - 1;
        this.#write(
          seq,
          slice,
          last ? firstNew : undefined,
          last && this.#journalFloor > 0 ? this.#journalFloor : undefined
        );
      } catch (error) {
        for (const [written, segment] of segments) this.#segments.set(written, { entries: segment.entries, live: 0 });
        throw error;
      }
      segments.set(seq, { entries: slice.length, live: slice.length });
      for (const [id] of slice) where.set(id, seq);
    }
    // The fresh documents' names are durable before the old documents go.
    syncDirectory(this.#dir);
    this.#segments.clear();
    this.#where.clear();
    for (const [seq, segment] of segments) this.#segments.set(seq, segment);
    for (const [id, seq] of where) this.#where.set(id, seq);
    for (const seq of old) fs.rmSync(this.#file(seq), { force: true });
  }

  #file(seq: number): string {
    return path.join(this.#dir, `${segmentName(seq)}.json`);
  }

  #quarantine(name: string): Quarantined {
    const file = path.join(this.#dir, `${name}.json`);
    return quarantineFile(file, this.#corruptDir, `${path.basename(this.#dir)}-${name}`) ?? { movedTo: file };
  }
}

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** A batch of changes and whoever waits for it to be on disk. */
interface WrittenBatch<T> {
  batch: Map<string, Held<T> | null>;
  waiters: Waiter[];
}

/**
 * A value `put` stored, held as the JSON text made of it there (the journal's line, the
 * checkpoint and a compaction all write that text), not as the value itself.
 *
 * Holding the value as well, with its text beside it in a WeakMap, kept a copy of every record
 * and an ephemeron per record alive for as long as the key lived: the caller keeps the record
 * anyway (the requestor its task views), and the collector had to mark both and work through the
 * WeakMap's entries. The text is the exact bytes acknowledged, too: a later change the caller
 * makes to objects the value shared cannot reach a compaction's rewrite of it.
 */
class Written {
  /**
   * `value` is held for a large record only (its text {@link LARGE_RECORD_CHARS} or more): its
   * long strings are the text's own (see `jsonText`), so it costs only its objects, and a
   * background checkpoint clones it into its worker rather than making the text flat here (see
   * `#segmentPieces`). Such a record must not change once put, as `partText`'s parts must not.
   */
  constructor(
    readonly text: string,
    readonly value?: unknown,
    /** For a large record, the flat pieces of `text` (see `JsonPart.pieces`), for the journal to write. */
    readonly pieces?: readonly string[]
  ) {}
}

/** What the log holds of a value: as the load read it, or as `put` wrote it. */
type Held<T> = T | Written;

/** After a failed checkpoint, the next one is tried this many checkpoint intervals later. */
const CHECKPOINT_RETRY_FACTOR = 10;
/** Text of the changes one journal line holds at most, when more are pending (see `#takeLine`). */
const LINE_CHARS = 1024 * 1024;
/** A record whose JSON text is at least this long goes to a background checkpoint's writer as a value (see `#segmentPieces`). */
const LARGE_RECORD_CHARS = 64 * 1024;

function segmentName(seq: number): string {
  return `seg-${String(seq).padStart(12, '0')}`;
}
