import fs from 'node:fs';
import path from 'node:path';
import { syncDirectory } from './sync-directory.js';

/** One committed batch: keys and their new values (`null` deletes). */
export type JournalBatch = Array<[string, unknown]>;

/** `fs.fdatasync`, or a stand-in for it. */
export type JournalSync = (fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => void;

/** A batch and its place in commit order. */
export interface JournalLine {
  seq: number;
  entries: JournalBatch;
}

/** What reading a journal found. */
export interface JournalContents {
  /** In commit order. */
  batches: JournalBatch[];
  /** The highest sequence number seen. */
  lastSeq: number;
  /** Set when the journal had a damaged line before its end: the file was copied aside. */
  damaged?: { reason: string; movedTo: string };
}

/** The header is this long, newline included, so that a new one always overwrites the old one whole. */
const HEADER_BYTES = 64;
/** Bytes written (zeros) when the file is created, so that early commits overwrite blocks that exist. */
const PREALLOCATE_BYTES = 4 * 1024 * 1024;
/** A file grown past this (a burst, checkpoints failing for a while) is cut back when it restarts. */
const SHRINK_ABOVE_BYTES = 4 * PREALLOCATE_BYTES;

/**
 * An append-only journal of committed batches, one JSON line each, made durable with
 * `fdatasync` on a descriptor kept open.
 *
 * It is the write-ahead half of the task store: a batch is acknowledged once its line is on
 * disk, and the documents that hold the records for good are written from it a little later (a
 * checkpoint), after which the journal starts again.
 *
 * Starting again does not truncate the file: the next lines overwrite the old ones from the top,
 * the way SQLite reuses its WAL file. An fdatasync after overwriting blocks that already exist
 * only flushes data, where one after growing the file must also commit the file system's own
 * journal (about 0.10 ms against 0.15 ms here), so the file is also created with its first
 * megabytes written. A fixed-size header line names the `floor`: lines with a sequence number at
 * or below it are already in the documents (what is left of earlier rounds below the new lines is
 * all at or below it), so reading keeps exactly the lines above it.
 */
export class Journal {
  readonly path: string;
  #fd: number | undefined;
  /** Where the next line goes; unknown until the file has been read or started. */
  #offset: number | undefined;
  /** The floor of the current round, for the header of a file created anew. */
  #floor = 0;
  /** Syncs running in the thread pool on `#fd`. */
  #syncing = 0;
  #closeWhenIdle = false;
  readonly #fdatasync: JournalSync;

  constructor(file: string, fdatasync: JournalSync = fs.fdatasync) {
    this.path = file;
    this.#fdatasync = fdatasync;
  }

  /**
   * Reads the committed batches above `floor` (the last sequence number the documents hold, when
   * they say), and places the next line after the last one kept.
   *
   * A torn last line is a batch whose commit never finished (its writer never heard "done"), so
   * it is dropped, like anything after the last line kept (leftovers of earlier rounds, zeros).
   * A damaged line before a kept one is not expected; the file is copied to `corruptDir` and
   * every other batch is kept.
   */
  read(corruptDir: string, floor = 0): JournalContents {
    let text: string;
    try {
      text = fs.readFileSync(this.path, 'latin1');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      this.#offset = undefined;
      this.#floor = floor;
      return { batches: [], lastSeq: floor };
    }
    const kept: Array<JournalLine & { end: number }> = [];
    let firstBad: { index: number; reason: string } | undefined;
    let badBeforeKept: { index: number; reason: string } | undefined;
    let start = 0;
    let index = 0;
    let headerEnd = 0;
    while (start < text.length) {
      let end = text.indexOf('\n', start);
      if (end === -1) end = text.length;
      const raw = text.slice(start, end);
      const lineEnd = end + 1;
      start = lineEnd;
      index++;
      if (raw.trim() === '' || /^\0+$/.test(raw)) continue;
      let parsed: { seq?: unknown; entries?: unknown; journal?: unknown; floor?: unknown };
      try {
        // Read as latin1 to keep byte offsets; a line is decoded as UTF-8 only here.
        parsed = JSON.parse(Buffer.from(raw, 'latin1').toString('utf8')) as typeof parsed;
        if (index === 1 && parsed.journal === 1 && typeof parsed.floor === 'number') {
          floor = Math.max(floor, parsed.floor);
          headerEnd = lineEnd;
          continue;
        }
        if (!Array.isArray(parsed.entries) || typeof parsed.seq !== 'number') throw new Error('not a journal line');
      } catch (error) {
        firstBad ??= { index, reason: error instanceof Error ? error.message : String(error) };
        continue;
      }
      // Already in the documents. Once past the header, the first such line is a leftover of an
      // earlier round: this round ends before it, and nothing after it needs reading.
      if (parsed.seq <= floor) {
        if (headerEnd > 0 || kept.length > 0) break;
        continue;
      }
      if (firstBad && !badBeforeKept) badBeforeKept = firstBad;
      kept.push({ seq: parsed.seq, entries: parsed.entries as JournalBatch, end: lineEnd });
    }
    let damaged: JournalContents['damaged'];
    if (badBeforeKept) {
      // Damage inside the file: keep every other batch, and the bytes for a person to look at.
      fs.mkdirSync(corruptDir, { recursive: true });
      const movedTo = path.join(corruptDir, `journal-${Date.now()}.log`);
      fs.copyFileSync(this.path, movedTo);
      damaged = { reason: `line ${badBeforeKept.index}: ${badBeforeKept.reason}`, movedTo };
    }
    // Lines are in commit order; the numbers make that checkable rather than assumed.
    kept.sort((a, b) => a.seq - b.seq);
    // The next line goes after the last one kept, over whatever torn line or leftover follows it.
    let offset = headerEnd;
    let lastSeq = floor;
    for (const line of kept) {
      offset = Math.max(offset, line.end);
      lastSeq = Math.max(lastSeq, line.seq);
    }
    this.#offset = offset;
    this.#floor = floor;
    const batches = kept.map((line) => line.entries);
    return damaged ? { batches, lastSeq, damaged } : { batches, lastSeq };
  }

  /**
   * Appends one batch to the file without waiting for the disk: it is durable only after a
   * later {@link sync} or {@link syncNow} has finished.
   */
  write(line: JournalLine): void {
    this.writeText(`${JSON.stringify(line)}\n`);
  }

  /** {@link write} for a line already serialized (one JSON object and its newline). */
  writeText(text: string): void {
    const fd = this.#open();
    // A string is written as UTF-8 without a buffer of its own; a short write (rare) is finished.
    let written = fs.writeSync(fd, text, this.#offset, 'utf8');
    const total = Buffer.byteLength(text);
    if (written < total) {
      const bytes = Buffer.from(text);
      while (written < total) written += fs.writeSync(fd, bytes, written, total - written, this.#offset! + written);
    }
    this.#offset! += total;
  }

  /**
   * Makes everything written so far durable with an `fdatasync` in the thread pool, so that the
   * event loop goes on (taking the next requests) while the disk works. `done` is called on the
   * main thread once it has finished.
   */
  sync(done: (error: NodeJS.ErrnoException | null) => void): void {
    const fd = this.#open();
    this.#syncing++;
    this.#fdatasync(fd, (error) => {
      this.#syncing--;
      // A close asked for while the disk was busy: the descriptor is released only now, so that
      // its number cannot be reused under the sync still running on it.
      if (this.#syncing === 0 && this.#closeWhenIdle) this.#release();
      done(error);
    });
  }

  /** Makes everything written so far durable, blocking the thread. */
  syncNow(): void {
    fs.fdatasyncSync(this.#open());
  }

  /**
   * Starts again once everything up to `floor` is held by documents: a new header, and the next
   * line at the top of the file. No sync is needed: until the header is on disk the old lines
   * read as before, and they are all in the documents; the sync of the next line covers both.
   */
  restart(floor: number): void {
    const fd = this.#open();
    fs.writeSync(fd, header(floor), 0, HEADER_BYTES, 0);
    this.#offset = HEADER_BYTES;
    this.#floor = floor;
    // Leftovers beyond the first megabytes are never read again (reading stops at the first
    // one), but a file that once grew large would keep its size for good.
    if (fs.fstatSync(fd).size > SHRINK_ABOVE_BYTES) fs.ftruncateSync(fd, PREALLOCATE_BYTES);
  }

  /** Whether the file is open (a close waiting on a sync counts as open). */
  get isOpen(): boolean {
    return this.#fd !== undefined;
  }

  /** Releases the file; with a sync still running on it, once that sync has finished. */
  close(): void {
    if (this.#syncing > 0) this.#closeWhenIdle = true;
    else this.#release();
  }

  #open(): number {
    // Writing again cancels a close still waiting on a sync.
    this.#closeWhenIdle = false;
    if (this.#fd !== undefined) return this.#fd;
    if (this.#offset === undefined && fs.existsSync(this.path)) {
      // Written to without being read first: the next line goes after what is there.
      this.read(path.join(path.dirname(this.path), 'corrupt'), this.#floor);
    }
    if (this.#offset === undefined || !fs.existsSync(this.path)) {
      // A new file: its first megabytes written, then a header with nothing below it.
      const fd = fs.openSync(this.path, 'w+');
      try {
        fs.writeSync(fd, Buffer.alloc(PREALLOCATE_BYTES), 0, PREALLOCATE_BYTES, 0);
        fs.writeSync(fd, header(this.#floor), 0, HEADER_BYTES, 0);
        fs.fsyncSync(fd);
        // The file's name too: lines synced into a file whose directory entry is lost are lost.
        syncDirectory(path.dirname(this.path));
      } catch (error) {
        fs.closeSync(fd);
        throw error;
      }
      this.#fd = fd;
      this.#offset = HEADER_BYTES;
      return fd;
    }
    // Positioned writes: a descriptor opened for appending would ignore the position.
    this.#fd = fs.openSync(this.path, 'r+');
    return this.#fd;
  }

  #release(): void {
    if (this.#fd !== undefined) fs.closeSync(this.#fd);
    this.#fd = undefined;
    this.#closeWhenIdle = false;
  }
}

function header(floor: number): Buffer {
  return Buffer.from(`${JSON.stringify({ journal: 1, floor })}`.padEnd(HEADER_BYTES - 1, ' ') + '\n');
}
