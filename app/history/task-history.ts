import { failureOf } from '../sampling/server-failure.js';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type {
  HistoryEntry,
  HistoryFilter,
  HistoryPage,
  HistoryRetention,
  HistoryStatus,
  HistoryStep,
  HistorySummary
} from '../contract/history.js';
import { HistoryEntrySchema, HistoryRetentionSchema } from '../contract/history.js';
import type { OutboundTaskView } from '../contract/outbound-tasks.js';
import { isRejectedSampling } from '../contract/rejected-sampling.js';
import type { EndedCall } from '../requestor/outbound-tasks.js';
import type { Clock, TimerHandle } from '../core/clock.js';
import { relatedTaskOf, type TaskRecord } from '../receiver/task-record.js';
import type { EndedOrdinaryRequest } from '../receiver/task-receiver.js';
import { cancelledByOf } from '../receiver/cancelled-by.js';
import type { JournalSync } from '../store/journal.js';
import type { JsonFileStoreFactory } from '../store/json-file-store.js';
import { SegmentLog } from '../store/segment-log.js';
import { openVersionedDocument, type OpenedDocument } from '../store/versioned-document.js';
import {
  boundedValue,
  errorLineOf,
  MAX_TIMELINE_STEPS,
  previewOf,
  ranRequestOf,
  titleOfReceived,
  titleOfRequested
} from './history-values.js';
import { answeredByYou } from '../receiver/answered-note.js';
import { answerOf, searchTextOf, shownStatusOf, waitsOnYouOf } from './history-search.js';
import { searchWords } from '../contract/search-words.js';
import { WAITING_FOR_YOU } from '../contract/task-row-words.js';
import { lastRanRequest } from '../contract/request-changes.js';
import { ASKED_LABEL, inboxStepLabel, receivedRequestEntry } from './received-request-entry.js';
import { CANCELLED_IN_TASKDESK, WORKING_ON_IT } from '../receiver/status-messages.js';
import { policyRefusalOf, withdrawnTask } from './withdrawal.js';
import { rejectionOf } from '../contract/model-rejection.js';
import { modelAnswerOf } from './edited-answer.js';
import { notFinishedEntry, type NotFinishedWork } from './not-finished-entry.js';
import { maskSecrets } from '../core/secret-mask.js';
import { CallLinks } from './call-links.js';

/** The retention a new data directory starts with: 30 days, at most 20,000 entries. */
export const DEFAULT_HISTORY_RETENTION: HistoryRetention = { days: 30, maxEntries: 20_000 };

/**
 * Bytes (of entry JSON) the history holds at most, in all and per server: past them, the oldest
 * entries of the server holding the most go first. What keeps a server that makes many large
 * requests from filling memory through the history (every entry is held in memory).
 */
export const MAX_HISTORY_BYTES = 64 * 1024 * 1024;
export const MAX_HISTORY_BYTES_PER_SERVER = 16 * 1024 * 1024;

/** How often entries past the retention are looked for, besides every write. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;
/**
 * How long the ends of plain calls gather before they become entries. Nobody waits on History,
 * while a call's caller (the assistant's next model call, the Tools screen's result) does: made
 * at once, each entry (its bounded copies, its text for the journal, its sizes) took its share of
 * the event loop in the very moments a burst of the assistant's turns was waiting for first
 * tokens. Every read of History takes what gathered first, so nothing reads stale.
 */
const GATHER_MS = 100;
const PAGE_DEFAULT = 50;
const PAGE_MAX = 500;

/** What the history tells its host about. */
export interface TaskHistoryEvents {
  /** An entry was added or changed. */
  changed?(summary: HistorySummary): void;
}

/** Options of {@link TaskHistory}. */
export interface TaskHistoryOptions {
  dataDir: string;
  corruptDir: string;
  factory: JsonFileStoreFactory;
  clock: Clock;
  events?: TaskHistoryEvents;
  /** Replaces the saved retention (tests). */
  retention?: Partial<HistoryRetention>;
  /** Replace the byte bounds (tests). */
  maxBytes?: number;
  maxBytesPerServer?: number;
  /**
   * The values Taskdesk holds as secrets (servers' secret env vars and headers, sign-in tokens),
   * read at each write: none is kept in the clear in an entry (see {@link maskSecrets}).
   */
  secretValues?: () => Iterable<string>;
  /** Replaces `fs.fdatasync` for History's journal: tests hold its syncs with it. */
  journalSync?: JournalSync;
}

