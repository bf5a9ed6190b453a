import { randomInt } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { quarantineFile, type Quarantined } from './quarantine.js';
import { syncDirectory } from './sync-directory.js';

/** One committed batch: keys and their new values (`null` deletes). */
export type JournalBatch = Array<[string, unknown]>;

/** `fs.fdatasync`, or a stand-in for it. */
export type JournalSync = (fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => void;

/**
 * `fs.writeSync` at a position, or a stand-in for it: a string is written as UTF-8. Like the real
 * one it may write fewer bytes than it was given (a disk that fills up during the write) or throw.
 */
export type JournalWrite = (fd: number, data: string | Uint8Array, position: number) => number;

/** The calls a failing disk answers, which tests replace to fail them. */
export interface JournalIo {
  fdatasync?: JournalSync;
  write?: JournalWrite;
}

const writeAt: JournalWrite = (fd, data, position) =>
  typeof data === 'string'
    ? fs.writeSync(fd, data, position, 'utf8')
    : fs.writeSync(fd, data, 0, data.length, position);

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
  /** The floor its header names, when it has one. */
  headerFloor?: number;
  /**
   * Set when the file cannot be trusted (see {@link Journal.read}): it is kept as it is, never
   * written to again, and moved aside by the next {@link Journal.restart}.
   */
  untrusted?: string;
}

/**
 * The header is this long, newline included, so that a new one always overwrites the old one whole.
 * (Files made before the header named the file's size had 64-byte headers; they read the same.)
 */
const HEADER_BYTES = 128;
const OLD_HEADER_BYTES = 64;
/** Bytes written (zeros) when the file is created, so that early commits overwrite blocks that exist. */
const PREALLOCATE_BYTES = 4 * 1024 * 1024;
/** The largest line put together in the journal's kept buffer (see `Journal.writeBatch`); a longer one gets a buffer of its own. */
const SCRATCH_MAX_BYTES = 2 * 1024 * 1024;
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
 * megabytes written. Each start (a round) writes a fixed-size header with a new random round
 * number and the `floor`, the last sequence number the documents hold; every line carries its
 * round, so leftovers of earlier rounds (and of an earlier run, which always ends its round)
 * are told apart from this round's lines whatever they say.
 */
export class Journal {
  readonly path: string;
  #fd: number | undefined;
  /** Where the next line goes; unknown until the file has been read or started. */
  #offset: number | undefined;
  /** The floor of the current round, for the header of a file created anew. */
  #floor = 0;
  /** The current round's number; undefined until the file has a header of this run's. */
  #round: number | undefined;
  /** Syncs running in the thread pool on `#fd` (or on a descriptor of a file moved aside). */
  #syncing = 0;
  #closeWhenIdle = false;
  /** Descriptors of files moved aside while a sync ran on them: closed once syncs are idle. */
  #retired: number[] = [];
  /** Why the file on disk cannot be trusted: it is never written, and the next restart moves it aside. */
  #untrusted: string | undefined;
  /** Where an untrusted file goes. */
  #corruptDir: string;
  readonly #fdatasync: JournalSync;
  readonly #write: JournalWrite;
  /** Where a line given as pieces is put together to be written (see {@link writeBatch}); kept and reused. */
  #scratch: Buffer | undefined;

  constructor(file: string, io: JournalSync | JournalIo = {}) {
    this.path = file;
    const given = typeof io === 'function' ? { fdatasync: io } : io;
    this.#fdatasync = given.fdatasync ?? fs.fdatasync;
    this.#write = given.write ?? writeAt;
    this.#corruptDir = path.join(path.dirname(file), 'corrupt');
  }

