import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ConversationDocumentSchema, ConversationSchema, type Conversation } from '../contract/assistant.js';
import { DocumentDir } from '../store/document-dir.js';
import type { JournalSync } from '../store/journal.js';
import type { JsonFileStoreFactory } from '../store/json-file-store.js';
import { notMovedText, quarantineCopy } from '../store/quarantine.js';
import { SegmentLog, type StoreNotice } from '../store/segment-log.js';

/** A stored conversation that could not be read and was moved aside. */
export interface QuarantinedConversation {
  id: string;
  reason: string;
  movedTo: string;
}

/** Options of {@link ConversationStore}. */
export interface ConversationStoreOptions {
  /** `<dataDir>/conversations` holds the log; `<dataDir>/assistant` the documents of earlier builds. */
  dataDir: string;
  corruptDir: string;
  factory: JsonFileStoreFactory;
  /** Commit through the journal (default true), as the task store does. */
  journal?: boolean;
  /** Replaces `fs.fdatasync` for the journal's syncs (tests fail them with it). */
  journalSync?: JournalSync;
  /** Told when writes start failing and when they work again. */
  report?: (notice: StoreNotice) => void;
}

/**
 * The assistant's conversations on disk: the task store's segment log (a journal with group
 * commit in front of segment documents written through the store factory), keyed by
 * conversation id, each value the whole conversation.
 *
 * A save resolves once its journal line is fdatasync'd, in the thread pool, sharing one sync
 * with every save of the same moment: fifty conversations changing at once cost one sync, and
 * the event loop never waits for the disk. Conversations kept by earlier builds (one document
 * each in `<dataDir>/assistant/`) are moved into the log at load. A segment or a record that
 * does not parse or match is moved to the corrupt directory, never deleted.
 */
export class ConversationStore {
  readonly #log: SegmentLog<Conversation>;
  readonly #options: ConversationStoreOptions;

  constructor(options: ConversationStoreOptions) {
    this.#options = options;
    this.#log = new SegmentLog<Conversation>({
      dir: path.join(options.dataDir, 'conversations'),
      corruptDir: options.corruptDir,
      factory: options.factory,
      journal: options.journal !== false,
      ...(options.journalSync && { journalSync: options.journalSync }),
      ...(options.report && { report: options.report })
    });
  }

  /** Every stored conversation, and those that had to be moved aside. */
  loadAll(): { conversations: Conversation[]; quarantined: QuarantinedConversation[] } {
    const report = this.#log.load((value) => ConversationSchema.parse(value));
    const quarantined: QuarantinedConversation[] = report.quarantined.map((bad) => ({ ...bad }));
    for (const { id, reason, value } of report.rejected) {
      const kept = quarantineCopy(
        this.#options.corruptDir,
        `conversation-${id}`,
        '.json',
        JSON.stringify(value, null, 2)
      );
      quarantined.push({ id, reason: `${reason}${notMovedText(kept)}`, movedTo: kept.movedTo });
      if (kept.notMoved === undefined && !report.records.has(id)) void this.#log.delete(id).catch(() => undefined);
    }
    const conversations = new Map(report.records);
    for (const legacy of this.#migrate(quarantined, new Set(report.records.keys())))
      conversations.set(legacy.id, legacy);
    return { conversations: [...conversations.values()], quarantined };
  }

  /**
   * Saves a conversation whole; resolves once it is durable. `urgent` when someone waits for it
   * (committed at the end of this turn), otherwise it may wait a few milliseconds to share a sync.
   */
  save(conversation: Conversation, urgent: boolean): Promise<void> {
    return this.#log.put(conversation.id, conversation, urgent);
  }

  /** Removes a conversation; resolves once the removal is durable. */
  remove(id: string): Promise<void> {
    return this.#log.delete(id);
  }

  /** Writes what is pending and releases the journal. */
  close(): void {
    this.#log.close();
  }

  /**
   * Moves the one-document-per-conversation files of earlier builds into the log; each old file
   * is removed once its conversation is durable in the log.
   */
  #migrate(quarantined: QuarantinedConversation[], inLog: ReadonlySet<string>): Conversation[] {
    const dir = path.join(this.#options.dataDir, 'assistant');
    if (!fs.existsSync(dir)) return [];
    const documents = new DocumentDir({ dir, corruptDir: this.#options.corruptDir, factory: this.#options.factory });
    const moved: Conversation[] = [];
    // A file left over once its conversation is in the log (a crash before it was removed, or a
    // removal refused): the log's copy is the newer one, and the file only has to go.
    const removeQuietly = (id: string) => {
      try {
        documents.remove(id);
      } catch {
        // Still there: removed at the next start, and never read over the log's copy.
      }
    };
    for (const id of documents.ids()) {
      if (inLog.has(id)) {
        removeQuietly(id);
        continue;
      }
      const loaded = documents.read(id);
      if (!loaded.ok) {
        quarantined.push({ id, reason: loaded.reason, movedTo: loaded.movedTo });
        continue;
      }
      const parsed = ConversationDocumentSchema.safeParse(loaded.value);
      if (!parsed.success || parsed.data.conversation.id !== id) {
        const reason = parsed.success
          ? `it names conversation ${parsed.data.conversation.id}`
          : z.prettifyError(parsed.error);
        const kept = documents.quarantine(id, reason);
        quarantined.push({ id, reason: kept.reason, movedTo: kept.movedTo });
        continue;
      }
      const conversation = parsed.data.conversation;
      // The old file goes only once the log holds the conversation durably; should that fail,
      // the file stays and is moved in again at the next start.
      this.#log.put(id, conversation, true).then(
        () => removeQuietly(id),
        () => undefined
      );
      moved.push(conversation);
    }
    return moved;
  }
}