/**
 * The user's record of every received and requested task, of every tool call that ran without a
 * task, and of every request a server sent that was no task, kept on the user's side after the
 * protocol TTL.
 *
 * Entries live in their own segment log (`<dataDir>/history/`, electron-store documents behind
 * the journal, as the task store does), written lazily: history is never what a server waits
 * for. Bounded three ways: by age (the retention's days, from the last change), by count (past
 * `maxEntries` the oldest entry of the server holding the most goes first, so one busy server
 * cannot push the others' history out), and by the size of each request and result (see
 * `boundedValue`).
 */
export class TaskHistory {
  readonly #log: SegmentLog<HistoryEntry>;
  readonly #entries = new Map<string, HistoryEntry>();
  /**
   * Each entry's summary (its preview made once, from its request): what lists show and what the
   * filters read, made again only when the entry changes.
   */
  readonly #summaries = new Map<string, HistorySummary>();
  /**
   * Each entry's folded search text (see `searchTextOf`), made the first time a search reads
   * it, not on the way of every call or request that ends, and forgotten when the entry changes,
   * or when the entry of the call it was asked for comes or goes (what its row says of that call,
   * "for the call of …", comes and goes with it; see {@link #forgetAskersText}).
   */
  readonly #searchTexts = new Map<string, string>();
  /** Which tool call each question or model request was asked for or while, and back (see {@link CallLinks}). */
  readonly #links = new CallLinks();
  /** The `ranRequest` notes already taken into an entry (see `#ranChange`). */
  readonly #ranSeen = new WeakSet<object>();
  /** Each server's entry ids, oldest first: the order eviction takes them in. */
  readonly #byServer = new Map<string, string[]>();
  /** Each entry's size (its JSON), each server's sum, and the total. */
  readonly #sizes = new Map<string, number>();
  readonly #serverBytes = new Map<string, number>();
  #totalBytes = 0;
  readonly #maxBytes: number;
  readonly #maxServerBytes: number;
  readonly #clock: Clock;
  readonly #events: TaskHistoryEvents;
  readonly #secretValues: () => Iterable<string>;
  readonly #settings: OpenedDocument<HistoryRetention>;
  #retention: HistoryRetention;
  #pruneTimer: TimerHandle | undefined;
  /** Ends of plain calls not yet entries (see {@link GATHER_MS}), and the timer that takes them. */
  #gathered: Array<{ ended: EndedCall; endedAt: string }> = [];
  #gatherTimer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;
  /** Warnings found while loading (files moved aside). */
  readonly warnings: Array<{ message: string; movedTo?: string }> = [];

