import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { questionPreview } from '../audit/question-preview.js';
import { CallOriginSchema, type PlainCallView } from '../contract/plain-calls.js';
import { previewLine } from '../contract/request-preview.js';
import { maskSecrets } from '../core/secret-mask.js';
import type { NotFinishedWork } from '../history/not-finished-entry.js';
import type { SamplingRunner, UserPrompter, WorkContext } from '../receiver/runners.js';
import { isAlive, STALE_MS } from './running-marker.js';

/** The record's directory in the data directory: one file per running Taskdesk, named as its running marker. */
export const OPEN_WORK_DIR = 'open-work';

/**
 * Plain work recorded at once, at most: a start past it is not recorded (History still gets the
 * work when it ends; only an unclean stop then misses it).
 */
const MAX_OPEN = 200;
/** How much of a server's or tool's name, and of a question, the record keeps. */
const NAME_CHARS = 100;
const QUOTE_CHARS = 80;
/** Ids are kept whole or not at all: a cut id names nothing. */
const ID_CHARS = 400;
/**
 * A call's arguments are kept up to this many bytes of JSON, else only that they were too large
 * (History's words for it, `ARGUMENTS_TOO_LARGE`, say this size). The record is written as the
 * call starts, on the call's path: its arguments are measured there (by a walk that stops once
 * past this), masked and serialized, and written again with each compaction while the call
 * runs, so only small ones are kept. The History entry of the call's end keeps them (up to
 * 32 KiB), as its `tool.called` audit entry does.
 */
export const ARGUMENTS_BYTES = 4 * 1024;
/**
 * Past this size (in characters) beyond what is open, the file is written anew with only what is
 * open: ends need not stay.
 */
const COMPACT_BYTES = 64 * 1024;
/**
 * A file larger than this is no record of ours: ignored (with a warning). Room for what it may
 * hold: {@link MAX_OPEN} starts with their arguments (at most {@link ARGUMENTS_BYTES} each) and
 * names, and {@link COMPACT_BYTES} of lines past them.
 */
const FILE_MAX_BYTES = 2 * 1024 * 1024;
/** Files of earlier runs read at one start, at most; the rest wait for the next. */
const FILES_READ = 20;
/**
 * How long changes gather before they are written. Work that starts and ends within it (most
 * tool calls of the assistant: an `echo` takes a few ms) is never written at all; written a turn
 * later instead, each call cost two file writes through `fs.promises` (about a fifth of the app's
 * own CPU in a `bench:assistant` turn, by its profiles). A kill loses at most this much.
 */
const GATHER_MS = 100;

const StartSchema = z.object({
  id: z.number().int().nonnegative(),
  kind: z.enum(['tool-call', 'elicitation', 'sampling']),
  serverId: z.string().max(ID_CHARS),
  serverName: z.string().max(NAME_CHARS),
  toolName: z.string().max(NAME_CHARS).optional(),
  /** A call's id (`tools.call`'s `callId`), which its audit entries name. */
  callId: z.string().max(ID_CHARS).optional(),
  /** A call's arguments, when small (see {@link ARGUMENTS_BYTES}); absent in records of earlier versions. */
  arguments: z.record(z.string(), z.unknown()).optional(),
  /** Set when a call's arguments were too large to keep. */
  argumentsTooLarge: z.literal(true).optional(),
  question: z.string().max(QUOTE_CHARS).optional(),
  relatedTaskId: z.string().max(ID_CHARS).optional(),
  origin: CallOriginSchema.optional(),
  startedAt: z.string().max(40)
});
type Start = z.infer<typeof StartSchema>;
const LineSchema = z.union([z.object({ start: StartSchema }), z.object({ end: z.number().int().nonnegative() })]);

/** What a run that did not close left open, found at the next start. */
export interface LeftOpenWork {
  work: NotFinishedWork[];
  /** Files that could not be read (each was removed): what to warn about. */
  problems: string[];
  /**
   * The records `work` was read from, still there: remove them (see {@link OpenWorkRecord.removeTaken})
   * once History holds that work on disk, or a crash in between loses it.
   */
  files: string[];
}

