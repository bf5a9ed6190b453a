import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { questionPreview } from '../audit/question-preview.js';
import { previewLine } from '../contract/request-preview.js';
import type { NotFinishedWork } from '../history/not-finished-entry.js';
import type { EndedOrdinaryRequest } from '../receiver/task-receiver.js';

/** The note's file in the data directory. */
export const OPEN_WORK_NOTE_FILE = 'closed-with-open-work.json';

/** How much of one question the next start quotes. */
const QUOTE_CHARS = 60;
/** Server names the note keeps and the message names, at most; the rest are counted. */
const NAMES_KEPT = 20;
const NAMES_SAID = 3;
/** A note larger than this is no note of ours: ignored. */
const NOTE_MAX_BYTES = 64 * 1024;

const NoteSchema = z.object({
  version: z.literal(1),
  /** When the close that wrote it happened, in ms since the epoch. */
  closedAt: z.number(),
  questions: z.number().int().nonnegative(),
  modelRequests: z.number().int().nonnegative(),
  /** Names of the servers whose questions and model requests were waiting. */
  askedBy: z.array(z.string()).max(NAMES_KEPT),
  /** One of them in a short line (a question's message, or a model request's last text). */
  quote: z.string().max(QUOTE_CHARS).optional(),
  calls: z.number().int().nonnegative(),
  /**
   * How many of the questions and model requests were asked for a task of Taskdesk's (their
   * related-task `_meta`): none of their own, but not "without a task" to the person, whose
   * History says "Question for the call of …" (or "for one of Everything’s tasks"). Absent in
   * notes of earlier versions.
   */
  forTasks: z.number().int().nonnegative().optional(),
  /** Names of the servers whose tool calls were running. */
  calledOn: z.array(z.string()).max(NAMES_KEPT),
  /**
   * How many other servers asked, and had calls running, past the names kept: counted in "and N
   * more". Absent in notes of earlier versions.
   */
  askedByUnnamed: z.number().int().nonnegative().optional(),
  calledOnUnnamed: z.number().int().nonnegative().optional()
});
type Note = z.infer<typeof NoteSchema>;
/** What was broken off, counted and named, as a note keeps it or as records of open work tell it. */
type BrokenOff = Omit<Note, 'version' | 'closedAt'>;

/**
 * What a clean close broke off of plain work (questions and model requests without a task that
 * were waiting, tool calls without a task that were running), kept in a small file in the data
 * directory so that the next start says it once, in a host warning: the History entries the
 * close made are easy to miss, and the Inbox no longer shows the question.
 *
 * Written only when something was broken off (a close with nothing open costs nothing), and
 * atomically (a temporary file renamed over it); taken (read and removed) by the next start. A
 * note that cannot be read or does not parse is removed and ignored. Each operation may fail (a
 * read-only data directory): then nothing is said, and the History entries still tell.
 */
export class OpenWorkNote {
  #questions = 0;
  #modelRequests = 0;
  #calls = 0;
  #forTasks = 0;
  // Every server's name (they are as many as the servers at most): the note keeps some, and counts the others.
  readonly #askedBy = new Set<string>();
  readonly #calledOn = new Set<string>();
  #quote: string | undefined;
  /** Whether the quote is a question's (preferred over a model request's). */
  #quotesQuestion = false;

  /** An ordinary request ended: noted when Taskdesk's closing cancelled it. */
  requestEnded(ended: EndedOrdinaryRequest): void {
    if (ended.cancelled?.by !== 'taskdesk') return;
    if (ended.kind === 'elicitation') this.#questions++;
    else this.#modelRequests++;
    if (ended.relatedTaskId !== undefined) this.#forTasks++;
    this.#askedBy.add(ended.owner.serverName);
    const question = ended.kind === 'elicitation';
    if (this.#quote === undefined || (question && !this.#quotesQuestion)) {
      const preview = questionPreview(ended);
      if (preview !== undefined) {
        this.#quote = previewLine(preview, QUOTE_CHARS);
        this.#quotesQuestion = question;
      }
    }
  }

  /** A plain tool call ended: noted when Taskdesk's closing cancelled it. */
  callEnded(ended: { call: { serverName: string }; cancelledBy?: 'taskdesk' }): void {
    if (ended.cancelledBy !== 'taskdesk') return;
    this.#calls++;
    this.#calledOn.add(ended.call.serverName);
  }