  /**
   * Reads the committed batches above `floor` (the last sequence number the documents hold, when
   * they say), and places the next line after the last one kept. `corruptDir` is where a file
   * that cannot be trusted is moved by the next {@link restart}.
   *
   * In a file with a header, the batches are the lines of its round read from the top, up to the
   * first line that is not one of them: a torn line (a commit that never finished, so never
   * acknowledged), a leftover of an earlier round (another round number), or the zeros the file
   * was created with. Every leftover of an earlier round is numbered at most the header's floor
   * (a round starts only once the documents hold every line written before it), so a line past
   * that point numbered above both the floor and the round's last line can only be damage: a
   * line of this round that reached the disk out of order, unacknowledged, or the lines of a round
   * whose header was overwritten. The file is then untrusted. So is a file shorter than the size
   * its header says it was made with (cut short), and a file with no header at all (empty, random
   * bytes, another program's JSON): the file is made whole, header first, before it takes its
   * name, so Taskdesk never leaves one without a header.
   *
   * A header torn by a crash while it was rewritten (it starts as every header does and is as
   * long as one, but does not parse) means a restart was cut short after its checkpoint: every
   * line in the file is in the documents, unless a line numbered above `floor` follows it.
   *
   * A file without a header whose first line is a batch, or any file read with `legacy` (the
   * earlier layout, `journal.log`, never reused), keeps every line above `floor`, skipping a
   * damaged one (and is then untrusted).
   */
  read(corruptDir: string, floor = 0, legacy = false): JournalContents {
    this.#corruptDir = corruptDir;
    let text: string;
    try {
      text = fs.readFileSync(this.path, 'latin1');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      this.#offset = undefined;
      this.#floor = floor;
      this.#untrusted = undefined;
      return { batches: [], lastSeq: floor };
    }
    const lines = splitLines(text);
    const first = lines[0] && parseLine(lines[0].raw);
    const header =
      first &&
      first.journal === 1 &&
      typeof first.floor === 'number' &&
      typeof first.round === 'number' &&
      (first.size === undefined || typeof first.size === 'number')
        ? first
        : undefined;
    let result: { kept: KeptLine[]; offset: number; round: number | undefined; damage?: string };
    if (legacy) {
      result = readHeaderless(lines, floor);
    } else if (header) {
      floor = Math.max(floor, header.floor as number);
      result = readRound(lines.slice(1), header.round as number, floor, lines[0]!.end);
      const size = header.size as number | undefined;
      if (!result.damage && size !== undefined && text.length < size)
        result.damage = `the file is ${text.length} bytes long, shorter than the ${size} bytes it was made with: it was cut short, and lines past the cut are lost`;
    } else if (first && typeof first.seq === 'number') {
      result = readHeaderless(lines, floor);
    } else if (lines[0] && isTornHeader(lines[0])) {
      // Torn while a restart rewrote it: nothing here may be replayed.
      const late = lines.slice(1).find((line) => ((parseLine(line.raw)?.seq as number | undefined) ?? 0) > floor);
      result = {
        kept: [],
        offset: 0,
        round: undefined,
        ...(late && {
          damage: `the header cannot be read, and line ${late.number} holds a change after the documents' last (${floor})`
        })
      };
    } else {
      result = {
        kept: [],
        offset: 0,
        round: undefined,
        damage:
          text.length === 0
            ? 'the file is empty, where a journal always starts with a header'
            : /^\0*$/.test(text.slice(0, HEADER_BYTES))
              ? 'the file starts with zeros, where a journal always starts with a header'
              : 'the file does not start with a journal header: it is not a Taskdesk journal, or it was overwritten'
      };
    }
    let lastSeq = floor;
    for (const line of result.kept) lastSeq = Math.max(lastSeq, line.seq);
    this.#offset = result.offset;
    this.#round = result.round;
    this.#floor = floor;
    this.#untrusted = result.damage;
    const contents: JournalContents = { batches: result.kept.map((line) => line.entries), lastSeq };
    if (header) contents.headerFloor = header.floor as number;
    if (result.damage) contents.untrusted = result.damage;
    return contents;
  }

  /**
   * Marks the file as one that cannot be trusted (the caller found a reason the file itself does
   * not show): it is never written again, and the next {@link restart} moves it aside.
   */
  distrust(reason: string): void {
    this.#untrusted ??= reason;
  }

  /** Why the file cannot be trusted, while it is still in place. */
  get untrusted(): string | undefined {
    return this.#untrusted;
  }

  /**
   * Appends one batch to the file without waiting for the disk: it is durable only after a
   * later {@link sync} or {@link syncNow} has finished.
   */
  write(line: JournalLine): void {
    this.writeBatch(line.seq, JSON.stringify(line.entries));
  }

