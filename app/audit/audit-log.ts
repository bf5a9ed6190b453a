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
  #failures = 0;

  constructor(options: AuditLogOptions) {
    this.#dir = options.dir;
    this.#clock = options.clock;
    this.#maxFileBytes = options.maxFileBytes ?? 5 * 1024 * 1024;
    this.#maxFiles = options.maxFiles ?? 5;
    fs.mkdirSync(this.#dir, { recursive: true });
    this.#size = fileSize(this.#file(0));
  }

  /** Appends an entry. Best effort: a full disk must not break the work being recorded. */
  record(entry: Omit<AuditEntry, 'at'>): void {
    try {
      this.#append(entry);
    } catch (error) {
      this.#failures++;
      if (this.#failures === 1) console.error('Taskdesk could not write its audit log:', error);
    }
  }

  /** Entries that could not be written since the log was opened. */
  get failures(): number {
    return this.#failures;
  }

  #append(entry: Omit<AuditEntry, 'at'>): void {
    const line = `${JSON.stringify({ at: new Date(this.#clock.now()).toISOString(), ...entry })}\n`;
    const bytes = Buffer.byteLength(line);
    if (this.#size > 0 && this.#size + bytes > this.#maxFileBytes) this.#rotate();
    // One descriptor kept open in append mode: a write per entry, no open/close per entry.
    this.#fd ??= fs.openSync(this.#file(0), 'a');
    fs.writeSync(this.#fd, line);
    this.#size += bytes;
  }

  /**
   * Reads entries, newest first, across rotated files.
   *
   * Lines that do not parse (a torn write at a crash) are skipped, not fatal.
   */
  read(options: { limit?: number; serverId?: string; taskId?: string } = {}): AuditEntry[] {
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
