import fs from 'node:fs';
import path from 'node:path';
import { AuditEntrySchema, type AuditEntry } from '../contract/host-api.js';
import type { Clock } from '../core/clock.js';

/** Where the core records what happened. */
export interface AuditSink {
  record(entry: Omit<AuditEntry, 'at'>): void;
}

/** Options for the file-backed audit log. */
export interface AuditLogOptions {
  dir: string;
  clock: Clock;
  /** Rotate when the current file reaches this many bytes. */
  maxFileBytes?: number;
  /** Rotated files kept besides the current one. */
  maxFiles?: number;
}

/**
 * An append-only JSON-lines file with size-based rotation.
 *
 * `audit.log` is current; `audit.1.log` the one before it, and so on up to `maxFiles`.
 * Appends are synchronous so that an entry written before a reply is on disk before it.
 */
export class AuditLog implements AuditSink {
  readonly #dir: string;
  readonly #clock: Clock;
  readonly #maxFileBytes: number;
  readonly #maxFiles: number;
  #size: number;
  #fd: number | undefined;
  #buffer: string[] = [];
  #failures = 0;

  constructor(options: AuditLogOptions) {
    this.#dir = options.dir;
    this.#clock = options.clock;
    this.#maxFileBytes = options.maxFileBytes ?? 5 * 1024 * 1024;
    this.#maxFiles = options.maxFiles ?? 5;
    fs.mkdirSync(this.#dir, { recursive: true });
    this.#size = fileSize(this.#file(0));
  }

  /**
   * Appends an entry. The entries of one turn of the event loop go to the file in one write at
   * its end. Best effort: a full disk must not break the work being recorded.
   */
  record(entry: Omit<AuditEntry, 'at'>): void {
    this.#buffer.push(`${JSON.stringify({ at: new Date(this.#clock.now()).toISOString(), ...entry })}\n`);
    if (this.#buffer.length === 1) setImmediate(() => this.flush());
  }

  /** Writes buffered entries now. */
  flush(): void {
    if (this.#buffer.length === 0) return;
    const lines = this.#buffer;
    this.#buffer = [];
    try {
      this.#append(lines);
    } catch (error) {
      this.#failures += lines.length;
      if (this.#failures === lines.length) console.error('Taskdesk could not write its audit log:', error);
    }
  }

  /** Entries that could not be written since the log was opened. */
  get failures(): number {
    return this.#failures;
  }

  /** Writes lines, one write per file, rotating when a line would take the file over its size. */
  #append(lines: string[]): void {
    let chunk = '';
    for (const line of lines) {
      const bytes = Buffer.byteLength(line);
      if (this.#size > 0 && this.#size + bytes > this.#maxFileBytes) {
        this.#write(chunk);
        chunk = '';
        this.#rotate();
      }
      chunk += line;
      this.#size += bytes;
    }
    this.#write(chunk);
  }

  #write(text: string): void {
    if (text === '') return;
    // One descriptor kept open in append mode.
    this.#fd ??= fs.openSync(this.#file(0), 'a');
    fs.writeSync(this.#fd, text);
  }

  /**
   * Reads entries, newest first, across rotated files.
   *
   * Lines that do not parse (a torn write at a crash) are skipped, not fatal.
   */
  read(options: { limit?: number; serverId?: string; taskId?: string } = {}): AuditEntry[] {
    this.flush();
    const limit = options.limit ?? 200;
    const out: AuditEntry[] = [];
    for (let index = 0; index <= this.#maxFiles && out.length < limit; index++) {
      let text: string;
      try {
        text = fs.readFileSync(this.#file(index), 'utf8');
      } catch {
        continue;
      }
      const lines = text.split('\n');
      for (let i = lines.length - 1; i >= 0 && out.length < limit; i--) {
        const line = lines[i];
        if (!line) continue;
        let parsed: ReturnType<typeof AuditEntrySchema.safeParse>;
        try {
          parsed = AuditEntrySchema.safeParse(JSON.parse(line));
        } catch {
          continue;
        }
        if (!parsed.success) continue;
        const entry = parsed.data;
        if (options.serverId && entry.serverId !== options.serverId) continue;
        if (options.taskId && entry.taskId !== options.taskId) continue;
        out.push(entry);
      }
    }
    return out;
  }

  #file(index: number): string {
    return path.join(this.#dir, index === 0 ? 'audit.log' : `audit.${index}.log`);
  }

  /** Closes the file; a later entry opens it again. */
  close(): void {
    this.flush();
    if (this.#fd !== undefined) fs.closeSync(this.#fd);
    this.#fd = undefined;
  }

  #rotate(): void {
    this.close();
    fs.rmSync(this.#file(this.#maxFiles), { force: true });
    for (let index = this.#maxFiles - 1; index >= 0; index--) {
      if (fs.existsSync(this.#file(index))) fs.renameSync(this.#file(index), this.#file(index + 1));
    }
    this.#size = 0;
  }
}

function fileSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}