  /**
   * What this close broke off, in the words the next start says it in: "1 tool call without a
   * task was running, on Echo: Taskdesk cancelled it; the call’s result was not received.";
   * undefined for nothing. Said as browser mode stops, in its terminal.
   */
  closedWords(): string | undefined {
    const words = brokenOffWords({
      questions: this.#questions,
      modelRequests: this.#modelRequests,
      askedBy: [...this.#askedBy],
      ...(this.#quote !== undefined && { quote: this.#quote }),
      calls: this.#calls,
      forTasks: this.#forTasks,
      calledOn: [...this.#calledOn]
    });
    return words && `${words.what}: Taskdesk cancelled ${words.one ? 'it' : 'them'}; ${words.lost}.`;
  }

  /**
   * Writes the note when anything was noted, added to one a close of another Taskdesk on this
   * directory left and no start took yet.
   */
  save(dataDir: string, closedAt: number): void {
    if (this.#questions + this.#modelRequests + this.#calls === 0) return;
    const file = path.join(dataDir, OPEN_WORK_NOTE_FILE);
    const earlier = readNote(file);
    const quote = this.#quote ?? earlier?.quote;
    const askedBy = keptNames(earlier?.askedBy, earlier?.askedByUnnamed, this.#askedBy);
    const calledOn = keptNames(earlier?.calledOn, earlier?.calledOnUnnamed, this.#calledOn);
    const note: Note = {
      version: 1,
      closedAt: Math.max(closedAt, earlier?.closedAt ?? 0),
      questions: this.#questions + (earlier?.questions ?? 0),
      modelRequests: this.#modelRequests + (earlier?.modelRequests ?? 0),
      askedBy: askedBy.names,
      ...(quote !== undefined && { quote }),
      calls: this.#calls + (earlier?.calls ?? 0),
      forTasks: this.#forTasks + (earlier?.forTasks ?? 0),
      calledOn: calledOn.names,
      askedByUnnamed: askedBy.unnamed,
      calledOnUnnamed: calledOn.unnamed
    };
    const temporary = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
    try {
      fs.writeFileSync(temporary, `${JSON.stringify(note)}\n`);
      fs.renameSync(temporary, file);
    } catch {
      // Not writable: the next start says nothing, and the History entries still tell.
      try {
        fs.rmSync(temporary, { force: true });
      } catch {
        // Nothing more to do.
      }
    }
  }

  /** Takes the note an earlier close left (it is said once): what to tell the person, or undefined. */
  static take(dataDir: string): string | undefined {
    const file = path.join(dataDir, OPEN_WORK_NOTE_FILE);
    const note = readNote(file);
    try {
      fs.rmSync(file, { force: true });
    } catch {
      // Not removable (a read-only data directory): said again at the next start.
    }
    return note && openWorkMessage(note);
  }
}

/**
 * The server names a note keeps (an earlier note's first, then this close's) and how many other
 * servers it counts. A server an earlier note counted but did not name is counted again if this
 * close names it: that note no longer knows which it was.
 */
function keptNames(
  earlier: readonly string[] = [],
  earlierUnnamed = 0,
  now: ReadonlySet<string>
): { names: string[]; unnamed: number } {
  const all = [...new Set([...earlier, ...now])];
  return { names: all.slice(0, NAMES_KEPT), unnamed: Math.max(0, all.length - NAMES_KEPT) + earlierUnnamed };
}

/** The note in `file`; undefined when there is none, or it is unreadable or no note of ours. */
function readNote(file: string): Note | undefined {
  let text: string;
  try {
    if (fs.statSync(file).size > NOTE_MAX_BYTES) return undefined;
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = NoteSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** What the next start says about a note (nothing when it counts nothing). */
function openWorkMessage(note: Note): string | undefined {
  const words = brokenOffWords(note);
  if (words === undefined) return undefined;
  const at = new Date(note.closedAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  const them = words.one ? 'it' : 'them';
  return `When Taskdesk last closed (at ${at}), ${words.what}: Taskdesk cancelled ${them}; ${words.lost}. History lists ${them} as “Cancelled by Taskdesk”.`;
}

/**
 * What a run that stopped without closing left open, as its records kept it (see
 * `OpenWorkRecord`), in the words a clean close's note is said in: "1 question without a task was
 * waiting, from A (“…”), and 1 tool call without a task was running, on B" (`what`), "the server
 * that asked was not answered, and the call’s result was not received" (`lost`); undefined for none.
 */
export function notFinishedWords(
  work: readonly NotFinishedWork[]
): { what: string; lost: string; one: boolean } | undefined {
  const askedBy = new Set<string>();
  const calledOn = new Set<string>();
  let quote: { text: string; question: boolean } | undefined;
  const counts = { questions: 0, modelRequests: 0, calls: 0, forTasks: 0 };
  for (const item of work) {
    if (item.kind === 'tool-call') {
      counts.calls++;
      calledOn.add(item.serverName);
      continue;
    }
    const question = item.kind === 'elicitation';
    if (question) counts.questions++;
    else counts.modelRequests++;
    if (item.relatedTaskId !== undefined) counts.forTasks++;
    askedBy.add(item.serverName);
    // A question's words are quoted before a model request's, as a close's note does.
    if (item.question !== undefined && (quote === undefined || (question && !quote.question)))
      quote = { text: previewLine(item.question, QUOTE_CHARS), question };
  }
  return brokenOffWords({
    ...counts,
    askedBy: [...askedBy],
    calledOn: [...calledOn],
    ...(quote && { quote: quote.text })
  });
}

/** What was broken off in words (see {@link notFinishedWords}); undefined when it counts nothing. */
function brokenOffWords(note: BrokenOff): { what: string; lost: string; one: boolean } | undefined {
  const parts: string[] = [];
  const waiting = note.questions + note.modelRequests;
  if (waiting > 0) {
    const what = [counted(note.questions, 'question'), counted(note.modelRequests, 'model request')]
      .filter((part) => part !== '')
      .join(' and ');
    // One is quoted: said so when there were more, so that the quote is not read as all of them.
    const quote = note.quote === undefined ? '' : ` (${waiting > 1 ? 'one of them: ' : ''}“${note.quote}”)`;
    const forTasks = Math.min(note.forTasks ?? 0, waiting);
    // As History says them: "Question for the call of …" (a task), else "without a task".
    const which =
      forTasks === 0
        ? 'without a task'
        : forTasks === waiting
          ? 'for a task'
          : `(${forTasks} of them for a task, ${waiting - forTasks} without one)`;
    parts.push(
      `${what} ${which} ${waiting === 1 ? 'was' : 'were'} waiting, from ${names(note.askedBy, note.askedByUnnamed)}${quote}`
    );
  }
  if (note.calls > 0)
    parts.push(
      `${counted(note.calls, 'tool call')} without a task ${note.calls === 1 ? 'was' : 'were'} running, on ${names(note.calledOn, note.calledOnUnnamed)}`
    );
  if (parts.length === 0) return undefined;
  // A question's server waits for an answer it did not get; a call waits on its server, whose
  // result Taskdesk did not get (as History says it: "its result was not received"). Servers are
  // counted as servers: three questions of one are one server not answered.
  const askingServers = note.askedBy.length + (note.askedByUnnamed ?? 0);
  const lost = [
    waiting === 0
      ? ''
      : askingServers <= 1
        ? 'the server that asked was not answered'
        : 'the servers that asked were not answered',
    note.calls === 0
      ? ''
      : note.calls === 1
        ? 'the call’s result was not received'
        : 'the calls’ results were not received'
  ].filter((part) => part !== '');
  return { what: parts.join(', and '), lost: lost.join(', and '), one: waiting + note.calls === 1 };
}

function counted(count: number, noun: string): string {
  if (count === 0) return '';
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** "A", "A and B", "A, B, C and 2 more" (`unnamed`: servers counted beyond those in `list`). */
function names(list: readonly string[], unnamed = 0): string {
  if (list.length === 0) return 'a server';
  const said = list.slice(0, NAMES_SAID);
  const more = list.length - said.length + unnamed;
  if (more > 0) return `${said.join(', ')} and ${more} more`;
  return said.length === 1 ? said[0]! : `${said.slice(0, -1).join(', ')} and ${said.at(-1)!}`;
}
