import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { AuditEntrySchema, type AuditEntry } from '../contract/host-api.js';
import { auditFieldWords, auditLabel, auditSentence } from '../contract/audit-words.js';
import { searchFolded, searchWords } from '../contract/search-words.js';
import type { Clock } from '../core/clock.js';
import { defaultEntryLimits, limitEntry, type EntryLimits } from './entry-limits.js';
import { FloodGuard, type FloodPolicy } from './flood-guard.js';

/** Where the core records what happened. */
export interface AuditSink {
  record(entry: Omit<AuditEntry, 'at'>): void;
}

/** Options for the file-backed audit log. */
export interface AuditLogOptions {
  dir: string;
  clock: Clock;
  /** Rotate a stream's current file when it reaches this many bytes (default 2 MiB). */
  maxFileBytes?: number;
  /** Rotated files kept per stream besides the current one (default 5). */
  maxFiles?: number;
  /** How large one entry may be. */
  limits?: Partial<EntryLimits>;
  /** Past which rate entries of one kind from one server are summarized. */
  flood?: FloodPolicy;
  /** Told after a turn's entries were written (at most once a turn), for readers to read again. */
  onWritten?: () => void;
}

/** How many of a server's newest entries {@link AuditLog.servers} reads for its name, past its file's end. */
const NAME_SEARCH = 50;
/** How much of the end of a server's file {@link AuditLog.servers} reads first. */
const NAME_TAIL_BYTES = 64 * 1024;

/** Rotated files read besides `maxFiles`, for files an earlier build (which kept five) left. */
const LEGACY_FILES = 5;

/** One stream of the log: the host's own entries, or one server's. */
interface Stream {
  dir: string;
  size: number;
  fd: number | undefined;
}

/**
 * An append-only JSON-lines log with size-based rotation, one stream per server.
 *
 * Entries without a server (warnings, provider changes) go to `audit.log` in the log's
 * directory; a server's entries to `servers/<id>/audit.log`. Each stream rotates on its own
 * (`audit.1.log` is the file before `audit.log`, and so on up to `maxFiles`), so one server can
 * only ever rotate its own history away. Each entry is cut to size first ({@link limitEntry}),
 * and a server's entries of one kind past a rate are summarized ({@link FloodGuard}).
 */
export class AuditLog implements AuditSink {
  readonly #dir: string;
  readonly #clock: Clock;
  readonly #maxFileBytes: number;
  readonly #maxFiles: number;
  readonly #limits: EntryLimits;
  readonly #guard: FloodGuard;
  readonly #streams = new Map<string, Stream>();
  readonly #serverDirNames = new Map<string, string>();
  #buffer: Array<{ entry: AuditEntry; line: string }> = [];
  #scheduled = false;
  #failures = 0;
  #closed = false;
  #dropped = 0;
  readonly #onWritten: (() => void) | undefined;