  /**
   * {@link write} for entries already serialized (a JSON array of `[key, value]` pairs), as one
   * text or as the flat pieces it is the concatenation of (see `JsonPart.pieces`): pieces are
   * encoded one after the other into a buffer the journal keeps (up to {@link SCRATCH_MAX_BYTES}),
   * so a line holding a large record is never made flat in the heap. A write the disk takes only
   * part of is finished, or fails (`ENOSPC`); the part written is overwritten by the next line,
   * and a read stops at it meanwhile (it is no whole line).
   */
  writeBatch(seq: number, entriesJson: string | readonly string[]): void {
    const fd = this.#open();
    // No round yet (starting one failed earlier): nothing of this run is in the file to lose.
    if (this.#round === undefined) this.#writeHeader(fd, this.#floor, fs.fstatSync(fd).size);
    const head = `{"seq":${seq},"round":${this.#round!},"entries":`;
    const data =
      typeof entriesJson === 'string' ? `${head}${entriesJson}}\n` : this.#encoded([head, ...entriesJson, '}\n']);
    this.#offset! += this.#writeFully(fd, data, this.#offset!);
  }

  /** `pieces` one after the other as UTF-8, in the kept buffer when they fit. */
  #encoded(pieces: readonly string[]): Uint8Array {
    let bytes = 0;
    for (const piece of pieces) bytes += Buffer.byteLength(piece);
    let buffer: Buffer;
    if (bytes > SCRATCH_MAX_BYTES) buffer = Buffer.allocUnsafeSlow(bytes);
    else {
      if (this.#scratch === undefined || this.#scratch.length < bytes)
        this.#scratch = Buffer.allocUnsafeSlow(
          Math.min(SCRATCH_MAX_BYTES, Math.max(bytes, 2 * (this.#scratch?.length ?? 0)))
        );
      buffer = this.#scratch;
    }
    let at = 0;
    for (const piece of pieces) at += buffer.write(piece, at);
    return buffer.subarray(0, bytes);
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
      if (this.#syncing === 0) {
        for (const retired of this.#retired.splice(0)) fs.closeSync(retired);
        if (this.#closeWhenIdle) this.#release();
      }
      done(error);
    });
  }

  /** Makes everything written so far durable, blocking the thread. */
  syncNow(): void {
    fs.fdatasyncSync(this.#open());
  }

  /**
   * Starts a new round once everything up to `floor` is held by documents: a new header, and the
   * next line at the top of the file. No sync is needed: until the header is on disk the old
   * lines read as before, and they are all in the documents; the sync of the next line covers both.
   *
   * A file that cannot be trusted is not reused: it is moved aside whole (and returned), and the
   * next write makes a new one. Throws when it cannot be moved; it is then still never written.
   */
  restart(floor: number): Quarantined | undefined {
    if (this.#untrusted !== undefined) return this.#retire(floor);
    const fd = this.#open();
    const size = fs.fstatSync(fd).size;
    this.#writeHeader(fd, floor, Math.min(size, PREALLOCATE_BYTES));
    // Leftovers beyond the first megabytes are never read again (reading stops at the first
    // one), but a file that once grew large would keep its size for good.
    if (size > SHRINK_ABOVE_BYTES) fs.ftruncateSync(fd, PREALLOCATE_BYTES);
    return undefined;
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
    if (this.#untrusted !== undefined)
      throw new Error(
        `The task journal ${this.path} cannot be trusted (${this.#untrusted}); it is kept as it is and not written to`
      );
    // Writing again cancels a close still waiting on a sync.
    this.#closeWhenIdle = false;
    if (this.#fd !== undefined) return this.#fd;
    if (this.#offset === undefined && fs.existsSync(this.path)) {
      // Written to without being read first: the next line goes after what is there.
      this.read(this.#corruptDir, this.#floor);
      if (this.#untrusted !== undefined) return this.#open();
    }
    if (this.#offset === undefined || !fs.existsSync(this.path)) {
      this.#fd = this.#create();
      return this.#fd;
    }
    // Positioned writes: a descriptor opened for appending would ignore the position.
    const fd = fs.openSync(this.path, 'r+');
    // A file with no round of its own (a header torn by a crash) holds nothing to replay: this
    // run's round starts at its top.
    if (this.#round === undefined) {
      try {
        this.#writeHeader(fd, this.#floor, Math.min(fs.fstatSync(fd).size, PREALLOCATE_BYTES));
      } catch (error) {
        fs.closeSync(fd);
        throw error;
      }
    }
    this.#fd = fd;
    return fd;
  }

  /**
   * A new file, whole before it takes its name: its first megabytes written, then a header with
   * nothing below it, synced, then renamed into place (and the directory synced: lines synced
   * into a file whose directory entry is lost are lost). So a `wal.log` always starts with a
   * header. On a disk too full for the first megabytes, the file starts with its header alone and
   * grows with its lines.
   */
  #create(): number {
    const temp = `${this.path}.new`;
    const fd = fs.openSync(temp, 'w+');
    try {
      let size = PREALLOCATE_BYTES;
      try {
        this.#writeFully(fd, Buffer.alloc(PREALLOCATE_BYTES), 0);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
        fs.ftruncateSync(fd, 0);
        size = HEADER_BYTES;
      }
      this.#writeHeader(fd, this.#floor, size);
      fs.fsyncSync(fd);
      fs.renameSync(temp, this.path);
      syncDirectory(path.dirname(this.path));
    } catch (error) {
      fs.closeSync(fd);
      fs.rmSync(temp, { force: true });
      throw error;
    }
    return fd;
  }

  /** A new round: its header at the top, and the next line right after it. */
  #writeHeader(fd: number, floor: number, size: number): void {
    const round = randomInt(1, 2 ** 31);
    const text = JSON.stringify({ journal: 1, floor, round, size });
    this.#writeFully(fd, `${text.padEnd(HEADER_BYTES - 1, ' ')}\n`, 0);
    this.#round = round;
    this.#floor = floor;
    this.#offset = HEADER_BYTES;
  }

  /**
   * Writes all of `data` at `position`, or throws: a write that makes no progress is a full disk.
   * Returns how many bytes that was.
   */
  #writeFully(fd: number, data: string | Uint8Array, position: number): number {
    // A string is written as UTF-8 without a buffer of its own. Only a short write (rare) makes
    // one, to finish from where the disk stopped: a copy of every line, made to be thrown away,
    // was a large allocation of the requestor's journal.
    let written = this.#write(fd, data, position);
    const length = typeof data === 'string' ? Buffer.byteLength(data) : data.length;
    if (written === length) return length;
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    while (written < bytes.length) {
      const more = this.#write(fd, bytes.subarray(written), position + written);
      if (more <= 0)
        throw Object.assign(
          new Error(`ENOSPC: the task journal took ${written} of ${bytes.length} bytes (the disk is probably full)`),
          { code: 'ENOSPC' }
        );
      written += more;
    }
    return bytes.length;
  }

  /** Moves an untrusted file aside, so that the next write makes a new one starting at `floor`. */
  #retire(floor: number): Quarantined | undefined {
    const moved = quarantineFile(this.path, this.#corruptDir, 'journal');
    if (moved?.notMoved !== undefined)
      throw new Error(
        `The task journal ${this.path} cannot be trusted (${this.#untrusted}) and could not be moved aside: ${moved.notMoved}`
      );
    if (this.#fd !== undefined) {
      if (this.#syncing > 0) this.#retired.push(this.#fd);
      else fs.closeSync(this.#fd);
    }
    this.#fd = undefined;
    this.#closeWhenIdle = false;
    this.#offset = undefined;
    this.#round = undefined;
    this.#floor = floor;
    this.#untrusted = undefined;
    return moved;
  }

  #release(): void {
    if (this.#fd !== undefined) fs.closeSync(this.#fd);
    this.#fd = undefined;
    this.#closeWhenIdle = false;
  }
}

/** A header torn by a crash while it was rewritten: it starts as every header does, and is as long. */
function isTornHeader(line: RawLine): boolean {
  return line.raw.startsWith('{"journal":1,') && (line.end === HEADER_BYTES || line.end === OLD_HEADER_BYTES);
}

interface RawLine {
  raw: string;
  /** Byte offset just past the line's newline. */
  end: number;
  /** 1-based line number, for messages. */
  number: number;
}

type KeptLine = JournalLine & { end: number };

type ParsedLine = {
  seq?: unknown;
  round?: unknown;
  entries?: unknown;
  journal?: unknown;
  floor?: unknown;
  size?: unknown;
};

/** The file's lines with their byte offsets (the text is read as latin1: one char a byte). */
function splitLines(text: string): RawLine[] {
  const lines: RawLine[] = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    lines.push({ raw: text.slice(start, end), end: end + 1, number: lines.length + 1 });
    start = end + 1;
  }
  return lines;
}

/** A line's JSON object (decoded as UTF-8), or undefined when it is not one. */
function parseLine(raw: string): ParsedLine | undefined {
  if (raw.trim() === '' || raw.charCodeAt(0) === 0) return undefined;
  try {
    const value = JSON.parse(Buffer.from(raw, 'latin1').toString('utf8')) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isBatch(line: ParsedLine | undefined): line is ParsedLine & { seq: number; entries: JournalBatch } {
  return !!line && typeof line.seq === 'number' && Array.isArray(line.entries);
}

/** The start of every line the journal writes: its number and its round. */
const LINE_HEAD = /^\{"seq":(\d+),"round":(\d+),/;

/** The lines of round `round` from the top, up to the first line that is not the round's next one. */
function readRound(
  lines: RawLine[],
  round: number,
  floor: number,
  headerEnd: number
): { kept: KeptLine[]; offset: number; round: number; damage?: string } {
  const kept: KeptLine[] = [];
  let offset = headerEnd;
  let last = -Infinity;
  let index = 0;
  for (; index < lines.length; index++) {
    const line = parseLine(lines[index]!.raw);
    if (!isBatch(line) || line.round !== round || line.seq <= last) break;
    last = line.seq;
    offset = lines[index]!.end;
    // In the documents already (their checkpoint's header never reached the disk).
    if (line.seq > floor) kept.push({ seq: line.seq, entries: line.entries, end: lines[index]!.end });
  }
  // Past the end of the round, a line numbered after the last one kept cannot be a leftover when it
  // is of this round (it reached the disk out of order, or around damage), nor when it is of
  // another round and numbered above the floor too (every earlier round's lines are at most the
  // floor: this is a round whose header was overwritten). Reported, never replayed.
  const above = Math.max(floor, last);
  let stray: { raw: RawLine; line: ParsedLine & { seq: number; round?: unknown } } | undefined;
  for (const raw of lines.slice(index)) {
    // Our lines start with their number and round: only those numbered high enough are parsed.
    const head = LINE_HEAD.exec(raw.raw);
    if (!head || Number(head[1]) <= (Number(head[2]) === round ? last : above)) continue;
    const line = parseLine(raw.raw);
    if (!isBatch(line)) continue;
    if (line.round === round ? line.seq > last : line.seq > above) {
      stray = { raw, line };
      break;
    }
  }
  const damage =
    stray &&
    (stray.line.round === round
      ? `line ${index + 2}: this round's lines stop at line ${index + 1}, yet line ${stray.raw.number} belongs to it; it was not replayed`
      : `line ${stray.raw.number} holds change ${stray.line.seq} of round ${String(stray.line.round)}, not of the header's round ${round}, and after the header's floor ${floor}: the header does not match the lines below it; nothing after line ${index + 1} was replayed`);
  return damage ? { kept, offset, round, damage } : { kept, offset, round };
}

/** The earlier layout (no header, never reused): every line above `floor`, skipping damaged ones. */
function readHeaderless(
  lines: RawLine[],
  floor: number
): { kept: KeptLine[]; offset: number; round: undefined; damage?: string } {
  const kept: KeptLine[] = [];
  let firstBad: RawLine | undefined;
  let damage: string | undefined;
  for (const raw of lines) {
    if (raw.raw.trim() === '' || raw.raw.charCodeAt(0) === 0) continue;
    const line = parseLine(raw.raw);
    if (!isBatch(line)) {
      firstBad ??= raw;
      continue;
    }
    if (line.seq <= floor) continue;
    if (firstBad && !damage) damage = `line ${firstBad.number} is not a journal line`;
    kept.push({ seq: line.seq, entries: line.entries, end: raw.end });
  }
  kept.sort((a, b) => a.seq - b.seq);
  const offset = Math.max(0, ...kept.slice(-1).map((line) => line.end));
  return damage ? { kept, offset, round: undefined, damage } : { kept, offset, round: undefined };
}
