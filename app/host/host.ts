import { randomUUID } from 'node:crypto';
import type { JournalSync } from '../store/journal.js';
import path from 'node:path';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { AuditLog } from '../audit/audit-log.js';
import { connectionStateDetail } from '../audit/connection-entry.js';
import { questionPreview } from '../audit/question-preview.js';
import {
  HostMethods,
  type HostEvent,
  type HostEventPayload,
  type HostMethod,
  type HostParams,
  type HostReply,
  type HostResult,
  type InboxItem,
  type ServerView,
  type ConnectionState
} from '../contract/host-api.js';
import { endedWithProcessMessage } from '../contract/process-gone.js';
import { isHostMethod, unknownHostMethod } from '../contract/known-method.js';
import type { OutboundTaskView } from '../contract/outbound-tasks.js';
import { taskEndNotice } from '../contract/task-end-words.js';
import { assertNever } from '../core/assert-never.js';
import { systemClock, type Clock } from '../core/clock.js';
import { ChangeCoalescer } from '../core/coalesce.js';
import { HostError, JsonRpcCode, toErrorData } from '../core/errors.js';
import { EventHub } from '../core/event-hub.js';
import { Inbox } from '../inbox/inbox.js';
import { InboxDrafts } from '../inbox/inbox-drafts.js';
import { InboxPrompter } from '../inbox/inbox-runners.js';
import { ServerWaitsStore } from '../inbox/server-waits.js';
import { serverMayGiveUp } from '../contract/server-gives-up.js';
import {
  commandLine,
  connectionKey,
  redactServerText,
  redactUrl,
  type ServerConfig,
  type ServerConfigInput
} from '../mcp/server-config.js';
import { closedReason, ServerConnection, type ClosedBy } from '../mcp/server-connection.js';
import { answerEmbedded } from '../mcp/input-answers.js';
import { ownerIdentity } from '../mcp/server-config.js';
import type { StdioLimits } from '../mcp/sdk-seams.js';
import { defaultReceiverPolicy, type ReceiverPolicy } from '../receiver/receiver-policy.js';
import type { SamplingRunner, UserPrompter } from '../receiver/runners.js';
import { isTerminal } from '../receiver/received-task-state.js';
import { STOPPED_BEFORE_ANSWER, TaskReceiver, type EndedOrdinaryRequest } from '../receiver/task-receiver.js';
import type { TaskOwner, TaskRecord, TaskView } from '../receiver/task-record.js';
import { TaskRepository } from '../receiver/task-repository.js';
import { loadOrCreateSecret } from '../store/secret-file.js';
import { SegmentLog, type StoreNotice } from '../store/segment-log.js';
import { inboundSummary } from './task-summary.js';
import { lateQuestionReason, withdrawQuestionsOfEndedTask } from './ended-task-questions.js';
import { PartialTextThrottle } from './partial-throttle.js';
import { PendingStatusNotifications } from './pending-status.js';
import { ToolTaskEndAudit } from './tool-task-audit.js';
import { DocumentDir } from '../store/document-dir.js';
import { documentWritesLanded } from '../store/document-writer.js';
import { OutboundTasks } from '../requestor/outbound-tasks.js';
import { HTTP_LISTEN_RENEWAL_MS } from '../requestor/attachments.js';
import type { ModernPeer } from '../requestor/modern-task-follower.js';
import { FileKeyStore } from '../store/file-key-store.js';
import type { KeyStore } from '../sampling/key-store.js';
import type { LocalServerPort } from '../sampling/local-detection.js';
import { SamplingSetup } from './sampling-setup.js';
import type { UnaskedRunFailure } from '../sampling/policy-sampling-runner.js';
import { unaskedRunNotice, type WarningLink } from './unasked-run-notice.js';
import { LostToRestartNotices } from './lost-to-restart-notice.js';
import { confStoreFactory, type JsonFileStoreFactory } from '../store/json-file-store.js';
import { ServerRegistry } from './server-registry.js';
import { ServerEras } from './server-eras.js';
import { DisconnectedServers } from './disconnected-servers.js';
import { TaskHistory } from '../history/task-history.js';
import { hostMethods, recordServerAdded, type HostMethodTable, type HostParsedParams } from './host-methods.js';
import { createAssistant } from '../assistant/create-assistant.js';
import type { ModelFiles } from '../assistant/tools-fit.js';
import type { Assistant } from '../assistant/assistant.js';
import { sourceServerOf } from '../assistant/source-server.js';
import os from 'node:os';
import { ServerSettingsStore } from './server-settings.js';
import {
  loginShellEnv,
  resolveLoginEnvironmentOnce,
  type LoginEnvironment,
  type LoginEnvResolver
} from '../mcp/login-env.js';
import { mergePaths } from '../mcp/command-resolution.js';
import type { ImportPlaces } from '../servers-import/known-places.js';
import { OAuthSessions } from '../auth/oauth-sessions.js';
import { oauthFetch } from '../auth/oauth-fetch.js';
import { ServerSignIn } from './server-sign-in.js';
import { signInWait } from './sign-in-resend.js';
import { RunningMarker } from './running-marker.js';
import { notFinishedAudit, notFinishedEntryId, type NotFinishedWork } from '../history/not-finished-entry.js';
import { notFinishedWords, OpenWorkNote } from './open-work-note.js';
import { OpenWorkRecord, recordedElicitation, recordedSampling } from './open-work-record.js';
import { ServerSecretValues } from './server-secret-values.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  proxiedFetch,
  proxyDispatcher,
  proxyFromEnvironment,
  ProxySettingError,
  type ProxySettings
} from '../core/network-proxy.js';
import { providerFetchThrough } from '../sampling/provider-fetch.js';
import { localModels } from '../sampling/local-model.js';

/** Everything the host is built from. Only `dataDir` is required. */
export interface HostConfig {
  /** Absolute directory for tasks, settings and the audit log (the app's userData). */
  dataDir: string;
  /** Servers to know besides the saved ones; a saved server with the same id is replaced. */
  servers?: ServerConfigInput[];
  clock?: Clock;
  /** electron-store in the app, its engine `conf` under Node. */
  storeFactory?: JsonFileStoreFactory;
  policy?: Partial<ReceiverPolicy>;
  /** Where provider API keys live: safeStorage in the app; by default a 0600 file in `dataDir`. */
  keyStore?: KeyStore;
  /** The fetch LLM calls and local detection use (tests); by default through {@link proxy}'s. */
  llmFetch?: typeof fetch;
  /**
   * The proxy LLM providers and MCP servers over HTTP (and their sign-in) are reached through:
   * by default the one `https_proxy`, `http_proxy` and `no_proxy` name (see `network-proxy.ts`),
   * null for none whatever they say.
   */
  proxy?: ProxySettings | null;
  /** Ports local detection probes (tests use a random one). */
  localLlmPorts?: readonly LocalServerPort[];
  /**
   * How long local detection waits for each port (default 800 ms: a server on loopback answers
   * at once; tests on a loaded machine allow more).
   */
  localLlmProbeTimeoutMs?: number;
  /**
   * Replaces the sampling runner (tests and benchmarks). The default runs each server's
   * policy: a configured LLM behind inbox approval, or a person's reply when none is configured.
   */
  sampling?: (parts: { inbox: Inbox; clock: Clock }) => SamplingRunner;
  /** Builds the user prompter; the default asks through the inbox. */
  elicitation?: (parts: { inbox: Inbox; clock: Clock }) => UserPrompter;
  /** Builds transports; tests use in-memory pairs. */
  transportFactory?: (config: ServerConfig) => Transport;
  /** How long connecting a server (era probe and initialize) may take; default 20 s. */
  connectTimeoutMs?: number;
  /** How often a 2026-07-28 server's `subscriptions/listen` stream over HTTP is opened anew (default `HTTP_LISTEN_RENEWAL_MS`; tests). */
  httpListenRenewalMs?: number;
  /** Longest wait for a server's answer to `server/discover`, over stdio and HTTP (default min(5 s, half the connect timeout)). */
  probeTimeoutMs?: number;
  /** Limits of each stdio connection (outgoing queue, message size and depth); README defaults otherwise. */
  stdioLimits?: Partial<StdioLimits>;
  /**
   * Acknowledge tasks once they are in the store's journal (default true), or only once they are
   * in an electron-store document (slower: a new fsync'd file per commit).
   */
  storeJournal?: boolean;
  /** Replaces `fs.fdatasync` for the conversations' journal: tests fail its syncs with it. */
  conversationJournalSync?: JournalSync;
  /** Replaces `fs.fdatasync` for the outbound tasks' journal: tests hold its syncs with it. */
  outboundJournalSync?: JournalSync;
  /** Replaces `fs.fdatasync` for History's journal: tests hold its syncs with it. */
  historyJournalSync?: JournalSync;
  /** The `task.ttl` Taskdesk asks for when it calls a tool as a task (default one hour). */
  requestorDefaultTtlMs?: number;
  /** Connect servers marked `autoConnect` on start (default true). */
  autoConnect?: boolean;
  /**
   * Reads the login shell's environment, whose PATH stdio servers are found on and started with
   * (read once, at the first stdio connect). Default: `shell-env` with the user's shell.
   */
  loginEnv?: LoginEnvResolver;
  /** Where other hosts' configs are looked for (tests give a temp home). Default: this user's. */
  importPlaces?: ImportPlaces;
  /** An HTTPS URL of Taskdesk's OAuth client ID metadata document, offered where servers support them. */
  oauthClientMetadataUrl?: string;
  /** Told each time the record of open plain work is written, with how much is open (tests kill a host once it is). */
  openWorkWritten?: (open: number) => void;
  /**
   * Loads model files for the Assistant to count what the tools take of their context (New chat
   * on one): tests hold or fail that load. Default: the process's model files, which its calls use.
   */
  modelFiles?: ModelFiles;
}

/** The least time between two `audit.changed` events (see {@link ChangeCoalescer}). */
const AUDIT_CHANGED_MS = 500;
/**
 * The least time between two `tools.changed` (or two `sources.changed`) events of one server: each
 * has a screen that shows the list read it again, and a server that floods
 * `notifications/tools/list_changed` must not turn each into a `tools/list` of its own.
 */