  constructor(options: TaskHistoryOptions) {
    this.#clock = options.clock;
    this.#events = options.events ?? {};
    this.#secretValues = options.secretValues ?? (() => []);
    this.#log = new SegmentLog<HistoryEntry>({
      dir: path.join(options.dataDir, 'history'),
      corruptDir: options.corruptDir,
      factory: options.factory,
      ...(options.journalSync && { journalSync: options.journalSync })
    });
    this.#settings = openVersionedDocument({
      dir: options.dataDir,
      corruptDir: options.corruptDir,
      factory: options.factory,
      name: 'history-settings',
      label: 'history retention',
      version: 1,
      schema: HistoryRetentionSchema,
      empty: () => ({ ...DEFAULT_HISTORY_RETENTION })
    });
    if (this.#settings.warning) this.warnings.push(this.#settings.warning);
    this.#retention = { ...this.#settings.value, ...options.retention };
    this.#maxBytes = options.maxBytes ?? MAX_HISTORY_BYTES;
    this.#maxServerBytes = options.maxBytesPerServer ?? MAX_HISTORY_BYTES_PER_SERVER;
  }

  /** Reads the stored history, drops what the retention no longer allows, and starts pruning. */
  load(): void {
    const report = this.#log.load((value) => HistoryEntrySchema.parse(value));
    for (const bad of report.quarantined) {
      this.warnings.push({ message: `A history file could not be read: ${bad.reason}`, movedTo: bad.movedTo });
    }
    if (report.rejected.length > 0) {
      this.warnings.push({
        message: `${report.rejected.length} history entries did not match their schema and were dropped`
      });
    }
    const loaded = [...report.records.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    for (const entry of loaded) this.#index(entry);
    this.#prune();
    this.#schedulePrune();
  }

  /**
   * Records a received task's state; `record` undefined means the receiver removed it (TTL, eviction).
   *
   * A task Taskdesk withdrew because the task it was asked for ended (its runner's notes say so)
   * is recorded as cancelled by Taskdesk, with why, as a plain request is: its protocol status
   * (`completed` with an elicitation's `cancel`, `failed` with −1) and that answer are what its
   * server was told, not an answer of the person's, so History keeps neither. One refused because
   * the person set its server's policy to refuse while it waited keeps its `failed` and −1 (what a
   * request arriving under that policy gets), with the setting as why (`policyRefusalOf`).
   *
   * `duringCall` is asked once, when the task's entry is made: the plain tool call of Taskdesk's
   * that ran on its server, alone, when the task was created (as for a request that was no task,
   * see `receivedRequestEntry`), however it is answered and whenever that call ends.
   */
  recordReceived(taskId: string, record: TaskRecord | undefined, duringCall?: () => HistoryEntry['duringCall']): void {
    const id = `received:${taskId}`;
    const existing = this.#entries.get(id);
    if (!record) {
      if (existing && !isEnded(existing.status)) {
        // Gone while it still waited: the TTL ended first. A question to the person went unanswered.
        this.#save(
          this.#step(existing, this.#now(), 'expired', 'The task expired before it finished', { unanswered: true })
        );
      }
      return;
    }
    const withdrawn = withdrawnTask(record);
    const status: HistoryStatus = withdrawn ? 'cancelled' : record.task.status;
    const cancelledBy = withdrawn?.by ?? cancelledByOf(record);
    const by = cancelledBy ? { cancelledBy } : {};
    // A failed model run's whole reason, where its server was told only the kind of failure.
    const failure = record.task.status === 'failed' ? failureOf(record.notes) : undefined;
    // Refused by the policy the person set while it waited: the −1 its server was told, said as why.
    const refused =
      record.task.status === 'failed' ? policyRefusalOf(record.notes, record.owner.serverName) : undefined;
    // The person's Reject: of the model's answer in review (kept, as what was rejected), or of the request.
    const rejection =
      withdrawn || refused !== undefined ? undefined : rejectionOf(record.kind, record.notes, record.outcome);
    // The person's Cancel in Taskdesk: its badge says "Cancelled by you", which is all the words its
    // server was told say.
    const told =
      cancelledBy === 'you' && record.task.statusMessage === CANCELLED_IN_TASKDESK
        ? undefined
        : record.task.statusMessage;
    const statusMessage = withdrawn?.reason ?? refused ?? rejection?.message ?? failure ?? told;
    const outcome = withdrawn ? undefined : record.outcome;
    const rejectedAnswer = rejection?.rejectedAnswer;
    // The model's answer as it came, when the person changed it in review before it went.
    const modelAnswer = withdrawn ? undefined : modelAnswerOf(record.kind, record.notes, record.outcome);
    if (existing) {
      const result = outcome?.type === 'result' && !existing.result ? { result: boundedValue(outcome.result) } : {};
      const error = outcome?.type === 'error' && !existing.error ? { error: outcome.error } : {};
      const rejected =
        rejectedAnswer !== undefined && !existing.rejectedAnswer
          ? { rejectedAnswer: boundedValue(rejectedAnswer) }
          : {};
      const model =
        modelAnswer !== undefined && !existing.modelAnswer ? { modelAnswer: boundedValue(modelAnswer) } : {};
      const answer = !withdrawn && answeredByYou(record) ? { answer: 'accept' as const } : {};
      // What ran, noted each time the person approved a changed request (a try again after a
      // failed run may change it again, or undo the change): no step of its own.
      const ran = this.#ranChange(existing, record.notes);
      const entry = ran === undefined ? existing : ran;
      if (existing.status === status && existing.statusMessage === statusMessage && !result.result && !error.error) {
        if (ran !== undefined) this.#save(entry);
        return;
      }
      this.#save(
        this.#step(
          { ...entry, ...result, ...model, ...rejected, ...error, ...answer },
          record.task.lastUpdatedAt,
          status,
          statusMessage,
          by
        )
      );
      return;
    }
    const related = relatedOf(record);
    // Asked for a task of Taskdesk's, the entry names that task (`relatedTaskId`), not a call it ran beside.
    const during = related.relatedTaskId === undefined ? duringCall?.() : undefined;
    const entry: HistoryEntry = {
      id,
      direction: 'received',
      kind: record.kind,
      serverId: record.owner.serverId,
      serverName: record.owner.serverName,
      taskId,
      ...related,
      ...(during !== undefined && { duringCall: { ...during } }),
      title: titleOfReceived(record.kind, record.request),
      status,
      ...by,
      ...(statusMessage !== undefined && { statusMessage }),
      createdAt: record.task.createdAt,
      updatedAt: record.task.lastUpdatedAt,
      ...(isEnded(status) && { endedAt: record.task.lastUpdatedAt }),
      timeline: [firstReceivedStep(record.task.createdAt, status, statusMessage)],
      request: boundedValue(record.request),
      ...ranOf(record),
      ...(!withdrawn && answeredByYou(record) && { answer: 'accept' as const }),
      ...(outcome?.type === 'result' && { result: boundedValue(outcome.result) }),
      ...(modelAnswer !== undefined && { modelAnswer: boundedValue(modelAnswer) }),
      ...(rejectedAnswer !== undefined && { rejectedAnswer: boundedValue(rejectedAnswer) }),
      ...(outcome?.type === 'error' && { error: outcome.error })
    };
    this.#save(entry);
  }

  /** Records a requested (outbound) task's state. */
  recordRequested(view: OutboundTaskView): void {
    const id = `requested:${view.outboundId}`;
    const existing = this.#entries.get(id);
    const status: HistoryStatus = view.state;
    const message = view.reason ?? view.task.statusMessage;
    const outcome =
      view.outcome?.type === 'result'
        ? { result: boundedValue(view.outcome.result) }
        : view.outcome?.type === 'error'
          ? { error: view.outcome.error }
          : {};
    const by = view.state === 'cancelled' && view.cancelledBy ? { cancelledBy: view.cancelledBy } : {};
    if (existing) {
      const newOutcome = (outcome.result && !existing.result) || (outcome.error && !existing.error);
      // Its end was kept before its outcome came (the write queue holds an end for it only a
      // while): the outcome joins the entry, with no step for the running message it still has.
      // A message of its own that comes after its end is a step, as any change of message is.
      if (existing.status === status && isEnded(status)) {
        const running = existing.timeline.findLast((step) => !isEnded(step.status))?.message;
        if (message === existing.statusMessage || message === running) {
          if (newOutcome) this.#save({ ...existing, ...outcome, updatedAt: view.updatedAt });
          return;
        }
      }
      if (existing.status === status && existing.statusMessage === message && !newOutcome) return;
      this.#save(this.#step({ ...existing, ...(newOutcome ? outcome : {}) }, view.updatedAt, status, message, by));
      return;
    }
    this.#save({
      id,
      direction: 'requested',
      kind: 'tool-call',
      serverId: view.serverId,
      serverName: view.serverName,
      taskId: view.taskId,
      title: titleOfRequested(view.toolName),
      status,
      ...by,
      ...(message !== undefined && { statusMessage: message }),
      createdAt: view.createdAt,
      updatedAt: view.updatedAt,
      ...(isEnded(status) && { endedAt: view.updatedAt }),
      ...(view.origin && { origin: { ...view.origin } }),
      timeline: [{ at: view.createdAt, status, ...(message !== undefined && { message }) }],
      request: boundedValue({ name: view.toolName, arguments: view.arguments }),
      ...outcome
    });
  }

  /**
   * A requested task was forgotten in Taskdesk: one that had not ended will never be heard of
   * again (it is no longer followed, and the server was not told), so its entry says so as
   * `lost` rather than staying "working" for good.
   */
  recordForgotten(outboundId: string): void {
    const existing = this.#entries.get(`requested:${outboundId}`);
    if (!existing || isEnded(existing.status)) return;
    this.#save(
      this.#step(
        existing,
        this.#now(),
        'lost',
        'Forgotten in Taskdesk before it ended: no longer followed, and the server was not told'
      )
    );
  }

  /**
   * Records a tool call that ended without becoming a task (answered, failed or cancelled): a new
   * entry each time, since a call has no id of its own beyond its run (a caller may use a
   * `callId` again). Recorded once it ends: a plain call does not outlive the app.
   */
  recordCall(ended: EndedCall): void {
    if (this.#closed) return;
    this.#gathered.push({ ended, endedAt: ended.call.endedAt ?? this.#now() });
    // Not the injected clock: a test's clock that stands still would hold the entry back from its event.
    this.#gatherTimer ??= setTimeout(() => this.#takeGathered(), GATHER_MS);
  }

  /** The calls' ends gathered so far become entries now, in the order they ended. */
  #takeGathered(): void {
    clearTimeout(this.#gatherTimer);
    this.#gatherTimer = undefined;
    if (this.#gathered.length === 0) return;
    const gathered = this.#gathered;
    this.#gathered = [];
    for (const { ended, endedAt } of gathered) this.#callEntry(ended, endedAt);
  }

  #callEntry(ended: EndedCall, endedAt: string): void {
    const { call } = ended;
    // A result with `isError` is the tool's failure, said the way a task says it (a task's
    // status is `failed` "when the tool call result has isError set to true"): not a green
    // "Completed" in History, and found by its "Failed" filter.
    const toolError =
      call.state === 'completed' && (ended.result as { isError?: unknown } | undefined)?.isError === true;
    const status: HistoryStatus = call.state === 'running' || toolError ? 'failed' : call.state;
    void this.#keep({
      id: `call:${randomUUID()}`,
      callId: call.callId,
      direction: 'requested',
      kind: 'tool-call',
      serverId: call.serverId,
      serverName: call.serverName,
      title: titleOfRequested(call.toolName),
      status,
      // The person cancels a plain call (Cancel, or Stop in a conversation), or Taskdesk's
      // closing does (its reason as the status message). A server that answers −32800 of its
      // own ends the call `failed`, its error saying so (`PlainCalls.run`): never "by you".
      ...(status === 'cancelled' && { cancelledBy: ended.cancelledBy ?? ('you' as const) }),
      ...(ended.cancelledBy !== undefined && call.error && { statusMessage: call.error.message }),
      createdAt: call.startedAt,
      updatedAt: endedAt,
      endedAt,
      ...(call.origin && { origin: { ...call.origin } }),
      timeline: [
        { at: call.startedAt, status: 'working' },
        { at: endedAt, status }
      ],
      request: boundedValue({ name: call.toolName, arguments: ended.arguments }),
      ...(ended.result && { result: boundedValue(ended.result) }),
      ...(call.error && status !== 'completed' && { error: call.error })
    });
  }

  /**
   * Records a server's ordinary (not task-augmented) request once it ended (see
   * `receivedRequestEntry`): a new entry each time. Not kept while it waits: an ordinary
   * request does not outlive the app.
   */
  recordReceivedRequest(ended: EndedOrdinaryRequest, askedFor?: string, duringCall?: HistoryEntry['duringCall']): void {
    this.#save(receivedRequestEntry(ended, askedFor, duringCall));
  }

  /**
   * Records plain work a run of Taskdesk left open when it stopped without closing (see
   * `notFinishedEntry`): a new entry each, as the ends it never recorded would have made.
   *
   * Written at once, not lazily: resolves when the entry is on disk (its record, the only other
   * place it is kept, may go then), rejects when it is not.
   */
  recordNotFinished(work: NotFinishedWork): Promise<void> {
    this.#takeGathered();
    return this.#keep(notFinishedEntry(work), true) ?? Promise.reject(new Error('History is closed'));
  }

  /** One page of entries matching `filter`, newest first. */
  list(filter: HistoryFilter = {}, page: { cursor?: string; limit?: number } = {}): HistoryPage {
    this.#takeGathered();
    const limit = Math.min(PAGE_MAX, Math.max(1, page.limit ?? PAGE_DEFAULT));
    const matching = this.#matching(filter);
    // A keyset cursor (the last entry shown): entries added or removed meanwhile neither shift
    // the next page nor make it repeat one.
    let start = 0;
    if (page.cursor !== undefined) {
      const after = decodeCursor(page.cursor);
      start = matching.findIndex((entry) => newestFirst(entry, after) > 0);
      if (start === -1) start = matching.length;
    }
    const shown = matching.slice(start, start + limit);
    const last = shown.at(-1);
    return {
      entries: shown.map((entry) => this.#summaryOf(entry)),
      total: matching.length,
      ...(last && start + limit < matching.length && { nextCursor: encodeCursor(last) })
    };
  }

  /**
   * The whole entry, or undefined; with the tool call it was asked for or while (`forCall`), or,
   * for a tool call, what its server asked (`asked`), whether it waits on the person (`waitsOnYou`),
   * and how the person answered it (`answer`), as its row says them.
   */
  get(id: string): HistoryEntry | undefined {
    this.#takeGathered();
    const entry = this.#entries.get(id);
    if (!entry) return undefined;
    const lookup = (linked: string) => this.#entries.get(linked);
    const forCall = this.#links.forCall(entry, lookup);
    const asked = this.#links.asked(entry, this.#entries.values(), lookup);
    return {
      ...entry,
      ...(forCall && { forCall }),
      ...(asked && asked.length > 0 && { asked }),
      ...(waitsOnYouOf(entry) && { waitsOnYou: true }),
      ...answerOf(entry)
    };
  }

  /** Every entry matching `filter` as JSON Lines, newest first. */
  exportJsonLines(filter: HistoryFilter = {}): string {
    this.#takeGathered();
    return this.#matching(filter)
      .map((entry) => `${JSON.stringify(entry)}\n`)
      .join('');
  }

  get retention(): HistoryRetention {
    return { ...this.#retention };
  }

  /** Saves a new retention and applies it at once. */
  setRetention(retention: HistoryRetention): HistoryRetention {
    this.#retention = HistoryRetentionSchema.parse(retention);
    this.#takeGathered();
    this.#settings.save(this.#retention);
    this.#prune();
    return this.retention;
  }

  /** Number of entries held. */
  get size(): number {
    this.#takeGathered();
    return this.#entries.size;
  }

  /** Writes what is pending and stops pruning. */
  close(): void {
    this.#takeGathered();
    this.#closed = true;
    if (this.#pruneTimer) this.#clock.clearTimeout(this.#pruneTimer);
    this.#log.close();
  }

  #matching(filter: HistoryFilter): HistoryEntry[] {
    const words = searchWords(filter.text);
    const found: HistoryEntry[] = [];
    const only = filter.id === undefined ? undefined : this.#entries.get(filter.id);
    const held = new Set(filter.heldTaskIds);
    if (filter.id !== undefined && only === undefined) return found;
    for (const entry of only ? [only] : this.#entries.values()) {
      if (filter.serverId !== undefined && entry.serverId !== filter.serverId) continue;
      if (filter.kind !== undefined && entry.kind !== filter.kind) continue;
      if (filter.direction !== undefined && entry.direction !== filter.direction) continue;
      // As the rows say it: a rejected model request is found as `rejected`, not as `failed`,
      // a declined question as `declined`, not as `completed`; one waiting on the person as
      // `waiting` (and as `working`, its status, as on the Tasks screen).
      if (filter.status === WAITING_FOR_YOU) {
        if (this.#summaryOf(entry).waitsOnYou !== true) continue;
        // The person answered it; the answer waits out its undo window in the Desk.
        if (entry.taskId !== undefined && held.has(entry.taskId)) continue;
      } else if (filter.status !== undefined && shownStatusOf(this.#summaryOf(entry)) !== filter.status) continue;
      if (words.length > 0) {
        const text = this.#searchTextOf(entry);
        if (!words.every((word) => text.includes(word))) continue;
      }
      found.push(entry);
    }
    return found.sort(newestFirst);
  }

  /** `entry` moved to `status`, with a step on its timeline (the oldest steps after the first give way). */
  #step(
    entry: HistoryEntry,
    at: string,
    status: HistoryStatus,
    message: string | undefined,
    extra: { unanswered?: boolean; cancelledBy?: 'you' | 'server' | 'taskdesk' } = {}
  ): HistoryEntry {
    // A task that ends with the status message it had while it ran ("Generating report...")
    // ended with no message of its own: its outcome speaks, not its last interim status.
    if (isEnded(status) && !isEnded(entry.status) && message === entry.statusMessage) message = undefined;
    // The timeline holds every change of status or status message, so that it says what the task
    // said (a received task asks "Waiting for your answer in the Inbox" right after it is made);
    // only the outcome, arriving in the same status, adds no step.
    const last = entry.timeline.at(-1);
    // A received request's wait in the Inbox is said as its row said it then: "Waiting for you".
    const label = entry.direction === 'received' && !isEnded(status) ? inboxStepLabel(message) : undefined;
    const timeline =
      last?.status === status && last.message === message
        ? entry.timeline
        : [
            ...entry.timeline,
            { at, status, ...(label !== undefined && { label }), ...(message !== undefined && { message }) }
          ];
    if (timeline.length > MAX_TIMELINE_STEPS) timeline.splice(1, timeline.length - MAX_TIMELINE_STEPS);
    const { statusMessage: _previous, ...rest } = entry;
    return {
      ...rest,
      ...extra,
      status,
      ...(message !== undefined && { statusMessage: message }),
      updatedAt: at,
      ...(isEnded(status) && { endedAt: entry.endedAt ?? at }),
      timeline
    };
  }

  /**
   * `entry` with the request as it last ran, when the task's notes say something other than what
   * the entry holds; undefined when nothing changed. A note is read (and bounded) once: the notes
   * of a task's versions share their objects.
   */
  #ranChange(entry: HistoryEntry, notes: TaskRecord['notes']): HistoryEntry | undefined {
    const raw = lastRanRequest(notes);
    if (raw === undefined) {
      if (entry.ranRequest === undefined) return undefined;
      // The person undid their changes on a try after a failed one: it ran as the server sent it.
      const { ranRequest: _undone, ...rest } = entry;
      return rest;
    }
    if (this.#ranSeen.has(raw)) return undefined;
    this.#ranSeen.add(raw);
    return { ...entry, ranRequest: boundedValue(raw) };
  }

  /** An entry's search text, made when first searched and kept until the entry or the call it was asked for changes. */
  #searchTextOf(entry: HistoryEntry): string {
    let text = this.#searchTexts.get(entry.id);
    if (text === undefined) {
      text = searchTextOf(entry, this.#summaryOf(entry));
      this.#searchTexts.set(entry.id, text);
    }
    return text;
  }

  /** A requested call's entry came, changed or went: the requests asked for its task say other words of it now. */
  #forgetAskersText(call: HistoryEntry): void {
    for (const id of this.#links.askedForTask(call)) this.#searchTexts.delete(id);
  }

  /**
   * An entry's summary, made when the entry was saved (or loaded), with the tool call it was
   * asked for or while (made as it is read: that call's entry may come or go after it).
   */
  #summaryOf(entry: HistoryEntry): HistorySummary {
    const summary = this.#summaries.get(entry.id) ?? summaryOf(entry);
    const forCall = this.#links.forCall(entry, (id) => this.#entries.get(id));
    return forCall ? { ...summary, forCall } : summary;
  }

  #now(): string {
    return new Date(this.#clock.now()).toISOString();
  }

  /** Keeps an entry, after the calls' ends gathered before it (entries keep the order they came in). */
  #save(given: HistoryEntry): void {
    this.#takeGathered();
    void this.#keep(given);
  }

  /** Keeps an entry; `urgent` writes it at once. The write, unless History is closed. */
  #keep(given: HistoryEntry, urgent = false): Promise<void> | undefined {
    if (this.#closed) return undefined;
    // Every entry passes here, whichever record* made it: a tool that repeats a credential back
    // (a server's environment, the headers it was sent) has it masked in the entry, and so in its
    // summary, its search text and the files. Masked before the entry is kept, so what History
    // shows and what it wrote are the same.
    const entry = maskSecrets(given, this.#secretValues());
    const isNew = !this.#entries.has(entry.id);
    this.#entries.set(entry.id, entry);
    this.#links.add(entry);
    this.#summaries.set(entry.id, summaryOf(entry));
    const summary = this.#summaryOf(entry);
    this.#searchTexts.delete(entry.id);
    this.#forgetAskersText(entry);
    if (isNew) this.#appendToServer(entry);
    // Lazy, unless told: nobody waits on history. A write that fails is reported by the store's own warnings.
    const written = this.#log.put(entry.id, entry, urgent);
    written.catch((error: unknown) => {
      console.error('Taskdesk could not record a task in its history:', error);
    });
    // Its size as the journal wrote it: the entry is not serialized a second time.
    this.#account(entry, this.#log.textLength(entry.id));
    this.#events.changed?.(summary);
    if (this.#overBounds()) this.#prune();
    return written;
  }

  #index(entry: HistoryEntry): void {
    this.#entries.set(entry.id, entry);
    this.#links.add(entry);
    this.#forgetAskersText(entry);
    const summary = summaryOf(entry);
    this.#summaries.set(entry.id, summary);
    this.#appendToServer(entry);
    this.#account(entry);
  }

  /** Counts an entry's (new) size, its JSON's length, against its server and the total. */
  #account(entry: HistoryEntry, jsonLength?: number): void {
    const size = jsonLength ?? JSON.stringify(entry).length;
    const before = this.#sizes.get(entry.id) ?? 0;
    this.#sizes.set(entry.id, size);
    this.#serverBytes.set(entry.serverId, (this.#serverBytes.get(entry.serverId) ?? 0) + size - before);
    this.#totalBytes += size - before;
  }

  #overBounds(): boolean {
    if (this.#entries.size > this.#retention.maxEntries || this.#totalBytes > this.#maxBytes) return true;
    for (const bytes of this.#serverBytes.values()) if (bytes > this.#maxServerBytes) return true;
    return false;
  }

  #appendToServer(entry: HistoryEntry): void {
    const ids = this.#byServer.get(entry.serverId);
    if (ids) ids.push(entry.id);
    else this.#byServer.set(entry.serverId, [entry.id]);
  }

  #remove(id: string): void {
    const entry = this.#entries.get(id);
    if (!entry) return;
    this.#entries.delete(id);
    this.#forgetAskersText(entry);
    this.#links.remove(entry);
    this.#summaries.delete(id);
    this.#searchTexts.delete(id);
    const size = this.#sizes.get(id) ?? 0;
    this.#sizes.delete(id);
    const left = (this.#serverBytes.get(entry.serverId) ?? 0) - size;
    if (left > 0) this.#serverBytes.set(entry.serverId, left);
    else this.#serverBytes.delete(entry.serverId);
    this.#totalBytes -= size;
    const ids = this.#byServer.get(entry.serverId);
    if (ids) {
      const at = ids.indexOf(id);
      if (at >= 0) ids.splice(at, 1);
      if (ids.length === 0) this.#byServer.delete(entry.serverId);
    }
    this.#log.delete(id).catch((error: unknown) => {
      console.error('Taskdesk could not remove an entry from its history:', error);
    });
  }

  /** Drops entries past the retention's age, then the oldest of the largest server's while over the count. */
  #prune(): void {
    const cutoff = new Date(this.#clock.now() - this.#retention.days * 24 * 60 * 60 * 1000).toISOString();
    // By the last change the history saw; a task's own times come from its server's clock.
    for (const [id, entry] of this.#entries) if (entry.updatedAt < cutoff) this.#remove(id);
    // Over a server's own byte bound: that server's oldest go.
    for (const [serverId, bytes] of [...this.#serverBytes]) {
      let held = bytes;
      const ids = this.#byServer.get(serverId) ?? [];
      while (held > this.#maxServerBytes && ids.length > 0) {
        held -= this.#sizes.get(ids[0]!) ?? 0;
        this.#remove(ids[0]!);
      }
    }
    // Over the count or the total bytes: the oldest of the server holding the most.
    while (this.#entries.size > this.#retention.maxEntries || this.#totalBytes > this.#maxBytes) {
      const byBytes = this.#totalBytes > this.#maxBytes;
      let largest: string[] | undefined;
      let largestBy = -1;
      for (const [serverId, ids] of this.#byServer) {
        const measure = byBytes ? (this.#serverBytes.get(serverId) ?? 0) : ids.length;
        if (measure > largestBy) {
          largest = ids;
          largestBy = measure;
        }
      }
      const oldest = largest?.[0];
      if (oldest === undefined) break;
      this.#remove(oldest);
    }
  }

  #schedulePrune(): void {
    if (this.#closed) return;
    this.#pruneTimer = this.#clock.setTimeout(() => {
      this.#prune();
      this.#schedulePrune();
    }, PRUNE_EVERY_MS);
  }
}