  constructor(options: AuditLogOptions) {
    this.#dir = options.dir;
    this.#clock = options.clock;
    this.#maxFileBytes = options.maxFileBytes ?? 2 * 1024 * 1024;
    this.#maxFiles = options.maxFiles ?? 5;
    this.#limits = { ...defaultEntryLimits, ...options.limits };
    this.#guard = new FloodGuard(this.#clock, options.flood);
    this.#onWritten = options.onWritten;
    fs.mkdirSync(this.#dir, { recursive: true });
  }

  /**
   * Appends an entry. The entries of one turn of the event loop go to the files in one write per
   * stream at its end. Best effort: a full disk must not break the work being recorded.
   *
   * After {@link close} an entry is dropped without a word (counted in {@link dropped}): a late
   * event (a connection or timer ending after the host closed) must neither fail the work it
   * comes from nor write to a data directory that may be gone.
   */
  record(entry: Omit<AuditEntry, 'at'>): void {
    if (this.#closed) {
      this.#dropped++;
      return;
    }
    // The guard first: an entry it holds back is only counted, never dated, cut to size or
    // serialized, which a server flooding refused requests makes thousands of a second.
    // A held-back entry schedules a write too: the summary of a flood that is over goes with it.
    if (this.#guard.admit(entry))
      this.#buffer.push(limitEntry({ at: new Date(this.#clock.now()).toISOString(), ...entry }, this.#limits));
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** A summary as it is written: cut to size as every entry is (it names the server). */
  readonly #limited = (summary: AuditEntry) => limitEntry(summary, this.#limits);

  /** Writes buffered entries now, with the summaries of floods that are over. */
  flush(): void {
    this.#scheduled = false;
    if (this.#closed) return;
    this.#writePending(this.#guard.due());
  }

  /**
   * Writes the buffered entries with `summaries`, and tells `onWritten` when any were: a read
   * (or `servers`) that writes them before the turn's flush must tell it too, or the flush finds
   * nothing and no reader hears of them (a window that read just before went on showing the log
   * without them).
   */
  #writePending(summaries: AuditEntry[]): void {
    const entries = [...this.#buffer.splice(0), ...summaries.map(this.#limited)];
    this.#write(entries);
    if (entries.length > 0) this.#onWritten?.();
  }

  /** Entries that could not be written since the log was opened. */
  get failures(): number {
    return this.#failures;
  }

  /** Entries recorded after {@link close}, which were not written. */
  get dropped(): number {
    return this.#dropped;
  }

  /**
   * Reads entries, newest first, across streams and rotated files. A flood still being counted
   * is summarized first, so that what it held back shows.
   *
   * Lines that do not parse (a torn write at a crash) are skipped, not fatal.
   */
  read(
    options: { limit?: number; serverId?: string; taskId?: string; type?: string; text?: string } = {}
  ): AuditEntry[] {
    if (!this.#closed) this.#writePending(this.#guard.drain());
    const limit = options.limit ?? 200;
    const words = searchWords(options.text);
    const matches = (entry: AuditEntry) =>
      (!options.serverId || entry.serverId === options.serverId) &&
      (!options.taskId || entry.taskId === options.taskId) &&
      (!options.type || entry.type === options.type || entry.type.startsWith(`${options.type}.`)) &&
      (words.length === 0 || matchesWords(entry, words));
    // The host's stream may hold a server's entries too: those an earlier build wrote there.
    const dirs =
      options.serverId !== undefined
        ? [this.#dir, this.#serverDir(options.serverId)]
        : [this.#dir, ...this.#serverDirs()];
    const heads = dirs.map((dir) => {
      const entries = this.#entriesOf(dir);
      const head = nextMatch(entries, matches);
      return { entries, head };
    });
    const out: AuditEntry[] = [];
    while (out.length < limit) {
      let newest: (typeof heads)[number] | undefined;
      for (const candidate of heads)
        if (candidate.head && (!newest || candidate.head.at > newest.head!.at)) newest = candidate;
      if (!newest?.head) break;
      out.push(newest.head);
      newest.head = nextMatch(newest.entries, matches);
    }
    return out;
  }

  /**
   * The servers the log has entries of, each with the name its newest named entry gives it: those
   * removed since included, so that their history can still be picked out. Reads the end of each
   * server's current file ({@link NAME_TAIL_BYTES}), and only when no named entry is there its
   * older entries (at most {@link NAME_SEARCH} of them), never the whole log. (Entries an earlier
   * build wrote in the host's own stream are not looked at.)
   */
  servers(): Array<{ serverId: string; serverName?: string }> {
    if (!this.#closed) this.#writePending(this.#guard.drain());
    const found: Array<{ serverId: string; serverName?: string }> = [];
    for (const dir of this.#serverDirs()) {
      let serverId: string | undefined;
      let serverName: string | undefined;
      const named = (entries: Iterable<AuditEntry>, most: number) => {
        let read = 0;
        for (const entry of entries) {
          serverId ??= entry.serverId;
          serverName = entry.serverName;
          if (serverName !== undefined || ++read >= most) return true;
        }
        return false;
      };
      if (!named(tailEntries(fileOf(dir, 0)), Infinity)) named(this.#entriesOf(dir), NAME_SEARCH);
      if (serverId !== undefined) found.push({ serverId, ...(serverName !== undefined && { serverName }) });
    }
    return found;
  }

  /**
   * Writes every entry recorded so far, with what a flood held back, and closes the files. An
   * entry recorded later is dropped (see {@link record}); reading still works.
   */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#write([...this.#buffer.splice(0), ...this.#guard.drain().map(this.#limited)]);
    for (const stream of this.#streams.values()) this.#closeStream(stream);
  }

  #write(entries: Array<{ entry: AuditEntry; line: string }>): void {
    if (entries.length === 0) return;
    const byStream = new Map<string, string[]>();
    for (const { entry, line } of entries) {
      const dir = entry.serverId === undefined ? this.#dir : this.#serverDir(entry.serverId);
      let lines = byStream.get(dir);
      if (!lines) byStream.set(dir, (lines = []));
      lines.push(`${line}\n`);
    }
    for (const [dir, lines] of byStream) {
      try {
        this.#append(this.#stream(dir), lines);
      } catch (error) {
        this.#failures += lines.length;
        if (this.#failures === lines.length) console.error('Taskdesk could not write its audit log:', error);
      }
    }
  }

  #stream(dir: string): Stream {
    let stream = this.#streams.get(dir);
    if (!stream) {
      fs.mkdirSync(dir, { recursive: true });
      stream = { dir, size: fileSize(fileOf(dir, 0)), fd: undefined };
      this.#streams.set(dir, stream);
    }
    return stream;
  }

  /** Writes lines, one write per file, rotating when a line would take the file over its size. */
  #append(stream: Stream, lines: string[]): void {
    let chunk = '';
    for (const line of lines) {
      const bytes = Buffer.byteLength(line);
      if (stream.size > 0 && stream.size + bytes > this.#maxFileBytes) {
        this.#appendChunk(stream, chunk);
        chunk = '';
        this.#rotate(stream);
      }
      chunk += line;
      stream.size += bytes;
    }
    this.#appendChunk(stream, chunk);
  }

  #appendChunk(stream: Stream, text: string): void {
    if (text === '') return;
    // One descriptor per stream, kept open in append mode.
    stream.fd ??= fs.openSync(fileOf(stream.dir, 0), 'a');
    fs.writeSync(stream.fd, text);
  }

  #rotate(stream: Stream): void {
    this.#closeStream(stream);
    fs.rmSync(fileOf(stream.dir, this.#maxFiles), { force: true });
    for (let index = this.#maxFiles - 1; index >= 0; index--) {
      const file = fileOf(stream.dir, index);
      if (fs.existsSync(file)) fs.renameSync(file, fileOf(stream.dir, index + 1));
    }
    stream.size = 0;
  }

  #closeStream(stream: Stream): void {
    if (stream.fd !== undefined) fs.closeSync(stream.fd);
    stream.fd = undefined;
  }

  /** A server's directory: its id (ids are `[A-Za-z0-9_.-]`), with a hash so that no two meet. */
  #serverDir(serverId: string): string {
    const known = this.#serverDirNames.get(serverId);
    if (known !== undefined) return known;
    const dir = this.#serverDirOf(serverId);
    this.#serverDirNames.set(serverId, dir);
    return dir;
  }

  #serverDirOf(serverId: string): string {
    const readable = serverId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
    const hash = createHash('sha256').update(serverId).digest('hex').slice(0, 8);
    return path.join(this.#dir, 'servers', `${readable}-${hash}`);
  }

  #serverDirs(): string[] {
    const root = path.join(this.#dir, 'servers');
    try {
      return fs
        .readdirSync(root, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => path.join(root, entry.name));
    } catch {
      return [];
    }
  }

  /** A stream's entries, newest first, reading one file at a time as the reader asks for more. */
  *#entriesOf(dir: string): Generator<AuditEntry> {
    for (let index = 0; index <= Math.max(this.#maxFiles, LEGACY_FILES); index++) {
      let text: string;
      try {
        text = fs.readFileSync(fileOf(dir, index), 'utf8');
      } catch {
        continue;
      }
      const lines = text.split('\n');
      for (let i = lines.length - 1; i >= 0; i--) {
        const line = lines[i];
        if (!line) continue;
        let parsed: ReturnType<typeof AuditEntrySchema.safeParse>;
        try {
          parsed = AuditEntrySchema.safeParse(JSON.parse(line));
        } catch {
          continue;
        }
        if (parsed.success) yield parsed.data;
      }
    }
  }
}

/**
 * Whether every word is in the entry (case-insensitive, in any order): in its type, server, task
 * id and raw detail, and in the words the Audit log shows for it, so that a person finds it by
 * what they read: its sentence ("You dismissed a question: …"), its kind of event ("Tool calls")
 * and its detail's field names in words ("kept for").
 */
function matchesWords(entry: AuditEntry, words: string[]): boolean {
  const haystack = [
    entry.type,
    auditSentence(entry),
    auditLabel(entry),
    entry.serverId ?? '',
    entry.serverName ?? '',
    entry.taskId ?? '',
    entry.detail ? JSON.stringify(entry.detail) : '',
    ...Object.keys(entry.detail ?? {}).map(auditFieldWords)
  ].join('\n');
  const folded = searchFolded(haystack);
  return words.every((word) => folded.includes(word));
}

function nextMatch(entries: Iterator<AuditEntry>, matches: (entry: AuditEntry) => boolean): AuditEntry | undefined {
  for (let next = entries.next(); !next.done; next = entries.next()) if (matches(next.value)) return next.value;
  return undefined;
}

/** The entries whole in the last {@link NAME_TAIL_BYTES} of `file`, newest first (none when it cannot be read). */
function tailEntries(file: string): AuditEntry[] {
  let text: string;
  let fromStart: boolean;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const size = fs.fstatSync(fd).size;
      const length = Math.min(size, NAME_TAIL_BYTES);
      const buffer = Buffer.alloc(length);
      fs.readSync(fd, buffer, 0, length, size - length);
      text = buffer.toString('utf8');
      fromStart = length === size;
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return [];
  }
  const lines = text.split('\n');
  // The first line read from the middle of the file is only the end of one.
  if (!fromStart) lines.shift();
  const entries: AuditEntry[] = [];
  for (let i = lines.length - 1; i >= 0; i--) {
    if (!lines[i]) continue;
    try {
      const parsed = AuditEntrySchema.safeParse(JSON.parse(lines[i]!));
      if (parsed.success) entries.push(parsed.data);
    } catch {
      // A torn line: skipped, as `read` does.
    }
  }
  return entries;
}

function fileOf(dir: string, index: number): string {
  return path.join(dir, index === 0 ? 'audit.log' : `audit.${index}.log`);
}

function fileSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}