const LIST_CHANGED_MS = 500;
/** How long a close waits for the sampling runs it aborted to end (they end at once when they heed it). */
const SAMPLING_END_MS = 2_000;

type Events = { [E in HostEvent]: HostEventPayload<E> };

/**
 * The Taskdesk core: stores, receiver, inbox, audit log and server connections, behind the
 * host API. The one composition root: Electron main and browser mode both call {@link createHost}.
 */
export class Host {
  readonly clock: Clock;
  readonly audit: AuditLog;
  readonly inbox: Inbox;
  readonly receiver: TaskReceiver;
  readonly events: EventHub<Events>;
  /** Tool calls Taskdesk makes as tasks (the requestor side). */
  readonly requestor: OutboundTasks;
  /** LLM providers, per-server sampling policies and the sampling engine. */
  readonly sampling: SamplingSetup;
  /** The user's record of every received and requested task, kept after their TTL. */
  readonly history: TaskHistory;
  /** Conversations with a configured LLM that may call the servers' tools. */
  readonly assistant: Assistant;
  readonly #registry: ServerRegistry;
  /** Servers with their secrets: the registry for fields, the key store for secret values. */
  readonly #servers: ServerSettingsStore;
  readonly #loginEnv: () => Promise<LoginEnvironment>;
  /** The era each server was last found in: a server remembered as legacy is not probed. */
  readonly #eras: ServerEras;
  /** The servers the person disconnected and has not connected since: not connected at start. */
  readonly #disconnected: DisconnectedServers;
  /** How long each server waits for the answer to an ordinary request, as far as Taskdesk has seen. */
  readonly #waits: ServerWaitsStore;
  readonly #connections = new Map<string, ServerConnection>();
  /** The secrets' values of the servers connected in this run: History and the task store mask them. */
  readonly #secretValues = new ServerSecretValues();
  /** When each server's current connection became ready (host clock): what it asked since is of that connection. */
  readonly #readySince = new Map<string, number>();
  readonly #pendingStatus = new PendingStatusNotifications();
  readonly #config: HostConfig;
  readonly #warnings: Array<{ message: string; movedTo?: string; id: string; links?: WarningLink[] }> = [];
  /** Each server's notice of its last failed run made without asking (see `#unaskedRunFailed`). */
  readonly #unaskedRunNotices = new Map<string, { message: string; id: string; links: WarningLink[] }>();
  /** The notice of each server that lost tasks to its restart in this run (see `LostToRestartNotices`). */
  readonly #lostToRestart = new LostToRestartNotices();
  readonly #methods: HostMethodTable;
  /** The OAuth client of each Streamable HTTP server that signs in; tokens live in the key store. */
  readonly #oauth: OAuthSessions;
  /** The fetch of MCP servers over HTTP and their sign-in, through a proxy (undefined: Node's own, direct). */
  readonly #httpFetch: FetchLike | undefined;
  /** Warnings of the task store failing to write, cleared once it writes again. */
  readonly #storeProblems: Array<{ message: string; movedTo?: string; id: string }> = [];
  /** Tells windows that the audit log has new entries (`audit.changed`), at most twice a second. */
  readonly #auditChanged: ChangeCoalescer;
  /** Each server's `tools.changed` and `sources.changed`, coalesced (see {@link LIST_CHANGED_MS}), by event and server. */
  readonly #listChanged = new Map<string, ChangeCoalescer>();
  /** Says while Taskdesk runs that it runs: found at the next start, it tells of an unclean stop. */
  #marker: RunningMarker | undefined;
  /** What the closing breaks off of plain work: written at close, said once by the next start. */
  readonly #openWork = new OpenWorkNote();
  /** What the close broke off, in words: see `closedWords`. */
  #closedWords: string | undefined;
  /** Plain work while it is open, on disk: what the start after an unclean stop lists in History. */
  #openWorkRecord: OpenWorkRecord | undefined;
  /** What was typed into the Inbox's task questions, back in their cards after a restart. */
  readonly #drafts: InboxDrafts;
  /**
   * Task questions handed over (`Inbox.handOver`) whose draft is kept for the approval card that
   * takes their place under the same id: dropped if another card comes instead, or the task ends
   * without one ("Run without asking": the model answered).
   */
  readonly #handedOver = new Set<string>();
  /** Set by `close()`: what it breaks off is said to be broken off by Taskdesk's closing. */
  #closing = false;
  /**
   * Servers whose connection an act of the person's closed (Disconnect or a sign-out, Remove, a
   * Save of settings that restarts it), with that act, until their next connection is ready: the
   * requests the close broke off are said to be ended by the person, and how, not cancelled by
   * the server (see {@link yourActWords}). A removed server's act stays until a server added
   * again under its id is connected (one entry a removed id: nothing else of it ends later).
   */
  readonly #closedByYou = new Map<string, YourAct>();
  /**
   * Servers the person disconnected while the sign-in page they opened waited for the browser:
   * that sign-in, completed, is kept but does not connect them again. Forgotten when they connect
   * the server (the sign-in then connects it as before), or the sign-in ends otherwise (failed, cancelled).
   */
  readonly #disconnectedInSignIn = new Set<string>();
  /** Each server's connect on its way, until it is ready or has failed (see {@link connect}). */
  readonly #connectsInFlight = new Map<string, { connecting: Promise<ServerView>; closes: number }>();
  /**
   * How many times each server's connection was closed (or a close asked for with none made
   * yet): a connect that waited across one (for its secrets, its sign-in) makes no connection.
   */
  readonly #closes = new Map<string, number>();
  /**
   * Received tasks being ended because their stdio server's process went (see
   * {@link #endTasksOfProcess}), by task id, while their questions leave the Inbox: why, and
   * whether the person's act is why.
   */
  readonly #processGone = new Map<string, { reason: string; byYou: boolean }>();
  /** Told of each act of the person's that closes a server's connection, before the close (calls waiting for its sign-in end). */
  readonly #yourActListeners = new Set<(serverId: string, words: (serverName: string) => string) => void>();
  /** The model requests' streamed text, throttled for the UI (see `PartialTextThrottle`). */
  readonly #partials: PartialTextThrottle<HostEventPayload<'sampling.partial'>>;