function isEnded(status: HistoryStatus): boolean {
  return status !== 'working' && status !== 'input_required';
}

/**
 * A received task's first step, as it was made: its arrival ("Asked", as a request that was no
 * task starts) while all its status message says is the receiver's words for every task it makes
 * (`WORKING_ON_IT`: nothing worked on it yet); else its status and message as first recorded, a
 * wait in the Inbox said "Waiting for you" (see `inboxStepLabel`).
 */
function firstReceivedStep(at: string, status: HistoryStatus, message: string | undefined): HistoryStep {
  if (status === 'working' && message === WORKING_ON_IT) return { at, status, label: ASKED_LABEL };
  const label = isEnded(status) ? undefined : inboxStepLabel(message);
  return { at, status, ...(label !== undefined && { label }), ...(message !== undefined && { message }) };
}

/**
 * An entry without its bodies, with what tells it from others of its title (`preview`, from its
 * request), why a plain tool call failed (`errorLine`, from its error or result: the list has
 * neither), whether it was a model request turned down (which only its error says), whether
 * the person changed the request before it ran or the model's answer in review, and whether it waits on them (`waitsOnYou`).
 */
function summaryOf(entry: HistoryEntry): HistorySummary {
  const {
    timeline: _timeline,
    request: _request,
    ranRequest,
    result: _result,
    rejectedAnswer: _rejectedAnswer,
    modelAnswer,
    error: _error,
    ...summary
  } = entry;
  const preview = previewOf(entry);
  const errorLine = errorLineOf(entry);
  return {
    ...summary,
    ...(preview !== undefined && { preview }),
    ...(errorLine !== undefined && { errorLine }),
    ...(isRejectedSampling(entry) && { rejected: true }),
    ...((ranRequest !== undefined || modelAnswer !== undefined) && { edited: true }),
    ...(waitsOnYouOf(entry) && { waitsOnYou: true }),
    ...answerOf(entry)
  };
}