/** Test seams of {@link OpenWorkRecord}. */
export interface OpenWorkRecordSeams {
  /** Opens the record to append to it (`fs.promises.open(file, 'a')` unless given). */
  openFile?: (file: string) => Promise<fs.promises.FileHandle>;
}

/**
 * A small durable record of plain work while it is open (tool calls without a task that run,
 * questions and model requests that wait), so that the start after an unclean stop (SIGKILL, a
 * crash, power loss) can list in History what was open then: a clean close records all of it
 * there itself, and removes the record.
 *
 * An append-only file of JSON lines (`{"start":…}` when work starts, `{"end":id}` when it ends),
 * written off the call path: changes are gathered for {@link GATHER_MS} and appended in one write
 * (those made while a write is under way, in the one after it), never synced: the cost of a call
 * is a line in memory, and work that starts and ends within that time is never written. A killed
 * or crashed process loses the changes not written yet, the last {@link GATHER_MS} ms: work that
 * started just then is missed, and work that ended just then is listed as not finished as well as
 * in its own entry (whose History write is lazy too).
 * Power loss may lose more, or leave a torn or zeroed file (ignored, with a warning).
 * Past {@link COMPACT_BYTES} the file is written anew (a temporary file renamed over it) with only
 * what is open. Kept small: at most {@link MAX_OPEN} items, names and questions cut short (a
 * question is quoted at most {@link QUOTE_CHARS} characters, as the open-work note does; a tool
 * call's arguments are kept up to {@link ARGUMENTS_BYTES}). Every file operation may fail: then
 * recording stops, the file is removed if it can be, and Taskdesk runs on.
 */
export class OpenWorkRecord {
  readonly #file: string;
  readonly #written: ((open: number) => void) | undefined;
  /** What is open: its start line by its id (what a compaction writes again). */
  readonly #open = new Map<number, string>();
  /** The record's id of each running call, by its callId (a caller may use a callId again later). */
  readonly #calls = new Map<string, number>();
  #nextId = 1;
  /** Lines not written yet, and which starts among them (dropped with their end in one batch). */
  #pending: string[] = [];
  readonly #pendingStarts = new Map<number, number>();
  #handle: fs.promises.FileHandle | undefined;
  #bytes = 0;
  /** The characters the start lines of what is open take: what a compaction writes. */
  #openChars = 0;
  #draining: Promise<void> | undefined;
  /** The wait before the next write (see {@link GATHER_MS}), while one is due. */
  #gathering: { timer: NodeJS.Timeout; resolve: () => void } | undefined;
  #stopped = false;
  readonly #openFile: (file: string) => Promise<fs.promises.FileHandle>;

  /** `written` is told each time changes landed, with how many items are open (tests wait on it). */
  constructor(dataDir: string, runId: string, written?: (open: number) => void, seams: OpenWorkRecordSeams = {}) {
    this.#file = path.join(dataDir, OPEN_WORK_DIR, `${runId}.jsonl`);
    this.#written = written;
    this.#openFile = seams.openFile ?? ((file) => fs.promises.open(file, 'a'));
  }

  /** The secrets a question's quote must not hold (see `ServerSecretValues`); none until told. */
  #secrets: () => Iterable<string> = () => [];

  /** Where the secret values of the servers come from (the host's, which change as servers connect). */
  maskWith(secrets: () => Iterable<string>): void {
    this.#secrets = secrets;
  }

  /**
   * A plain call started, changed or ended (`PlainCalls`' every view); `args`, its arguments, as
   * it starts.
   */
  callChanged(view: PlainCallView, args?: Record<string, unknown>): void {
    if (this.#stopped) return;
    const id = this.#calls.get(view.callId);
    if (view.state !== 'running') {
      if (id === undefined) return;
      this.#calls.delete(view.callId);
      this.#ended(id);
      return;
    }
    if (id !== undefined || view.serverId.length > ID_CHARS) return;
    const kept = args === undefined ? undefined : keptArguments(args, this.#secrets());
    const started = this.#started({
      kind: 'tool-call',
      serverId: view.serverId,
      serverName: cut(view.serverName),
      toolName: cut(view.toolName),
      ...(view.callId.length <= ID_CHARS && { callId: view.callId }),
      ...(kept !== undefined && (kept === 'too-large' ? { argumentsTooLarge: true } : { arguments: kept })),
      ...(view.origin && { origin: view.origin }),
      startedAt: view.startedAt
    });
    if (started !== undefined) this.#calls.set(view.callId, started);
  }

