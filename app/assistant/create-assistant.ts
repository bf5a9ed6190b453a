import type { JournalSync } from '../store/journal.js';
import type { AuditSink } from '../audit/audit-log.js';
import type { HostEvent, HostEventPayload } from '../contract/host-api.js';
import type { Clock } from '../core/clock.js';
import { toErrorData } from '../core/errors.js';
import type { EventHub } from '../core/event-hub.js';
import type { JsonFileStoreFactory } from '../store/json-file-store.js';
import { Assistant, type AssistantOptions } from './assistant.js';
import { ConversationStore } from './conversation-store.js';
import type { StoreNotice } from '../store/segment-log.js';
import { AssistantToolPolicies } from './tool-policies.js';

/**
 * Builds the host's assistant over `dataDir` (conversations in `assistant/`, policies beside the
 * other settings), with its events on the host's hub; a stored file that could not be read is
 * moved aside and reported through `warn`.
 */
export function createAssistant(options: {
  dataDir: string;
  corruptDir: string;
  factory: JsonFileStoreFactory;
  requestor: AssistantOptions['requestor'];
  providers: AssistantOptions['providers'];
  sourceServer: AssistantOptions['sourceServer'];
  serverName?: AssistantOptions['serverName'];
  audit: AuditSink;
  clock: Clock;
  fetch?: typeof fetch;
  events: EventHub<{ [E in HostEvent]: HostEventPayload<E> }>;
  warn: (message: string, movedTo?: string) => void;
  /** Commit conversations through the journal (default true). */
  journal?: boolean;
  /** Replaces `fs.fdatasync` for the conversations' journal (tests). */
  journalSync?: JournalSync;
  /** Told when conversation writes start failing and when they work again. */
  report?: (notice: StoreNotice) => void;
  modelFiles?: AssistantOptions['modelFiles'];
}): Assistant {
  const { dataDir, corruptDir, factory, events, warn } = options;
  const policies = new AssistantToolPolicies({ dir: dataDir, corruptDir, factory });
  if (policies.warning) warn(policies.warning.message, policies.warning.movedTo);
  const assistant = new Assistant({
    store: new ConversationStore({
      dataDir,
      corruptDir,
      factory,
      ...(options.journal === false && { journal: false }),
      ...(options.journalSync && { journalSync: options.journalSync }),
      ...(options.report && { report: options.report })
    }),
    policies,
    requestor: options.requestor,
    providers: options.providers,
    sourceServer: options.sourceServer,
    ...(options.serverName && { serverName: options.serverName }),
    audit: options.audit,
    clock: options.clock,
    ...(options.fetch && { fetch: options.fetch }),
    ...(options.modelFiles && { modelFiles: options.modelFiles }),
    events: {
      partial: (update) => events.emit('assistant.partial', update),
      // A copy only for a listener (the Desk): with nobody listening a change costs nothing here.
      changed: (conversationId, conversation) => {
        if (events.listening('assistant.changed'))
          events.emit('assistant.changed', {
            conversationId,
            ...(conversation && { conversation: structuredClone(conversation) })
          });
      },
      approval: (conversationId, toolCall) => events.emit('assistant.approval', { conversationId, toolCall })
    },
    onStoreError: (conversationId, error) =>
      warn(
        `The conversation ${conversationId} could not be saved; Taskdesk keeps it and saves it with the next change: ${toErrorData(error).message}`
      )
  });
  for (const { id, reason, movedTo } of assistant.quarantined)
    warn(`A stored conversation (${id}) could not be read and was moved aside: ${reason}`, movedTo);
  return assistant;
}