/** The task of Taskdesk's a received task was asked for (its related-task `_meta`, noted as it arrived). */
function relatedOf(record: TaskRecord): Pick<HistoryEntry, 'relatedTaskId'> {
  const related = relatedTaskOf(record.notes);
  return related === undefined ? {} : { relatedTaskId: related };
}

/** A received task's request as it ran, when the person changed it (the runner's note says so). */
function ranOf(record: TaskRecord): Pick<HistoryEntry, 'ranRequest'> {
  const ranRequest = ranRequestOf(record.notes);
  return ranRequest === undefined ? {} : { ranRequest };
}

/** The list's order: newest first, ties by id. Negative when `a` comes before `b`. */
function newestFirst(a: { createdAt: string; id: string }, b: { createdAt: string; id: string }): number {
  // ISO times and ids compare as plain strings (no locale collation: cheap, and the same order as `<`).
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id === b.id ? 0 : a.id < b.id ? 1 : -1;
}

function encodeCursor(entry: { createdAt: string; id: string }): string {
  return Buffer.from(JSON.stringify({ createdAt: entry.createdAt, id: entry.id })).toString('base64url');
}

/** A cursor's position; a cursor that is not one of ours is an error for the caller. */
function decodeCursor(cursor: string): { createdAt: string; id: string } {
  try {
    const { createdAt, id } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (typeof createdAt === 'string' && typeof id === 'string') return { createdAt, id };
  } catch {
    // Reported below.
  }
  throw new InvalidHistoryCursorError();
}

/** A `history.list` cursor that this history did not give out. */
export class InvalidHistoryCursorError extends Error {
  constructor() {
    super('Invalid history cursor');
  }
}