  /**
   * A server's request outside a task started waiting (its runner was called): the id to end it
   * with, undefined when it is not recorded.
   */
  requestStarted(
    kind: 'elicitation' | 'sampling',
    request: Record<string, unknown>,
    context: WorkContext
  ): number | undefined {
    if (this.#stopped || context.serverId.length > ID_CHARS) return undefined;
    // Masked whole, before the preview cuts it: a secret cut in two would not be found. The History
    // entry made of it at the next start is made before any server connects, when none is known.
    const question = questionPreview({ kind, request: maskSecrets(request, this.#secrets()) });
    return this.#started({
      kind,
      serverId: context.serverId,
      serverName: cut(context.serverName),
      ...(question !== undefined && { question: previewLine(question, QUOTE_CHARS) }),
      ...(context.relatedTaskId !== undefined &&
        context.relatedTaskId.length <= ID_CHARS && { relatedTaskId: context.relatedTaskId }),
      startedAt: context.askedAt ?? new Date().toISOString()
    });
  }

  /** A request {@link requestStarted} returned `id` for has ended. */
  requestEnded(id: number | undefined): void {
    if (id !== undefined && !this.#stopped) this.#ended(id);
  }

  /** Resolves once every change made so far is written (or recording stopped). */
  async landed(): Promise<void> {
    while (this.#draining) await this.#draining;
  }

  /**
   * A clean close: the record goes (what was open is in History already). Waits for a write
   * under way, so that no write lands after the file is removed.
   */
  async close(): Promise<void> {
    this.#stopped = true;
    this.#pending = [];
    this.#pendingStarts.clear();
    // Nothing left to gather: no need to wait for the time to run out.
    if (this.#gathering) {
      clearTimeout(this.#gathering.timer);
      this.#gathering.resolve();
    }
    await this.landed();
    this.#remove();
  }

  #started(work: Omit<Start, 'id'>): number | undefined {
    if (this.#open.size >= MAX_OPEN) return undefined;
    const start: Start = { id: this.#nextId++, ...work };
    const line = `${JSON.stringify({ start })}\n`;
    this.#open.set(start.id, line);
    this.#openChars += line.length;
    this.#pendingStarts.set(start.id, this.#pending.length);
    this.#pending.push(line);
    this.#drainSoon();
    return start.id;
  }

  #ended(id: number): void {
    const line = this.#open.get(id);
    if (line === undefined) return;
    this.#open.delete(id);
    this.#openChars -= line.length;
    const at = this.#pendingStarts.get(id);
    if (at !== undefined) {
      // Started and ended since the last write: neither need be written.
      this.#pending[at] = '';
      this.#pendingStarts.delete(id);
      return;
    }
    this.#pending.push(`{"end":${id}}\n`);
    this.#drainSoon();
  }

  #drainSoon(): void {
    if (this.#draining) return;
    this.#draining = new Promise<void>((resolve) => {
      this.#gathering = { timer: setTimeout(resolve, GATHER_MS), resolve };
    }).then(() => this.#drain());
  }

  async #drain(): Promise<void> {
    this.#gathering = undefined;
    try {
      while (!this.#stopped && this.#pending.length > 0) {
        const text = this.#pending.join('');
        this.#pending = [];
        this.#pendingStarts.clear();
        if (text === '') continue;
        // Past what is open (calls' arguments make it large at times): ends need not stay.
        if (this.#bytes + text.length > this.#openChars + COMPACT_BYTES) await this.#compact();
        else await this.#append(text);
      }
      if (!this.#stopped) this.#written?.(this.#open.size);
    } catch {
      // Not writable (a full disk, a read-only data directory): a record that misses ends
      // would list finished work as not finished, so none is kept.
      this.#stopped = true;
      this.#pending = [];
      this.#remove();
    } finally {
      this.#draining = undefined;
    }
  }

  async #append(text: string): Promise<void> {
    if (!this.#handle) {
      await fs.promises.mkdir(path.dirname(this.#file), { recursive: true });
      this.#handle = await this.#openFile(this.#file);
    }
    await this.#handle.write(text);
    this.#bytes += text.length;
  }

  /** Writes the file anew with only what is open now. */
  async #compact(): Promise<void> {
    const text = [...this.#open.values()].join('');
    const temporary = `${this.#file}.tmp`;
    await fs.promises.mkdir(path.dirname(this.#file), { recursive: true });
    await fs.promises.writeFile(temporary, text);
    await fs.promises.rename(temporary, this.#file);
    const previous = this.#handle;
    this.#handle = await this.#openFile(this.#file);
    this.#bytes = text.length;
    await previous?.close();
  }

  #remove(): void {
    const handle = this.#handle;
    this.#handle = undefined;
    void handle?.close().catch(() => undefined);
    for (const file of [this.#file, `${this.#file}.tmp`]) {
      try {
        fs.rmSync(file, { force: true });
      } catch {
        // Not removable: the next start finds its run's marker gone, and lists what it holds.
      }
    }
  }

  /**
   * Takes what runs that ended without closing left open: the records in `dataDir` whose run is
   * not among `running` (the ids of the running markers there now: this run's, and other
   * Taskdesks' on the same directory). The records read stay until {@link removeTaken} (each
   * work keeps one `key`, so a record read twice makes the same entries). A record that is too
   * large or does not parse is removed and named in `problems`; a torn last line (a crash in the
   * middle of a write) is no problem. `lastSeenAt`: when the run was last seen running, if known.
   *
   * A record whose run's process is alive and which was written within the marker's stale limit
   * is left alone: that run may be running still, its marker taken as stale after the machine
   * slept (it writes its record as work starts and ends, but touches its marker only every minute).
   */
  static takeLeft(dataDir: string, running: ReadonlySet<string>, lastSeenAt?: number): LeftOpenWork {
    const dir = path.join(dataDir, OPEN_WORK_DIR);
    const left: LeftOpenWork = { work: [], problems: [], files: [] };
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      return left;
    }
    let read = 0;
    for (const name of names) {
      const runId = name.replace(/\.jsonl(\.tmp)?$/, '');
      if (running.has(runId)) continue;
      const file = path.join(dir, name);
      if (mayBeRunning(runId, file)) continue;
      // A compaction's temporary file, of a run that stopped in the middle of one: the record itself is whole.
      if (name.endsWith('.tmp')) {
        removeQuietly(file);
        continue;
      }
      if (!name.endsWith('.jsonl') || read++ >= FILES_READ) continue;
      const found = readRecord(file);
      if ('problem' in found) {
        removeQuietly(file);
        left.problems.push(found.problem);
        continue;
      }
      left.files.push(file);
      const seen = Math.max(found.writtenAt, lastSeenAt ?? 0);
      for (const start of found.open) {
        if (left.work.length >= MAX_OPEN) break;
        const { id, ...work } = start;
        const startedAt = Date.parse(work.startedAt);
        left.work.push({
          ...work,
          key: `${runId}:${id}`,
          // Never before it started (another run's marker may say an earlier time).
          lastSeenAt: new Date(Number.isNaN(startedAt) ? seen : Math.max(seen, startedAt)).toISOString()
        });
      }
    }
    return left;
  }

  /** Removes the records {@link takeLeft} read, once what they held is kept elsewhere. */
  static removeTaken(files: readonly string[]): void {
    for (const file of files) removeQuietly(file);
  }
}

/** Plain work with a recorder, when one is given: the runner's work outside a task is recorded while it waits. */
export function recordedSampling(runner: SamplingRunner, record: () => OpenWorkRecord | undefined): SamplingRunner {
  return {
    get resumable() {
      return runner.resumable;
    },
    ...(runner.canResume && { canResume: (notes: ReadonlyArray<Record<string, unknown>>) => runner.canResume!(notes) }),
    run: (params, context) => recorded(record(), 'sampling', params, context, () => runner.run(params, context))
  };
}

/** See {@link recordedSampling}. */
export function recordedElicitation(prompter: UserPrompter, record: () => OpenWorkRecord | undefined): UserPrompter {
  return {
    get resumable() {
      return prompter.resumable;
    },
    prompt: (params, context) =>
      recorded(record(), 'elicitation', params, context, () => prompter.prompt(params, context))
  };
}

function recorded<T>(
  record: OpenWorkRecord | undefined,
  kind: 'elicitation' | 'sampling',
  params: object,
  context: WorkContext,
  run: () => Promise<T>
): Promise<T> {
  // A task is stored by the receiver, and told of after a restart: not plain work.
  if (!record || context.taskId !== undefined) return run();
  const id = record.requestStarted(kind, params as Record<string, unknown>, context);
  let running: Promise<T>;
  try {
    running = run();
  } catch (error) {
    record.requestEnded(id);
    throw error;
  }
  // The receiver records the request's end in History at once when its runner settles.
  return running.finally(() => record.requestEnded(id));
}

/** The record in `file`: what it left open and when it was last written, or why it cannot be read. */
function readRecord(file: string): { open: Start[]; writtenAt: number } | { problem: string } {
  let text: string;
  let writtenAt: number;
  try {
    const stat = fs.statSync(file);
    if (stat.size > FILE_MAX_BYTES) return { problem: `it is larger than ${FILE_MAX_BYTES / 1024} KiB` };
    writtenAt = stat.mtimeMs;
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  }
  // What power loss can leave of a file whose size was written before its data.
  if (text.includes('\u0000')) return { problem: 'it holds zero bytes where its lines should be' };
  const lines = text.split('\n');
  // What follows the last newline is a line a crash cut short (or nothing).
  lines.pop();
  const open = new Map<number, Start>();
  for (const [index, line] of lines.entries()) {
    let parsed: z.infer<typeof LineSchema>;
    try {
      parsed = LineSchema.parse(JSON.parse(line));
    } catch {
      return { problem: `line ${index + 1} is not a record of ours` };
    }
    if ('start' in parsed) open.set(parsed.start.id, parsed.start);
    else open.delete(parsed.end);
  }
  return { open: [...open.values()], writtenAt };
}

/** Whether the run `runId` may still be running: its process is alive, and `file` was written within the stale limit. */
function mayBeRunning(runId: string, file: string): boolean {
  const pid = Number.parseInt(runId, 10);
  // A marker of this very process is a host that was never closed (one host per process).
  if (!Number.isInteger(pid) || pid === process.pid || !isAlive(pid)) return false;
  try {
    return Date.now() - fs.statSync(file).mtimeMs < STALE_MS;
  } catch {
    return false;
  }
}

function removeQuietly(file: string): void {
  try {
    fs.rmSync(file, { force: true });
  } catch {
    // Read again at the next start.
  }
}

/**
 * A call's arguments as the record keeps them, their secrets masked: whole up to
 * {@link ARGUMENTS_BYTES} of JSON, else `too-large`. Measured first by a walk that stops once its
 * strings and keys alone pass the bound, so that large arguments cost no more than small ones.
 */
function keptArguments(
  args: Record<string, unknown>,
  secrets: Iterable<string>
): Record<string, unknown> | 'too-large' {
  let chars = 0;
  // A lower bound of the JSON's length: each string and key at least its characters and quotes.
  const within = (part: unknown): boolean => {
    if (typeof part === 'string') chars += part.length + 2;
    else if (Array.isArray(part)) {
      chars += 2;
      for (const item of part) if (!within(item)) return false;
    } else if (typeof part === 'object' && part !== null) {
      chars += 2;
      for (const [key, item] of Object.entries(part)) {
        chars += key.length + 3;
        if (!within(item)) return false;
      }
    } else chars += 1;
    return chars <= ARGUMENTS_BYTES;
  };
  if (!within(args)) return 'too-large';
  const masked = maskSecrets(args, secrets);
  return Buffer.byteLength(JSON.stringify(masked)) <= ARGUMENTS_BYTES ? masked : 'too-large';
}

/** A name kept whole up to {@link NAME_CHARS} characters, else its start (not half a surrogate pair) and an ellipsis. */
function cut(text: string): string {
  if (text.length <= NAME_CHARS) return text;
  const start = text.slice(0, NAME_CHARS - 1);
  return `${/[\uD800-\uDBFF]$/.test(start) ? start.slice(0, -1) : start}…`;
}