  constructor(config: HostConfig) {
    if (!path.isAbsolute(config.dataDir)) throw new Error(`dataDir must be absolute, got ${config.dataDir}`);
    this.#config = config;
    this.#loginEnv = resolveLoginEnvironmentOnce(config.loginEnv ?? loginShellEnv());
    this.clock = config.clock ?? systemClock;
    // Through a proxy when one is set: the providers' requests, and HTTP servers' with their sign-in.
    const proxy = config.proxy === undefined ? proxyFromEnvironment() : (config.proxy ?? undefined);
    // One Taskdesk cannot use (a scheme it does not take) leaves it direct, and says so below.
    let proxied: ReturnType<typeof proxyDispatcher> | undefined;
    let proxyProblem: string | undefined;
    try {
      proxied = proxy && proxyDispatcher(proxy);
    } catch (error) {
      if (!(error instanceof ProxySettingError)) throw error;
      proxyProblem = `${error.message}: Taskdesk connects to LLM providers and servers over HTTP directly. Correct the variable and start Taskdesk again.`;
    }
    this.#httpFetch = proxied && proxiedFetch(proxied);
    const llmFetch = config.llmFetch ?? (proxied && providerFetchThrough(proxied));
    const factory = config.storeFactory ?? confStoreFactory;
    const corruptDir = path.join(config.dataDir, 'corrupt');
    this.events = new EventHub<Events>();
    this.#auditChanged = new ChangeCoalescer(this.clock, AUDIT_CHANGED_MS, () => this.events.emit('audit.changed', {}));
    this.audit = new AuditLog({
      dir: path.join(config.dataDir, 'audit'),
      clock: this.clock,
      onWritten: () => this.#auditChanged.changed()
    });
    this.#drafts = new InboxDrafts({ dataDir: config.dataDir, corruptDir });
    this.inbox = new Inbox(this.clock, {
      // Asked for a task of ours that has ended or was forgotten (the server had not heard yet):
      // answered at once, never shown; the audit log alone tells of it.
      arriving: (item) => {
        const reason =
          item.relatedTaskId === undefined
            ? undefined
            : lateQuestionReason(this.requestor, item.serverId, item.relatedTaskId);
        if (reason !== undefined)
          this.audit.record({
            ...inboxAuditSubject(item),
            type: 'inbox.withdrawn',
            detail: {
              kind: item.kind,
              ...questionOf(item, this.#secretValues.values()),
              relatedTaskId: item.relatedTaskId,
              reason,
              atArrival: true
            }
          });
        return reason;
      },
      added: (item) => {
        // In the place of a question handed over: the reply written in its card is the approval
        // card's reply (`restoredApproval` reads it), and fits no other card.
        if (this.#handedOver.delete(item.id) && item.kind !== 'sampling-approval') this.#drafts.drop(item.id);
        this.events.emit('inbox.added', { item: this.#withDraft(item) });
        // A server's question (of a task it handed Taskdesk or not) may be what its plain calls
        // wait for: they say so now.
        this.requestor.plainCalls.personWaitingChanged(item.serverId);
      },
      removed: (id, why, item, { reason: given, byYou: withdrawnByYou, handedOver, timedOut } = {}) => {
        // A question outside a task its connection's closing withdraws as Taskdesk closes: said
        // as its History entry says it.
        const closing =
          this.#closing && why === 'withdrawn' && item.taskId === undefined ? STOPPED_BEFORE_ANSWER : undefined;
        // A task's question whose server's process went with the connection that asked it.
        const processGone =
          given === undefined && closing === undefined && why === 'withdrawn' && item.taskId !== undefined
            ? this.#processGone.get(item.taskId)
            : undefined;
        // A question of a call or task of Taskdesk's that the person cancelled, or a server's task
        // they cancelled themselves (the Tasks screen's Cancel): their own doing, not the server's.
        const cancelled =
          given === undefined && closing === undefined && processGone === undefined && why === 'withdrawn'
            ? this.#cancelledByYou(item)
            : undefined;
        // A question outside a task that the person's Disconnect, Remove or restarting Save took
        // away with its connection.
        const act =
          given === undefined &&
          closing === undefined &&
          cancelled === undefined &&
          why === 'withdrawn' &&
          item.taskId === undefined
            ? this.#closedByYou.get(item.serverId)
            : undefined;
        const closedByYou = act === undefined ? undefined : `${yourActWords(act, item.serverName)}.`;
        const reason = given ?? closing ?? processGone?.reason ?? cancelled ?? closedByYou;
        const byYou =
          withdrawnByYou === true ||
          processGone?.byYou === true ||
          cancelled !== undefined ||
          closedByYou !== undefined;
        // Withdrawn by its server after the person stopped a call it may have been asked for.
        const afterStoppedCall =
          why === 'withdrawn' && reason === undefined && item.taskId === undefined && item.relatedTaskId === undefined
            ? this.requestor.plainCalls.stoppedDuring(item.serverId, item.createdAt)
            : undefined;
        // Not as Taskdesk closes: the task's question is back after the restart, with its draft.
        // Nor handed over: the card that takes its place comes with it.
        if (handedOver && item.taskId !== undefined) this.#handedOver.add(id);
        else if (!this.#closing) this.#drafts.drop(id);
        this.events.emit('inbox.removed', {
          id,
          why,
          ...(reason !== undefined && { reason }),
          ...(byYou && { byYou }),
          ...(afterStoppedCall !== undefined && { afterStoppedCall }),
          ...(handedOver && { handedOver }),
          ...(timedOut && reason === undefined && { timedOut })
        });
        this.requestor.plainCalls.personWaitingChanged(item.serverId);
        // A task's end is audited by the receiver (cancelled, expired, by whom); an ordinary request's
        // is not, nor why Taskdesk withdrew a question (a received task then only says how it was answered).
        if (why === 'withdrawn' && (item.taskId === undefined || (reason !== undefined && cancelled === undefined)))
          this.audit.record({
            ...inboxAuditSubject(item),
            type: 'inbox.withdrawn',
            detail: {
              kind: item.kind,
              ...questionOf(item, this.#secretValues.values()),
              ...(item.relatedTaskId !== undefined && { relatedTaskId: item.relatedTaskId }),
              ...(reason !== undefined && { reason })
            }
          });
      },
      answered: (item, action) => {
        // A model request or answer put to the person by the policy runner: its `sampling.request`
        // or `sampling.completion` entry records their decision, with the question and model.
        if (item.kind === 'sampling-approval' || item.kind === 'sampling-review') return;
        this.audit.record({
          ...inboxAuditSubject(item),
          type: 'inbox.answered',
          detail: {
            kind: item.kind,
            ...questionOf(item, this.#secretValues.values()),
            action,
            ...(item.relatedTaskId !== undefined && { relatedTaskId: item.relatedTaskId }),
            ...(item.origin !== undefined && { origin: item.origin })
          }
        });
      },
      expiring: (item) => this.events.emit('inbox.expiring', { item }),
      held: (id, held) => this.events.emit('inbox.held', { id, held })
    });
    this.#registry = new ServerRegistry({
      dir: config.dataDir,
      corruptDir,
      factory,
      extra: config.servers ?? [],
      now: () => this.clock.now()
    });
    for (const warning of this.#registry.warnings) this.#warn(warning.message, warning.movedTo);
    if (this.#drafts.warning) this.#warn(this.#drafts.warning.message, this.#drafts.warning.movedTo);
    this.#eras = new ServerEras({ dir: config.dataDir, corruptDir, factory });
    for (const warning of this.#eras.warnings) this.#warn(warning.message, warning.movedTo);
    this.#disconnected = new DisconnectedServers({ dir: config.dataDir, corruptDir, factory });
    for (const warning of this.#disconnected.warnings) this.#warn(warning.message, warning.movedTo);
    this.#disconnected.keepOnly(new Set(this.#registry.list().map((server) => server.id)));
    this.#waits = new ServerWaitsStore({ dir: config.dataDir, corruptDir, factory });
    for (const warning of this.#waits.warnings) this.#warn(warning.message, warning.movedTo);
    this.#waits.keepOnly(new Set(this.#registry.list().map((server) => server.id)));
    this.history = new TaskHistory({
      dataDir: config.dataDir,
      corruptDir,
      factory,
      clock: this.clock,
      events: { changed: (summary) => this.events.emit('history.changed', { entry: summary }) },
      secretValues: () => this.#secretValues.values(),
      ...(config.historyJournalSync && { journalSync: config.historyJournalSync })
    });
    this.history.load();
    for (const warning of this.history.warnings) this.#warn(warning.message, warning.movedTo);
    const policy: ReceiverPolicy = { ...defaultReceiverPolicy, ...config.policy };
    const parts = { inbox: this.inbox, clock: this.clock };
    const outboundDir = new DocumentDir({ dir: path.join(config.dataDir, 'outbound'), corruptDir, factory });
    this.requestor = new OutboundTasks({
      dir: outboundDir,
      // One journal line per change, its fsync shared: a thousand tasks polled together are not a thousand file writes.
      log: new SegmentLog({
        dir: path.join(outboundDir.dir, 'log'),
        corruptDir,
        factory,
        journal: config.storeJournal !== false,
        ...(config.outboundJournalSync && { journalSync: config.outboundJournalSync })
      }),
      clock: this.clock,
      ...(config.requestorDefaultTtlMs !== undefined && { defaultTtlMs: config.requestorDefaultTtlMs }),
      waitingOnPerson: (serverId) => this.#waitingOnPerson(serverId),
      // A call its server refused for want of a sign-in is sent again once the person signed in.
      signInWait: signInWait({
        untilSignedIn: (serverId, signal, onNewPage) => this.#oauth.untilSignedIn(serverId, signal, onNewPage),
        onServerState: (listener) => this.events.on('server.state', ({ serverId, state }) => listener(serverId, state)),
        onClosedByYou: (listener) => {
          this.#yourActListeners.add(listener);
          return () => void this.#yourActListeners.delete(listener);
        },
        registered: (serverId) => this.#registry.get(serverId) !== undefined,
        clock: this.clock
      }),
      secretValues: () => this.#secretValues.values(),
      onPlainCall: (call, started) => {
        this.#openWorkRecord?.callChanged(call, started?.arguments);
        this.events.emit('call.changed', { call });
      },
      onToolsChanged: (serverId) => this.#listChangedOf('tools.changed', serverId).changed(),
      onSourcesChanged: (serverId) => this.#listChangedOf('sources.changed', serverId).changed(),
      onCallEnded: (ended) => {
        this.history.recordCall(ended);
        this.#openWork.callEnded(ended);
      },
      // Said once per server, not task by task: after a restart of Taskdesk, only the Tasks
      // screen would tell that a stdio server's running tasks went with its process. Not audited
      // again: each task's end is.
      onLostToRestart: (lost) => {
        const { warning, replaces } = this.#lostToRestart.add(lost);
        this.#replaceWarning(warning, replaces);
      },
      exchanges: {
        dir: new DocumentDir({ dir: path.join(config.dataDir, 'exchanges'), corruptDir, factory }),
        // Questions of a multi round-trip request need no connection: the server waits in its requestState.
        answer: (serverId, request, context) => {
          const server = this.#registry.get(serverId);
          if (!server) throw new HostError(JsonRpcCode.InvalidParams, `Unknown server ${serverId}`);
          // The live connection's owner (its secrets and sign-in included), so these questions
          // count against the same limits as the server's own requests; the stored config's only
          // when it is not connected (after a restart, before it connects).
          const owner = this.#connections.get(serverId)?.owner ?? {
            serverId,
            serverName: server.name,
            identity: ownerIdentity(server)
          };
          return answerEmbedded(this.receiver, owner, server.roots ?? [], request, context);
        },
        onChange: (exchangeId, exchange) => {
          this.events.emit('exchange.changed', { exchangeId, ...(exchange && { exchange }) });
          // Waiting for the person to finish in their browser, or no longer: its call's idle timeout follows.
          if (exchange) this.requestor.plainCalls.personWaitingChanged(exchange.serverId);
        }
      },
      audit: this.audit,
      onStoreError: (outboundId, error) =>
        this.#warn(
          `A tool-call task (${outboundId}) could not be saved; Taskdesk keeps it and tries again: ${toErrorData(error).message}`
        )
    });
    // A plain call the close of the person's act breaks off is stopped by them, in that act's
    // words, not failed with the close's "Connection closed".
    this.#yourActListeners.add((serverId, words) => this.requestor.plainCalls.closingByYourAct(serverId, words));
    const taskEnds = new ToolTaskEndAudit(this.audit, this.requestor.finishedWhenLoaded());
    const startedAt = this.clock.now();
    this.requestor.on((event) => {
      let ended = false;
      if (event.type === 'changed') {
        this.history.recordRequested(event.task);
        ended = taskEnds.changed(event.task);
        // The task has ended: what its server asked for it no longer waits in the Inbox.
        withdrawQuestionsOfEndedTask(this.inbox, event.task);
      } else if (event.type === 'removed') {
        this.history.recordForgotten(event.outboundId);
        taskEnds.removed(event.outboundId);
      }
      this.events.emit('outbound.changed', event);
      // Once per task, in this run, with the system notification a long call's end is worth.
      if (ended && event.type === 'changed') this.events.emit('outbound.ended', taskEnded(event.task, startedAt));
    });
    for (const { id, reason, movedTo } of this.requestor.quarantined) {
      this.#warn(`A stored tool-call task (${id}) could not be read and was moved aside: ${reason}`, movedTo);
    }
    for (const { id, reason, movedTo } of this.requestor.exchanges?.quarantined ?? []) {
      this.#warn(
        `A stored request waiting for input (${id}) could not be read and was moved aside: ${reason}`,
        movedTo
      );
    }
    // Side-channel requests of our own tool calls say which tool is asking.
    const origin = (serverId: string, relatedTaskId: string) => {
      const described = this.requestor.describe(serverId, relatedTaskId);
      if (described) return { words: `tool ${described.toolName}`, call: false };
      const exchange = this.requestor.exchanges?.describe(serverId, relatedTaskId);
      if (exchange === undefined) return undefined;
      const linksAskedAgain = this.requestor.exchanges?.linksAskedAgain(serverId, relatedTaskId) ?? [];
      return { words: exchange, call: true, linksAskedAgain };
    };
    // The UI needs a live view, not every token: at most ten updates a second per request.
    const partials = new PartialTextThrottle<HostEventPayload<'sampling.partial'>>(this.clock, (update) =>
      this.events.emit('sampling.partial', update)
    );
    this.#partials = partials;
    const keyStore = config.keyStore ?? new FileKeyStore(path.join(config.dataDir, 'secrets'), { corruptDir });
    if (keyStore instanceof FileKeyStore && keyStore.warning)
      this.#warn(keyStore.warning.message, keyStore.warning.movedTo);
    this.#servers = new ServerSettingsStore(this.#registry, keyStore);
    this.sampling = new SamplingSetup({
      secretValues: () => this.#secretValues.values(),
      dir: config.dataDir,
      corruptDir,
      factory,
      keyStore,
      inbox: this.inbox,
      clock: this.clock,
      audit: this.audit,
      origin,
      ...(llmFetch && { fetch: llmFetch }),
      ...(config.localLlmPorts && { localPorts: config.localLlmPorts }),
      ...(config.localLlmProbeTimeoutMs !== undefined && { localProbeTimeoutMs: config.localLlmProbeTimeoutMs }),
      onPartial: ({ delta: _delta, ...update }) => {
        partials.offer(update.streamId, update, update.done === true);
      },
      onApprovedRunFailed: (failure) =>
        this.events.emit('sampling.approvedRunFailed', { id: randomUUID(), ...failure }),
      onUnaskedRunFailed: (failure) => this.#unaskedRunFailed(failure),
      // Told after a call of a provider, outside any host call: a key store that cannot be read
      // now (a hand-edited key file) leaves the windows as they were; their next read says why.
      onProvidersChanged: () => void this.#tellProviders().catch(() => undefined),
      // A model request for a task of ours that ended or was forgotten does not run the model unasked.
      lateReason: (serverId, relatedTaskId) => lateQuestionReason(this.requestor, serverId, relatedTaskId)
    });
    for (const warning of this.sampling.warnings) this.#warn(warning.message, warning.movedTo);
    if (proxyProblem !== undefined) this.#warn(proxyProblem);
    this.#oauth = new OAuthSessions({
      keyStore,
      ...(this.#httpFetch && { fetch: this.#httpFetch }),
      now: () => this.clock.now(),
      ...(config.oauthClientMetadataUrl !== undefined && { clientMetadataUrl: config.oauthClientMetadataUrl }),
      onChange: (serverId, view) => {
        // The sign-in under way ended without signing in: a later one is the person's anew.
        if (view.status !== 'signed-in' && view.waiting !== true) this.#disconnectedInSignIn.delete(serverId);
        const server = this.#registry.get(serverId);
        if (server) this.events.emit('server.state', { serverId, state: this.#serverView(server).state });
      },
      // Bound to the new grant from here on: the connection is made again.
      onSignedIn: (serverId, grant, { browser, reconnect }) => {
        this.audit.record({
          type: 'server.signed-in',
          serverId,
          ...(this.#registry.get(serverId) && { serverName: this.#registry.get(serverId)!.name }),
          // The issuer, not the subject: a person's email address is not needed in a log that may be exported.
          detail: { issuer: grant.issuer, browser }
        });
        // Signed in without a browser (client credentials): on the way of the connection being
        // made, or of a request of the one up, or by Sign in, which connects the server itself;
        // made again only when the client changed under a connection made as another (`reconnect`).
        if (!browser && reconnect !== true) return;
        // Disconnected by the person after they opened the sign-in page: it stays so, signed in.
        if (this.#disconnectedInSignIn.delete(serverId)) return;
        void this.#reconnect(serverId);
      },
      onSignInFailed: (serverId, reason) => {
        const server = this.#registry.get(serverId);
        this.audit.record({
          type: 'server.sign-in-failed',
          serverId,
          ...(server && { serverName: server.name }),
          // As a failed connection's reason is: it may quote the URL.
          detail: { reason: server ? redactServerText(reason, server) : reason }
        });
      }
    });
    this.assistant = createAssistant({
      dataDir: config.dataDir,
      corruptDir,
      factory,
      requestor: this.requestor,
      providers: {
        get: (providerId) => this.sampling.registry.get(providerId),
        apiKey: (providerId) => this.sampling.registry.apiKey(providerId),
        called: (providerId) => this.sampling.providerCall(providerId, 'assistant')
      },
      // Its audit entries name the server as the Tools screen's do, connected or not.
      serverName: (serverId) => this.#registry.get(serverId)?.name,
      sourceServer: (serverId) => {
        const connection = this.#connections.get(serverId);
        return connection?.ready ? sourceServerOf(connection) : undefined;
      },
      audit: this.audit,
      clock: this.clock,
      ...(llmFetch && { fetch: llmFetch }),
      events: this.events,
      warn: (message, movedTo) => this.#warn(message, movedTo),
      journal: config.storeJournal !== false,
      ...(config.conversationJournalSync && { journalSync: config.conversationJournalSync }),
      ...(config.modelFiles && { modelFiles: config.modelFiles })
    });
    // Signs tasks/list cursors; kept so that a server can page on across a restart.
    const cursorKey = loadOrCreateSecret(path.join(config.dataDir, 'tasks', 'cursor-key'));
    if (cursorKey.warning)
      this.#warn(`${cursorKey.warning} tasks/list cursors given out before a restart will be refused after it.`);
    this.receiver = new TaskReceiver({
      repository: new TaskRepository(
        new SegmentLog<TaskRecord>({
          dir: path.join(config.dataDir, 'tasks'),
          corruptDir,
          factory,
          journal: config.storeJournal !== false,
          report: (notice) => this.#storeNotice(notice)
        }),
        corruptDir,
        policy
      ),
      clock: this.clock,
      policy,
      audit: this.audit,
      // The question its entries quote is masked as History's entries are.
      secretValues: () => this.#secretValues.values(),
      // Plain requests are recorded while they wait (see `#openWorkRecord`), by their runners.
      sampling: recordedSampling(config.sampling?.(parts) ?? this.sampling.runner, () => this.#openWorkRecord),
      elicitation: recordedElicitation(
        config.elicitation?.(parts) ?? new InboxPrompter(this.inbox, origin),
        () => this.#openWorkRecord
      ),
      cursorKey: cursorKey.secret,
      events: {
        taskChanged: (taskId, record, noted) => {
          // The one plain call it was asked while (`#callDuring`), looked up only for a new entry.
          if (!noted)
            this.history.recordReceived(taskId, record, () =>
              record ? this.#callDuring({ owner: record.owner, askedAt: record.task.createdAt }) : undefined
            );
          // Handed over, and ended with no card in its place: nothing can send its draft any more.
          if ((!record || isTerminal(record.task.status)) && this.#handedOver.delete(taskId)) this.#drafts.drop(taskId);
          // Built only for a listener (the Desk): a server flooding tasks pays nothing for it. A
          // summary, as in tasks.list: the UI asks tasks.get for the whole record.
          if (this.events.listening('task.changed'))
            this.events.emit('task.changed', { taskId, ...(record && { task: inboundSummary(record) }) });
        },
        ordinaryEnded: (request) => {
          const ended = this.#endedByYourAct(request);
          // Asked for a multi round-trip request (or a link) of Taskdesk's: History names that request.
          const askedFor =
            ended.relatedTaskId === undefined
              ? undefined
              : this.requestor.exchanges?.describe(ended.owner.serverId, ended.relatedTaskId);
          this.history.recordReceivedRequest(ended, askedFor, this.#callDuring(ended));
          this.#openWork.requestEnded(ended);
          this.#noteWait(ended, askedFor !== undefined);
        },
        statusChanged: (owner, task) => this.#deliverStatus(owner, task),
        progress: (owner, taskId, token, progress, total, message) =>
          void this.#connectionFor(owner)?.notifyProgress(taskId, token, progress, total, message)
      }
    });
    this.#methods = hostMethods({
      audit: this.audit,
      inbox: this.inbox,
      drafts: this.#drafts,
      withDraft: (item) => this.#withDraft(item),
      receiver: this.receiver,
      requestor: this.requestor,
      sampling: this.sampling,
      registry: this.#registry,
      servers: this.#servers,
      importPlaces: config.importPlaces ?? {
        home: os.homedir(),
        platform: process.platform,
        ...(process.env.APPDATA !== undefined && { appData: process.env.APPDATA }),
        ...(process.env.XDG_CONFIG_HOME !== undefined && { configHome: process.env.XDG_CONFIG_HOME })
      },
      stderr: (serverId) => {
        const connection = this.#connections.get(serverId);
        if (!connection) return { text: '', truncated: false };
        const { text, truncated } = connection.stderr;
        return { text: redactServerText(text, connection.config), truncated };
      },
      eras: this.#eras,
      disconnected: this.#disconnected,
      history: this.history,
      assistant: this.assistant,
      signIn: new ServerSignIn({
        sessions: this.#oauth,
        config: (serverId) => this.#registry.get(serverId),
        // A sign-out is the person's: what its disconnect ends is said to be ended by the sign-out.
        disconnect: (serverId) => this.#disconnect(serverId, 'person', 'signed-out'),
        connect: (serverId) => this.connect(serverId),
        serverView: (server) => this.#serverView(server),
        audit: this.audit
      }),
      forgetAuth: (serverId) => this.#oauth.forget(serverId),
      connect: (serverId) => this.connect(serverId),
      disconnect: (serverId) => this.disconnect(serverId, 'person'),
      rootsChanged: async (serverId) => {
        await this.#connections.get(serverId)?.notifyRootsChanged();
      },
      // Its callers: Remove, the person's (`by`), and a Save of settings that restarts the server
      // (Taskdesk's, as its closed state says, on the person's Save).
      dropConnection: async (serverId, by) => {
        await this.#closeConnection(serverId, by, by === 'person' ? 'removed' : 'restarted');
        this.#connections.delete(serverId);
      },
      keepConnection: async (serverId) => {
        const connection = this.#connections.get(serverId);
        const stored = this.#registry.get(serverId);
        if (!connection || !stored) return false;
        // A secret that cannot be read now is no setting the connection could keep.
        const config = await this.#servers.resolved(stored).catch(() => undefined);
        if (!config || connectionKey(config) !== connectionKey(connection.config)) return false;
        // Only a connection that is up or on its way is kept: a failed or closed one is tried
        // again on Save, as before a rename could keep connections (it may be fixed now).
        const { status } = connection.state;
        if (status !== 'ready' && status !== 'connecting') return false;
        connection.applySettings(config);
        // An entry newly marked secret (its value unchanged) keeps the connection: masked from now on.
        this.#secretValues.noteConnecting(config, this.#oauth.for(config));
        this.requestor.renameServer(serverId, config.name);
        return true;
      },
      serverView: (config) => this.#serverView(config)
    });
  }

  /** The item as the UI gets it: with the draft kept for it, if any. */
  #withDraft(item: InboxItem): InboxItem {
    const keptDraft = item.taskId === undefined ? undefined : this.#drafts.get(item.id);
    return keptDraft === undefined ? item : { ...item, keptDraft };
  }

  /**
   * The plain tool call of Taskdesk's a server's request that was no task, nor asked for one, was
   * asked while: the one call running on its server when it was asked, if only one was, whether it
   * runs still or ended since (nothing on the wire ties them: History says only "asked while … ran").
   * A task the server created with Taskdesk (a task-augmented question) is asked when it was created.
   */
  #callDuring(
    ended: Pick<EndedOrdinaryRequest, 'owner' | 'askedAt'> & { relatedTaskId?: string }
  ): { callId: string; tool: string } | undefined {
    if (ended.relatedTaskId !== undefined) return undefined;
    const ran = this.requestor.plainCalls.ranAt(ended.owner.serverId, ended.askedAt);
    return ran?.length === 1 ? { callId: ran[0]!.callId, tool: ran[0]!.toolName } : undefined;
  }

  /**
   * Why a question withdrawn without a reason given went, when the person cancelled what it waited
   * on: the server's task it is ({@link TaskReceiver.cancelById}, the Tasks screen's Cancel: the
   * receiver aborts its wait), or one of Taskdesk's own requests it was asked for, a multi
   * round-trip request (its call's Cancel, or `exchanges.cancel`) or a tool-call task they asked to
   * cancel (its follower withdraws what the server still asks). Undefined otherwise (its server
   * withdrew it, or its task expired).
   */
  #cancelledByYou(item: Readonly<InboxItem>): string | undefined {
    if (item.taskId !== undefined)
      return this.receiver.cancelledBy(item.taskId) === 'you' ? 'Its task was cancelled by you.' : undefined;
    if (item.relatedTaskId === undefined) return undefined;
    const exchange = this.requestor.exchanges?.cancelledByYou(item.serverId, item.relatedTaskId);
    if (exchange !== undefined) return exchange;
    const outboundId = this.requestor.describe(item.serverId, item.relatedTaskId)?.outboundId;
    const task = outboundId === undefined ? undefined : this.requestor.get(outboundId);
    // Asked to cancel and not ended otherwise (the server may go on asking a while after `tasks/cancel`).
    if (task?.cancelRequestedAt === undefined) return undefined;
    if (task.state !== 'working' && task.state !== 'input_required' && task.cancelledBy !== 'you') return undefined;
    return `The task this was asked for (tool ${task.toolName}) was cancelled by you.`;
  }

  /**
   * Whether Taskdesk waits on the person for something this server asked, which its plain calls
   * may be waiting for in turn (they do not time out meanwhile): a question outside a task in the
   * Inbox, or one of a task the server handed Taskdesk over its current connection that has not
   * ended (a task-augmented request: the server polls it, and its tool call waits on the answer),
   * or a multi round-trip request waiting for the person to finish what its link opened.
   */
  #waitingOnPerson(serverId: string): boolean {
    const identity = this.#connections.get(serverId)?.owner.identity;
    const since = this.#readySince.get(serverId);
    return (
      this.inbox.some(
        (item) =>
          item.serverId === serverId &&
          (item.taskId === undefined ||
            // Of this connection: not a task from before it (back in the Inbox after a restart),
            // which no call running now can be waiting for. The identity outlives connections.
            (identity !== undefined &&
              since !== undefined &&
              Date.parse(item.createdAt) >= since &&
              this.receiver.isOpenTaskOf(item.taskId, identity)))
      ) || this.#waitingInBrowser(serverId)
    );
  }

  /** A multi round-trip request of this server waits for the person to finish what its link opened. */
  #waitingInBrowser(serverId: string): boolean {
    return (this.requestor.exchanges?.waitingForYou(serverId) ?? 0) > 0;
  }

  /**
   * Loads stored tasks (resuming or failing interrupted work) and connects servers.
   *
   * Connections are started, not awaited: a server that never answers does not hold up the host.
   * `leftOpenWork` resolves once what earlier runs left open is on disk in History and their
   * records are removed (or kept for the next start, when History could not write it).
   */
  start(): { restored: ReturnType<TaskReceiver['restore']>; leftOpenWork: Promise<void> } {
    const { marker, unclean, problem } = RunningMarker.start(this.#config.dataDir);
    this.#marker = marker;
    // Plain work runs that stopped without closing left open: History lists it, as their closing would have.
    const left = OpenWorkRecord.takeLeft(
      this.#config.dataDir,
      RunningMarker.runningIds(this.#config.dataDir),
      unclean?.lastSeenAt
    );
    // Work History holds already was audited by the start that listed it, which stopped before it
    // removed the record: listed again (as the same entry), it is not audited twice.
    const unlisted = left.work.filter((work) => {
      const id = notFinishedEntryId(work);
      return id === undefined || this.history.get(id) === undefined;
    });
    const listed = left.work.map((work) => this.history.recordNotFinished(work));
    // The records go only once History holds their work on disk: a crash before then lists it
    // again at the next start (as the same entries), rather than losing it.
    const leftOpenWork = Promise.all(listed).then(
      () => OpenWorkRecord.removeTaken(left.files),
      () => undefined
    );
    if (unclean) this.#warn(uncleanStopMessage(unclean.lastSeenAt, left.work), undefined, 'host.unclean-stop');
    // One entry for each, as a clean close writes one for each call it ends and question it withdraws.
    for (const work of unlisted) this.audit.record(notFinishedAudit(work));
    for (const reason of left.problems)
      this.#warn(
        `The record of plain work open when Taskdesk last stopped could not be read (${reason}); History may miss tool calls and questions that were open then.`
      );
    // Without its marker, this run's record would be taken as left over by another Taskdesk starting.
    if (problem === undefined) {
      this.#openWorkRecord = new OpenWorkRecord(this.#config.dataDir, marker.id, this.#config.openWorkWritten);
      this.#openWorkRecord.maskWith(() => this.#secretValues.values());
    }
    const openWork = OpenWorkNote.take(this.#config.dataDir);
    if (openWork !== undefined) this.#warn(openWork, undefined, 'host.open-work-cancelled');
    if (problem !== undefined)
      this.audit.record({
        type: 'host.marker-unwritten',
        detail: { reason: `An unclean stop of this run will not be noticed at the next start: ${problem}` }
      });
    const restored = this.receiver.restore();
    for (const { id, reason, movedTo } of restored.quarantined) {
      this.#warn(`A stored task (${id}) could not be read and was moved aside: ${reason}`, movedTo);
    }
    // A draft is a task question's: kept while its task may still ask it.
    this.#drafts.prune((id) => {
      const record = this.receiver.record(id);
      return record !== undefined && !isTerminal(record.task.status);
    });
    this.assistant.resume();
    this.requestor.exchanges?.resume();
    if (this.#config.autoConnect !== false) {
      // Not one the person disconnected: it stays so until they press Connect.
      for (const config of this.#registry.list())
        if (config.autoConnect && !this.#disconnected.has(config.id)) void this.connect(config.id);
    }
    return { restored, leftOpenWork };
  }

  /**
   * Connects a configured server; resolves when it is ready or has failed. A connect of a server
   * whose connect is still on its way (reading its secrets, starting its sign-in) joins that one:
   * a second connection would be left open with no owner.
   */
  connect(serverId: string): Promise<ServerView> {
    const closes = this.#closes.get(serverId) ?? 0;
    const inFlight = this.#connectsInFlight.get(serverId);
    // One a close has overtaken since will make no connection: this connect is a new one.
    if (inFlight && inFlight.closes === closes) return inFlight.connecting;
    const connecting = this.#connect(serverId).finally(() => {
      if (this.#connectsInFlight.get(serverId)?.connecting === connecting) this.#connectsInFlight.delete(serverId);
      // Ended before it made a connection (overtaken by a close, or thrown): its server, shown as
      // connecting meanwhile (see `#serverView`), is told as it is now.
      this.#tellUnconnected(serverId);
    });
    this.#connectsInFlight.set(serverId, { connecting, closes });
    return connecting;
  }

  async #connect(serverId: string): Promise<ServerView> {
    const stored = this.#registry.get(serverId);
    if (!stored) throw new HostError(JsonRpcCode.InvalidParams, `Unknown server ${serverId}`);
    // A close meanwhile (Disconnect, Remove, a sign-out, a restarting Save) ends this connect
    // before it makes a connection: see `#closes`.
    const closes = this.#closes.get(serverId) ?? 0;
    const overtaken = () =>
      this.#closing || (this.#closes.get(serverId) ?? 0) !== closes || this.#registry.get(serverId) === undefined;
    // Connected again: a sign-in it waits for connects it once completed, as before the Disconnect,
    // and Taskdesk's start connects it as its setting says.
    this.#disconnectedInSignIn.delete(serverId);
    this.#disconnected.forget(serverId);
    const existing = this.#connections.get(serverId);
    if (existing && (existing.state.status === 'ready' || existing.state.status === 'connecting'))
      return this.#serverView(stored);
    // The secrets' values from the key store; one missing fails this connect with the reason.
    let config = stored;
    let missing: Error | undefined;
    try {
      config = await this.#servers.resolved(stored);
    } catch (error) {
      missing = error instanceof Error ? error : new Error(String(error));
    }
    const stdio =
      stored.transport.type === 'stdio' && !this.#config.transportFactory ? await this.#stdioStart() : undefined;
    const transportFactory =
      missing !== undefined
        ? () => {
            throw missing;
          }
        : this.#config.transportFactory;
    const oauth = this.#oauth.for(config);
    await oauth?.load();
    const grant = await oauth?.grant();
    // Closed while this connect waited (for secrets, the PATH, a sign-in), by Taskdesk or by the
    // person's act, or removed: nothing is started.
    if (overtaken()) return this.#serverView(this.#registry.get(serverId) ?? stored);
    // Before anything of this connection can reach History or the task store.
    if (missing === undefined) this.#secretValues.noteConnecting(config, oauth);
    // What the server asks from now on is of this connection (and, over stdio, of its process).
    const connectedAt = this.clock.now();
    const connection = new ServerConnection({
      config,
      receiver: this.receiver,
      ...(oauth
        ? { httpFetch: oauthFetch(oauth, this.#httpFetch) }
        : this.#httpFetch && { httpFetch: this.#httpFetch }),
      ...(grant && { grant }),
      ...(transportFactory && { transportFactory }),
      ...(stdio && { stdioPath: stdio.path, stdioEnv: stdio.env }),
      ...(this.#config.connectTimeoutMs !== undefined && { connectTimeoutMs: this.#config.connectTimeoutMs }),
      ...(this.#config.probeTimeoutMs !== undefined && { probeTimeoutMs: this.#config.probeTimeoutMs }),
      ...(this.#config.stdioLimits && { stdioLimits: this.#config.stdioLimits }),
      eras: this.#eras,
      roots: () => this.#registry.get(serverId)?.roots ?? [],
      samplingAllowed: () => this.sampling.policyFor(serverId).mode !== 'refuse',
      // A server author's mistake shows where people look (a flood of them is summarized there).
      ignored: (reason) =>
        this.audit.record({
          type: 'server.line-ignored',
          serverId,
          serverName: connection.config.name,
          detail: { reason }
        }),
      // A flood of large requests, held back at the pipe (a flood of these is summarized too).
      throttled: (ms) =>
        this.audit.record({
          type: 'server.throttled',
          serverId,
          serverName: connection.config.name,
          detail: {
            reason:
              'The server sent large messages Taskdesk refused faster than it reads them; it is read no faster for a while',
            pausedMs: ms
          }
        }),
      onState: (raw) => {
        // The connection's own config: a rename saved while it runs applies to it in place.
        const config = connection.config;
        if (raw.status === 'ready') {
          this.#readySince.set(serverId, this.clock.now());
          // Connected again: what ends from now on is not ended by the person's act that closed
          // the connection before. Not sooner: what that close broke off may end while this
          // connection starts (a Save that restarts the server connects it again at once).
          this.#closedByYou.delete(serverId);
          this.requestor.plainCalls.connected(serverId);
        }
        if (raw.status === 'failed' || raw.status === 'closed') this.#readySince.delete(serverId);
        // A failure reason may quote the URL, its credentials, or the server's stderr.
        const state = this.#viewState(redactedState(raw, config), config);
        this.events.emit('server.state', { serverId, state });
        if (state.status === 'ready') {
          this.#flushStatus(connection);
          this.requestor.attach(serverId, config.name, connection.client, {
            ...(connection.era === 'modern' && {
              modern: modernPeer(connection, this.#config.httpListenRenewalMs ?? HTTP_LISTEN_RENEWAL_MS)
            }),
            startedAnew: config.transport.type === 'stdio'
          });
        }
        if (state.status === 'failed' || state.status === 'closed') {
          this.#endTasksOfProcess(connection, connectedAt);
          this.receiver.forgetConnection(connection.owner.identity);
          this.requestor.detach(serverId);
        }
        this.audit.record({
          type: 'server.state',
          serverId,
          serverName: config.name,
          detail: connectionStateDetail(state)
        });
      }
    });
    this.#connections.set(serverId, connection);
    await connection.connect();
    return this.#serverView(config);
  }

  /**
   * What stdio servers start with of the login shell's environment (read once): its PATH, then
   * Taskdesk's own; and the environment their proxy variables are read from, Taskdesk's own over
   * the shell's (an app started from the Dock or a launcher has none of the shell's).
   */
  async #stdioStart(): Promise<{ path: string; env: NodeJS.ProcessEnv }> {
    const login = await this.#loginEnv();
    if (login.warning && !this.#loginWarned) {
      this.#loginWarned = true;
      this.#warn(`${login.warning}; stdio servers are started with Taskdesk's own PATH.`);
    }
    return { path: mergePaths(login.env.PATH, process.env.PATH), env: { ...login.env, ...process.env } };
  }

  #loginWarned = false;
  /**
   * Ends the tasks of a stdio server's connection that ended (created since it started, `since`)
   * that had not ended, as the process they were of went with it, and the one Taskdesk starts
   * next does not have them. The received tasks it gave Taskdesk: nobody can fetch their answers.
   * Their questions leave the Inbox and their model calls stop, cancelled by the person in the
   * words of their act that closed the connection, or failed as the process ended by itself. The
   * tool calls' tasks Taskdesk gave it: it ran them, so they are lost, in the same words. An HTTP
   * server's stay: it can come back to its session, and ask for them (its own keep running on it).
   * Not as Taskdesk closes: the next start takes them up, as an earlier process's.
   */
  #endTasksOfProcess(connection: ServerConnection, since: number): void {
    const { config, owner } = connection;
    if (config.transport.type !== 'stdio' || this.#closing) return;
    const act = this.#closedByYou.get(config.id);
    const cause = act === undefined ? `${config.name}’s process ended` : yourActWords(act, config.name);
    // Only while it is the server's connection: one replaced since (a Connect after it failed)
    // is not the process the tasks made since then ran in.
    if (this.#connections.get(config.id) === connection)
      this.requestor.processGone(
        config.id,
        since,
        act === undefined ? `${cause}: it ran this task.` : `${cause}: its process, which ran this task, was stopped.`,
        act !== undefined
      );
    const gone = [...this.receiver.peekRecords()]
      .filter(
        (record) =>
          record.owner.identity === owner.identity &&
          !isTerminal(record.task.status) &&
          Date.parse(record.task.createdAt) >= since
      )
      .map((record) => record.task.taskId);
    for (const taskId of gone) {
      // Read as its question leaves the Inbox, which the end does at once.
      this.#processGone.set(taskId, { reason: `${cause}.`, byYou: act !== undefined });
      try {
        this.receiver.endUnfetchable(taskId, endedWithProcessMessage(cause), act !== undefined);
      } finally {
        this.#processGone.delete(taskId);
      }
    }
  }

  /** Connects a server again after a sign-in: its next connection is bound to the new grant. */
  async #reconnect(serverId: string): Promise<void> {
    // A close like any other: a connect still on its way (one this close overtakes) is not joined.
    this.#closes.set(serverId, (this.#closes.get(serverId) ?? 0) + 1);
    await this.#connections.get(serverId)?.close();
    this.#connections.delete(serverId);
    if (this.#registry.get(serverId)) await this.connect(serverId);
  }

  /** A state with the server's OAuth sign-in, for a server that signs in. */
  /** A connection's state as the Desk sees it: with its sign-in, and since when it is ready. */
  #viewState(state: ConnectionState, config: ServerConfig): ConnectionState {
    const auth = this.#oauth.view(config);
    const since = state.status === 'ready' ? this.#readySince.get(config.id) : undefined;
    const stays = state.status !== 'ready' && state.status !== 'connecting' && this.#disconnected.has(config.id);
    return {
      ...state,
      // Not connected since a restart: said as the Disconnect's close said it.
      ...(stays && state.status === 'idle' && { reason: closedReason('person') }),
      ...(auth && { auth }),
      ...(since !== undefined && { readySince: new Date(since).toISOString() }),
      ...(stays && { stayDisconnected: true as const })
    };
  }

  /**
   * Disconnects a server. An HTTP server's tasks stay, for when it connects again; a stdio
   * server's end with its process (see {@link #endTasksOfProcess}).
   *
   * `by` is who asked: the person (`servers.disconnect`, a sign-out) or Taskdesk itself, as its
   * closed state says ("Disconnected by you" or "Disconnected by Taskdesk").
   */
  disconnect(serverId: string, by: ClosedBy = 'taskdesk'): Promise<ServerView> {
    return this.#disconnect(serverId, by, by === 'person' ? 'disconnected' : undefined);
  }

  /** Disconnects a server, `act` the person's act that does it (Disconnect, a sign-out), if any. */
  async #disconnect(serverId: string, by: ClosedBy, act: YourAct | undefined): Promise<ServerView> {
    const config = this.#registry.get(serverId);
    if (!config) throw new HostError(JsonRpcCode.InvalidParams, `Unknown server ${serverId}`);
    // The person's Disconnect while their sign-in page waits: its completion leaves the server so.
    if (by === 'person' && this.#connections.has(serverId) && this.#oauth.view(config)?.waiting === true)
      this.#disconnectedInSignIn.add(serverId);
    // The person's Disconnect holds until they connect it, a restart of Taskdesk too: before the
    // close, whose state says so.
    if (act === 'disconnected') this.#disconnected.add(serverId, new Date(this.clock.now()).toISOString());
    await this.#closeConnection(serverId, by, act);
    return this.#serverView(config);
  }

  /**
   * Closes a server's connection, if it has one. `act` is the person's act that closes it, if
   * any: what the close breaks off is said to be ended by it ({@link #endedByYourAct}).
   */
  async #closeConnection(serverId: string, by: ClosedBy | undefined, act: YourAct | undefined): Promise<void> {
    // A connect still on its way makes no connection after this close.
    this.#closes.set(serverId, (this.#closes.get(serverId) ?? 0) + 1);
    // One it overtakes leaves the server idle, which is told now, unless a Remove or a restart follows.
    if (act !== 'removed' && act !== 'restarted' && this.#connectsInFlight.has(serverId))
      this.#tellUnconnected(serverId);
    const connection = this.#connections.get(serverId);
    const status = connection?.state.status;
    // A call waiting for the server's sign-in ends with the act, connected or not: it is not sent
    // again over a connection the person ended (nor over the one a sign-in would make).
    if (act) for (const listener of [...this.#yourActListeners]) listener(serverId, (name) => yourActWords(act, name));
    // Before the close: what it breaks off is told as it goes. Only a live connection has
    // requests to break off (one closed before keeps the act that closed it).
    if (act && (status === 'ready' || status === 'connecting')) this.#closedByYou.set(serverId, act);
    await connection?.close(by);
  }

  /**
   * An ordinary request that ended: as the receiver told it, or, when an act of the person's
   * (Disconnect, Remove, a Save that restarts the server) closed its connection before it was
   * answered (the SDK aborts it as a server's cancel, without a reason), as ended by the person.
   */
  #endedByYourAct(ended: EndedOrdinaryRequest): EndedOrdinaryRequest {
    const { cancelled, owner } = ended;
    const act = this.#closedByYou.get(owner.serverId);
    if (cancelled?.by !== 'server' || cancelled.reason !== undefined || !act) return ended;
    return {
      ...ended,
      cancelled: { by: 'you', reason: `${yourActWords(act, owner.serverName)} before it was answered` }
    };
  }

  /**
   * Notes how long the server of an ordinary request that ended waited for its answer, when it
   * waits as an SDK server does, with a timeout of its own (`serverMayGiveUp`: not for a
   * 2026-07-28 task's input request, nor a multi round-trip request's, `exchange`), and tells the
   * windows when that changed what is known (`ServerView.waits`).
   */
  #noteWait(ended: EndedOrdinaryRequest, exchange: boolean): void {
    const { serverId } = ended.owner;
    const { relatedTaskId } = ended;
    const outboundId =
      relatedTaskId === undefined ? undefined : this.requestor.describe(serverId, relatedTaskId)?.outboundId;
    const related = outboundId === undefined ? undefined : this.requestor.get(outboundId);
    const asked = {
      ...(relatedTaskId !== undefined && { relatedTaskId }),
      ...(exchange && { relatedCall: true as const })
    };
    if (!serverMayGiveUp(asked, related) || !this.#waits.noteEnded(serverId, ended) || this.#closing) return;
    this.events.emit('servers.changed', { servers: this.#registry.list().map((config) => this.#serverView(config)) });
  }

  /** The live connection of a server, if any (the requestor and tests use its client). */
  connection(serverId: string): ServerConnection | undefined {
    return this.#connections.get(serverId);
  }

  /** Calls a host API method with unvalidated params: what every transport of the contract uses. */
  async dispatch<M extends HostMethod>(method: M, params: unknown): Promise<HostReply<M>> {
    if (!isHostMethod(method)) return { ok: false, error: unknownHostMethod(method) };
    const parsed = HostMethods[method].params.safeParse(params ?? {});
    if (!parsed.success) {
      // Each top-level field's first problem, under `data.fields` as the handlers' own refusals
      // name them, so that a form shows it on its field (a model file's relative path, say).
      const fields: Record<string, string> = {};
      for (const issue of parsed.error.issues) {
        const [field] = issue.path;
        if (typeof field === 'string') fields[field] ??= issue.message;
      }
      return {
        ok: false,
        error: {
          code: JsonRpcCode.InvalidParams,
          message: `Invalid params for ${method}: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'params'}: ${issue.message}`).join('; ')}`,
          ...(Object.keys(fields).length > 0 && { data: { fields } })
        }
      };
    }
    const handler: HostMethodTable[M] = this.#methods[method];
    try {
      const result = await handler(parsed.data as HostParsedParams<M>);
      await this.#announceChange(method, parsed.data);
      return { ok: true, result };
    } catch (error) {
      return { ok: false, error: toErrorData(error) };
    }
  }

  /**
   * After a call that changed the server list, the providers or a policy, tells every window
   * (and the tray) the new state, so that none has to fetch it again and none disagrees.
   */
  async #announceChange(method: HostMethod, params: Record<string, unknown>): Promise<void> {
    if (
      method === 'servers.add' ||
      method === 'servers.remove' ||
      method === 'servers.update' ||
      method === 'servers.importAdd'
    ) {
      this.events.emit('servers.changed', { servers: this.#registry.list().map((config) => this.#serverView(config)) });
    }
    if (method === 'servers.add' || method === 'servers.importAdd') {
      // A window learns the policies of the servers it lists at its start; a server added since
      // has its policy told here (the default, or one remembered under its id), or the window's
      // policy controls would wait for it until a reload.
      for (const config of this.#registry.list())
        this.events.emit('policies.changed', { serverId: config.id, policy: this.sampling.policyFor(config.id) });
    }
    if (method === 'servers.remove' || method === 'sampling.setPolicy') {
      // A removed server's policy is gone: the default is what a server added under its id gets.
      const serverId = params.serverId as string;
      // So is what was seen of how long it waits: one added under its id is another server.
      if (method === 'servers.remove') this.#waits.forget(serverId);
      this.events.emit('policies.changed', { serverId, policy: this.sampling.policyFor(serverId) });
    }
    if (
      method === 'providers.save' ||
      method === 'providers.remove' ||
      method === 'providers.move' ||
      method === 'providers.clearKey'
    ) {
      await this.#tellProviders();
    }
  }

  /** Tells the windows the providers as `providers.list` answers now (none once closing). */
  async #tellProviders(): Promise<void> {
    const providers = await this.sampling.views();
    if (!this.#closing) this.events.emit('providers.changed', { providers });
  }

  /** Calls a host API method, throwing its error: the typed in-process form of `dispatch`. */
  async call<M extends HostMethod>(method: M, params: HostParams<M>): Promise<HostResult<M>> {
    const reply = await this.dispatch(method, params);
    if (!reply.ok) throw new HostError(reply.error.code, reply.error.message, reply.error.data);
    return reply.result;
  }

  /** Subscribes to a host event. */
  on<E extends HostEvent>(event: E, listener: (payload: HostEventPayload<E>) => void): () => void {
    return this.events.on(event, listener);
  }

  /**
   * Saves and connects a server Taskdesk adds of its own accord (the bundled demo server on a
   * first launch), as `servers.add` and `servers.connect` would, except that the audit log says
   * Taskdesk added it (`by: 'taskdesk'`) and records no ask to connect: the person did neither.
   * The connect is started, not awaited.
   */
  async addServerByTaskdesk(input: ServerConfigInput): Promise<ServerView> {
    const saved = await this.#servers.add(HostMethods['servers.add'].params.parse(input), { byTaskdesk: true });
    recordServerAdded(this.audit, saved, 'taskdesk');
    await this.#announceChange('servers.add', {});
    void this.connect(saved.id).catch(() => undefined);
    return this.#serverView(saved);
  }

  /** Whether a server list was ever saved in this data directory: false on a first launch only. */
  get serverListSaved(): boolean {
    return this.#registry.everSaved;
  }

  /** Warnings raised while loading stored data (a corrupt file moved aside). */
  get warnings(): Array<{ message: string; movedTo?: string; id: string; links?: WarningLink[] }> {
    return [...this.#warnings];
  }

  /** A server's `tools.changed` or `sources.changed` teller, made when it first tells. */
  #listChangedOf(event: 'tools.changed' | 'sources.changed', serverId: string): ChangeCoalescer {
    const key = `${event}\0${serverId}`;
    let coalescer = this.#listChanged.get(key);
    if (!coalescer) {
      coalescer = new ChangeCoalescer(this.clock, LIST_CHANGED_MS, () => this.events.emit(event, { serverId }));
      this.#listChanged.set(key, coalescer);
    }
    return coalescer;
  }

  /**
   * What `close()` broke off of plain work, in words (see `OpenWorkNote.closedWords`), once it
   * has closed; undefined for nothing: browser mode says it as it stops.
   */
  get closedWords(): string | undefined {
    return this.#closedWords;
  }

  /** Closes every connection and timer. Stored tasks stay for the next start. */
  async close(): Promise<void> {
    this.#closing = true;
    // A draft write asked for already lands (the wait for document writes below covers it); no more.
    this.#drafts.close();
    this.assistant.close();
    this.requestor.close();
    this.receiver.close();
    this.#openWork.save(this.#config.dataDir, this.clock.now());
    this.#closedWords = this.#openWork.closedWords();
    this.history.close();
    // What was open is in History now: the record of it goes.
    const recordGone = this.#openWorkRecord?.close();
    await Promise.all([...this.#connections.values()].map((connection) => connection.close()));
    // Model calls and waits the closes above aborted end now: what they record (a model call
    // cancelled) goes in the audit log before it closes.
    await this.sampling.ended(SAMPLING_END_MS);
    // Their ends came (or will not now): no held-back text is told after the close.
    this.#partials.close();
    // The model files loaded (llama.cpp's memory and threads) are freed.
    await localModels.close().catch(() => undefined);
    this.#oauth.close();
    this.#auditChanged.close();
    for (const coalescer of this.#listChanged.values()) coalescer.close();
    // A background checkpoint a close superseded may still be on its way in the worker.
    await documentWritesLanded();
    // After everything that records: what the closing recorded is written, a later entry dropped.
    this.audit.close();
    await recordGone;
    // Last: a close that fails before here is an unclean stop.
    this.#marker?.remove();
  }

  /** Whether a connect is on its way that no close has overtaken, before it has made its connection. */
  #connectPending(serverId: string): boolean {
    const inFlight = this.#connectsInFlight.get(serverId);
    return (
      !this.#closing &&
      !this.#connections.has(serverId) &&
      inFlight !== undefined &&
      inFlight.closes === (this.#closes.get(serverId) ?? 0)
    );
  }

  /** Tells the Desk the state of a server with no connection, whose connect ended or was overtaken. */
  #tellUnconnected(serverId: string): void {
    const config = this.#registry.get(serverId);
    if (config && !this.#connections.has(serverId))
      this.events.emit('server.state', { serverId, state: this.#serverView(config).state });
  }

  #serverView(config: ServerConfig): ServerView {
    const transport = config.transport;
    return {
      id: config.id,
      name: config.name,
      transport:
        transport.type === 'stdio'
          ? { type: 'stdio', target: commandLine(transport.command, transport.args) }
          : { type: 'http', target: redactUrl(transport.url) },
      ...(config.protocol !== undefined && config.protocol !== 'auto' && { protocol: config.protocol }),
      ...(!this.#registry.isSaved(config.id) && { configured: true as const }),
      ...(config.addedAt !== undefined && { addedAt: config.addedAt }),
      ...(config.addedBy !== undefined && { addedBy: config.addedBy }),
      ...this.#waitsOf(config.id),
      state: this.#viewState(
        // Redacted by the connection's config, which holds the secrets' values.
        redactedState(
          // A connect waiting for its secrets, the PATH or a sign-in is connecting, not idle: the
          // Desk can tell it from one a close overtook, which is left idle.
          this.#connections.get(config.id)?.state ??
            (this.#connectPending(config.id) ? { status: 'connecting' } : { status: 'idle' }),
          this.#connections.get(config.id)?.config ?? config
        ),
        config
      )
    };
  }

  /** A server view's `waits`, when anything is known of them. */
  #waitsOf(serverId: string): Pick<ServerView, 'waits'> {
    const waits = this.#waits.get(serverId);
    return waits ? { waits } : {};
  }

  #connectionFor(owner: TaskOwner): ServerConnection | undefined {
    const connection = this.#connections.get(owner.serverId);
    return connection && connection.owner.identity === owner.identity && connection.ready ? connection : undefined;
  }

  /** Sends a status notification now, or keeps it until the owning server connects. */
  #deliverStatus(owner: TaskOwner, task: TaskView): void {
    const connection = this.#connectionFor(owner);
    if (connection) {
      void connection.notifyStatus(task);
      return;
    }
    this.#pendingStatus.keep(owner.identity, task);
  }

  #flushStatus(connection: ServerConnection): void {
    for (const task of this.#pendingStatus.take(connection.owner.identity)) {
      // Only tasks still stored: an expired one is gone and would confuse the server.
      const record = this.receiver.record(task.taskId);
      if (record) void connection.notifyStatus(record.task);
    }
  }

  /**
   * A host warning (a banner in every window), recorded as `type` (the store's, unless said). Each
   * gets its own id: the same problem happening again (same words) is a new warning, shown again.
   */
  #warn(message: string, movedTo?: string, type = 'store.warning'): void {
    const id = randomUUID();
    const warning = movedTo === undefined ? { message, id } : { message, movedTo, id };
    this.#warnings.push(warning);
    this.audit.record({ type, detail: movedTo === undefined ? { message } : { message, movedTo } });
    this.events.emit('store.warning', warning);
  }

  /**
   * A model run made without asking failed: a notice on the Desk, among the host's warnings (every
   * screen shows them, a window opened later too). One per server, the newest: a server that
   * keeps asking while its provider is down does not pile them up. Not audited again: its
   * `sampling.llm` entry says it.
   */
  #unaskedRunFailed(failure: UnaskedRunFailure): void {
    const earlier = this.#unaskedRunNotices.get(failure.serverId);
    const kept = this.sampling.registry.get(failure.providerId) !== undefined;
    const warning = { ...unaskedRunNotice(failure, kept), id: randomUUID() };
    this.#unaskedRunNotices.set(failure.serverId, warning);
    this.#replaceWarning(warning, earlier);
  }

  /** Shows `warning` (not audited) in the place of `earlier`, which goes from the host's warnings and every open window. */
  #replaceWarning(
    warning: { message: string; id: string; links: WarningLink[] },
    earlier: { id: string } | undefined
  ): void {
    const index = earlier === undefined ? -1 : this.#warnings.findIndex((shown) => shown.id === earlier.id);
    if (index !== -1) this.#warnings.splice(index, 1);
    this.#warnings.push(warning);
    // An open window drops the one before too.
    this.events.emit('store.warning', { ...warning, ...(earlier && { replaces: earlier.id }) });
  }

  /** The task store started failing to write (a warning), or writes again (its warnings cleared, and said). */
  #storeNotice(notice: StoreNotice): void {
    if (notice.kind === 'problem') {
      this.#warn(notice.message, notice.movedTo);
      this.#storeProblems.push(this.#warnings.at(-1)!);
      return;
    }
    for (const problem of this.#storeProblems.splice(0)) {
      const index = this.#warnings.indexOf(problem);
      if (index !== -1) this.#warnings.splice(index, 1);
    }
    this.audit.record({ type: 'store.recovered', detail: { message: notice.message } });
    this.events.emit('store.warning', { message: notice.message, id: randomUUID() });
  }
}

/** Builds and starts a host. */
export function createHost(config: HostConfig): Host {
  const host = new Host(config);
  host.start();
  return host;
}

/**
 * An act of the person's that closes a server's connection: `disconnected` (Disconnect),
 * `signed-out` (Sign out, which disconnects it), `removed` (Remove), `restarted` (a Save of
 * settings that change how it is reached: Taskdesk connects it again, a stdio server as a new process).
 */
type YourAct = 'disconnected' | 'signed-out' | 'removed' | 'restarted';

/**
 * Why a request outside a task ended when an act of the person's closed its server's connection:
 * the Inbox's withdrawal ("…: You removed Books.") and its History entry ("You removed Books
 * before it was answered") say it was their doing, not the server's.
 */
function yourActWords(act: YourAct, serverName: string): string {
  switch (act) {
    case 'disconnected':
      return `You disconnected ${serverName}`;
    case 'signed-out':
      return `You signed out of ${serverName}`;
    case 'removed':
      return `You removed ${serverName}`;
    case 'restarted':
      return `You changed ${serverName}’s settings, and Taskdesk restarted it`;
    default:
      return assertNever(act);
  }
}

/**
 * What the next start says after a run that did not close (SIGKILL, a crash, power loss): the
 * plain work its records kept, named as a clean close's note names it, or, with none kept, what
 * may have been lost.
 */
function uncleanStopMessage(markerAt: number | undefined, work: readonly NotFinishedWork[]): string {
  // Its marker is touched once a minute: the work its records kept may be later (each was
  // last seen running no earlier than its record's last write).
  const seen = Math.max(markerAt ?? Number.NEGATIVE_INFINITY, ...work.map((item) => Date.parse(item.lastSeenAt)));
  const at = Number.isFinite(seen)
    ? ` (last seen running at about ${new Date(seen).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })})`
    : '';
  const said = notFinishedWords(work);
  const lost =
    said === undefined
      ? 'questions and model requests without a task that were waiting, and tool calls without a task that were running, were lost; their servers were not answered.'
      : `${said.what}; ${said.lost}. History lists ${said.one ? 'it' : 'them'} as not finished.`;
  return `Taskdesk did not close cleanly last time${at}: ${lost} Tasks are kept, but a server Taskdesk starts itself (stdio) was started again, and its running tasks are lost unless it stores them.`;
}

/**
 * `outbound.ended` of a task that ended: its notice, unless the person cancelled it or their act
 * lost it (see `taskEndNotice`) or its ttl ran out while Taskdesk was closed (`startedAt`: this run's start),
 * which a start would otherwise tell as a burst of notifications, as if each had expired just then.
 */
function taskEnded(task: OutboundTaskView, startedAt: number): HostEventPayload<'outbound.ended'> {
  const expiredWhileClosed =
    task.state === 'expired' && task.expiresAt !== null && Date.parse(task.expiresAt) <= startedAt;
  const notice = expiredWhileClosed ? undefined : taskEndNotice(task);
  return { outboundId: task.outboundId, serverId: task.serverId, state: task.state, ...(notice && { notice }) };
}

/** The requestor's view of a modern (MCP 2026-07-28) server: enveloped requests, and input answered like a legacy server's requests. */
function modernPeer(connection: ServerConnection, httpListenRenewalMs: number): ModernPeer {
  return {
    acceptsTasks: connection.modernTasks,
    listChanged: connection.modernListChanged,
    ...(connection.config.transport.type === 'http' && { listenRenewalMs: httpListenRenewalMs }),
    request: (method, params, options) => connection.modernRequest(method, params, options),
    answerInput: (request, context) => connection.answerInputRequest(request, context)
  };
}

/** A connection state as it may leave the core: no credential in its reason. */
function redactedState(state: ConnectionState, config: ServerConfig): ConnectionState {
  return state.reason === undefined ? state : { ...state, reason: redactServerText(state.reason, config) };
}

/** Which question an inbox item's audit entry is about, in a short line (never its answer). */
function questionOf(item: Readonly<InboxItem>, secrets: Iterable<string>): { question?: string } {
  // A review's request is what was approved, which may hold the person's own edits: never
  // quoted (its approval's entry named the server's question).
  if (item.kind === 'sampling-review') return {};
  const question = questionPreview(item, secrets);
  return question === undefined ? {} : { question };
}

/** Who an inbox item's audit entry is about: its server, and its task when it is one. */
function inboxAuditSubject(item: Readonly<InboxItem>): { serverId: string; serverName: string; taskId?: string } {
  return {
    serverId: item.serverId,
    serverName: item.serverName,
    ...(item.taskId !== undefined && { taskId: item.taskId })
  };
}
