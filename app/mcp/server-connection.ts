import { type Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Stream } from 'node:stream';
import { z } from 'zod';
import {
  CancelTaskRequestSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  ListRootsRequestSchema,
  ListTasksRequestSchema,
  McpError,
  RELATED_TASK_META_KEY,
  type ClientCapabilities,
  type Tool
} from '@modelcontextprotocol/sdk/types.js';
import type { ConnectionState, ProtocolEra } from '../contract/host-api.js';
import { HostError, inChain, JsonRpcCode, toErrorData } from '../core/errors.js';
import type { TaskReceiver } from '../receiver/task-receiver.js';
import type { TaskKind, TaskOwner, TaskView } from '../receiver/task-record.js';
import {
  connectionKey,
  ownerIdentity,
  redactServerText,
  redactUrl,
  type GrantBinding,
  type ServerConfig
} from './server-config.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { headerValue, jsonRpcErrorOf, modernHttpTransport, probeHttpEra, type ExtraHeaders } from './modern-http.js';
import { answerEmbedded, listRootsResult } from './input-answers.js';
import { paramHeadersOf, paramHeaderValues, type ParamHeaders } from './param-headers.js';
import { GatedTransport } from './request-gate.js';
import { CommandNotFoundError, exitWords, stdioSpawnTarget } from './stdio-spawn.js';
import { StderrTail } from './stderr-tail.js';
import { httpFailureText, networkFailureText } from './network-failure.js';
import { durationText, initializeFailureText, unansweredText } from './initialize-failure.js';
import { SignInRequiredError, SignInUnreachableError } from '../auth/server-oauth.js';
import {
  GuardedStdioTransport,
  HostClient,
  SDK_TIMEOUT_OUT_OF_THE_WAY_MS,
  cancelAnyRequestId,
  connectWithoutInitialize,
  handlesRequest,
  requestAnyMethod,
  setServerRequestHandler,
  watchStdioExit,
  type ProcessExit,
  type StdioLimits
} from './sdk-seams.js';
import {
  MODERN_PROTOCOL_VERSION,
  declaresTasks,
  envelope,
  isModernErrorCode,
  probeEra,
  serverInfoOf,
  watchInitialize,
  withEnvelope,
  type DiscoverResult,
  type EraProbe,
  type ModernRequestOptions
} from './modern-protocol.js';

/** How long connecting (probe and initialize) may take by default. */
const CONNECT_TIMEOUT_MS = 20_000;

/** Longest wait for the `server/discover` probe by default (and at most half the connect timeout). */
const PROBE_TIMEOUT_MS = 5_000;

/** Any JSON object: modern results are read by the requestor's own schemas. */
const AnyResultSchema = z.looseObject({});

/** The capabilities Taskdesk declares to every server (MCP 2025-11-25). */
export const CLIENT_CAPABILITIES: ClientCapabilities = {
  sampling: { tools: {} },
  elicitation: { form: {}, url: {} },
  roots: { listChanged: true },
  tasks: {
    list: {},
    cancel: {},
    requests: { sampling: { createMessage: {} }, elicitation: { create: {} } }
  }
};

/** Where the era a server was found in is remembered, by the server's identity ({@link ownerIdentity}). */
export interface EraMemory {
  get(identity: string): ProtocolEra | undefined;
  set(identity: string, era: ProtocolEra): void;
  forget(identity: string): void;
}

/**
 * Who closed a connection: the person (Disconnect on the Servers screen, Sign out, Remove), or
 * Taskdesk itself (its own close, a reconnect after a sign-in or with changed settings).
 */
export type ClosedBy = 'person' | 'taskdesk';

/**
 * A connect that failed on what the server answered (it refused, answered what is not MCP, or
 * speaks another revision): the answer is the whole reason, and the server's stderr (its startup
 * chatter) is not quoted.
 */
class AnsweredError extends Error {}

/** The reason a closed connection's state gives, by who closed it. */
export function closedReason(by: ClosedBy): string {
  return by === 'person' ? 'Disconnected by you' : 'Disconnected by Taskdesk';
}

/** Options for {@link ServerConnection}. */
export interface ServerConnectionOptions {
  config: ServerConfig;
  receiver: TaskReceiver;
  /**
   * Builds the transport; tests pass one end of an in-memory pair. `era: 'modern'` asks for
   * the transport to a Streamable HTTP server the probe found modern (see `modernHttpTransport`).
   */
  transportFactory?: (config: ServerConfig, context?: { era?: 'modern' }) => Transport;
  /** How long connecting (probe and initialize) may take before the connection counts as failed. */
  connectTimeoutMs?: number;
  /** Longest wait for a server's answer to `server/discover`, over stdio and HTTP (default min(5 s, half the connect timeout)). */
  probeTimeoutMs?: number;
  /**
   * The era each server was last found in, by identity: a server remembered as legacy is not
   * probed (MCP 2026-07-28 asks clients to cache the era). Without it, every connect probes.
   */
  eras?: EraMemory;
  onState(state: ConnectionState): void;
  clientInfo?: { name: string; version: string };
  /** Limits of a stdio connection (its outgoing queue, the messages it reads); README defaults otherwise. */
  stdioLimits?: Partial<StdioLimits>;
  /** The PATH stdio servers are found on and started with (the login shell's); Taskdesk's own by default. */
  stdioPath?: string;
  /**
   * Where a stdio server's proxy variables are read from (see `stdioSpawnTarget`): Taskdesk's
   * own environment over the login shell's; Taskdesk's own by default.
   */
  stdioEnv?: NodeJS.ProcessEnv;
  /**
   * The fetch of a Streamable HTTP server's requests (the probe's too): the OAuth fetch of a
   * server that signs in (`app/auth/oauth-fetch.ts`). Not used by a `transportFactory`.
   */
  httpFetch?: FetchLike;
  /** The OAuth grant the server is signed in with: tasks are bound to it (see `ownerIdentity`). */
  grant?: GrantBinding;
  /** The folders the user shares with this server as roots (read at each `roots/list`); none by default. */
  roots?: () => readonly string[];
  /** Whether the server's sampling policy may answer sampling: modern requests declare sampling only then. */
  samplingAllowed?: () => boolean;
  /** A line from the server was neither delivered nor answered (see `GuardedStdioTransport.onIgnored`). */
  ignored?: (reason: string) => void;
  /** The server was read no faster than its budget for `ms` (see `GuardedStdioTransport.onThrottle`). */
  throttled?: (ms: number) => void;
}

/**
 * One MCP client session with one server, and the receiver's request handlers on it.
 *
 * The task handlers are Taskdesk's own rather than the SDK's built-in ones: those neither
 * notify on cancel nor abort work, and leak a listener per `tasks/result` poll.
 */
export class ServerConnection {
  #config: ServerConfig;
  #owner: TaskOwner;
  readonly client: Client;
  #state: ConnectionState = { status: 'idle' };
  readonly #options: ServerConnectionOptions;
  #stderr = new StderrTail();
  #stderrStream: Stream | undefined;
  /** How the latest process ended by itself, once it has (stdio; see {@link watchStdioExit}). */
  #exitWatch: { readonly exit: ProcessExit | undefined } | undefined;
  /** Where the stdio command was found, shown with the state. */
  #executable: string | undefined;
  #closing = false;
  /** Who asked for the close under way (see {@link close}). */
  #closedBy: ClosedBy = 'taskdesk';
  /** The transport of the latest attempt (the probe's, before the client owns it). */
  #current: Transport | undefined;
  /** Aborts the Streamable HTTP era probe when the connection is closed during it. */
  #probingHttp: AbortController | undefined;
  /**
   * Transports known to carry a 2026-07-28 server, from the line after its `DiscoverResult` (or
   * from the start, for a server set to that revision): such a server is written no responses,
   * not even to the rest of the chunk that brought its `DiscoverResult`, which is read before the
   * probe's promise settles (and sets {@link #discover}).
   */
  readonly #modernWire = new WeakSet<Transport>();
  /** Set once a modern (2026-07-28) server answered `server/discover`. */
  #discover: DiscoverResult | undefined;
  /** Why Taskdesk dropped the server (it stopped reading), for the state. */
  #dropReason: string | undefined;
  readonly #clientInfo: { name: string; version: string };
  /** The `x-mcp-header` annotations of each tool a modern server listed, for its `Mcp-Param-*` headers. */
  readonly #paramHeaders = new Map<string, ParamHeaders>();

  constructor(options: ServerConnectionOptions) {
    this.#options = options;
    this.#config = options.config;
    this.#owner = {
      serverId: options.config.id,
      serverName: options.config.name,
      identity: ownerIdentity(options.config, options.grant)
    };
    this.#clientInfo = options.clientInfo ?? { name: 'taskdesk', version: '0.1.0' };
    this.client = new HostClient(this.#clientInfo, { capabilities: CLIENT_CAPABILITIES });
    this.#registerHandlers();
  }

  /** The config it connects with (the secrets' values filled in). */
  get config(): ServerConfig {
    return this.#config;
  }

  /** Whom the server's tasks belong to. */
  get owner(): TaskOwner {
    return this.#owner;
  }

  /**
   * Takes new settings that reach the server the same way (see {@link connectionKey}): a new
   * name, another env var kept as a secret. The session goes on, with its running requests;
   * what is said of the server from now on uses them. Settings that would connect otherwise
   * throw: those need a new connection.
   */
  applySettings(config: ServerConfig): void {
    if (connectionKey(config) !== connectionKey(this.#config))
      throw new Error(`Settings of ${config.id} that change how it is reached need a new connection`);
    this.#config = config;
    this.#owner = { ...this.#owner, serverName: config.name };
  }

  get state(): ConnectionState {
    return structuredClone(this.#state);
  }

  /** Whether the connection is initialized and open (no copy of the state, for hot paths). */
  get ready(): boolean {
    return this.#state.status === 'ready';
  }

  /** The server's generation once ready: `modern` after a `DiscoverResult`, `legacy` after `initialize`. */
  get era(): ProtocolEra | undefined {
    if (this.#state.status !== 'ready') return undefined;
    return this.#discover ? 'modern' : 'legacy';
  }

  /** What a modern server said in `server/discover`; undefined for a legacy one. */
  get discover(): DiscoverResult | undefined {
    return this.#discover && structuredClone(this.#discover);
  }

  /** Whether a modern server declared the tasks extension. */
  get modernTasks(): boolean {
    return declaresTasks(this.#discover?.capabilities);
  }

  /** The lists a modern server declared `listChanged` for (it tells of their changes on a `subscriptions/listen` stream). */
  get modernListChanged(): { tools: boolean; prompts: boolean; resources: boolean } {
    type Lists = Partial<Record<'tools' | 'prompts' | 'resources', { listChanged?: unknown }>>;
    const declared = (this.#discover?.capabilities ?? {}) as Lists;
    return {
      tools: declared.tools?.listChanged === true,
      prompts: declared.prompts?.listChanged === true,
      resources: declared.resources?.listChanged === true
    };
  }

  /**
   * Sends one request to a modern server, with the 2026-07-28 envelope in `_meta` (declaring
   * the tasks extension when `tasks`). Rejects with the server's error as the SDK reports it.
   * `onRequestId` gets the request's JSON-RPC id as it is sent (see `requestAnyMethod`).
   */
  async modernRequest(
    method: string,
    params: Record<string, unknown>,
    options: ModernRequestOptions
  ): Promise<Record<string, unknown>> {
    if (!this.#discover)
      throw new HostError(
        JsonRpcCode.InvalidRequest,
        `Server "${this.config.name}" is not connected as an MCP ${MODERN_PROTOCOL_VERSION} server.`
      );
    const capabilities = { tasks: options.tasks, sampling: this.#options.samplingAllowed?.() ?? true };
    const request = { method, params: withEnvelope(params, envelope(this.#clientInfo, capabilities)) };
    const result = await requestAnyMethod(
      this.client,
      request,
      AnyResultSchema,
      {
        timeout: options.timeout,
        ...(options.signal && { signal: options.signal }),
        // The SDK then puts a progress token in `_meta`, beside the envelope.
        ...(options.onprogress && { onprogress: options.onprogress })
      },
      options.onRequestId
    );
    if (method === 'tools/list') this.#noteParamHeaders(result.tools);
    return { ...result };
  }

  /** Keeps each listed tool's `x-mcp-header` annotations (an invalid tool gets none: the requestor does not list it). */
  #noteParamHeaders(tools: unknown): void {
    if (!Array.isArray(tools)) return;
    for (const tool of tools as Array<Partial<Tool>>) {
      if (typeof tool?.name !== 'string') continue;
      const read = paramHeadersOf(tool.inputSchema);
      if (read.ok && Object.keys(read.headers).length > 0) this.#paramHeaders.set(tool.name, read.headers);
      else this.#paramHeaders.delete(tool.name);
    }
  }

  /** The `Mcp-Param-*` headers of an outgoing `tools/call` to a modern HTTP server. */
  readonly #extraHeaders: ExtraHeaders = (message) => {
    if (message.method !== 'tools/call') return undefined;
    const params = (message.params ?? {}) as { name?: unknown; arguments?: unknown };
    const annotations = typeof params.name === 'string' ? this.#paramHeaders.get(params.name) : undefined;
    if (!annotations || typeof params.arguments !== 'object' || params.arguments === null) return undefined;
    return paramHeaderValues(annotations, params.arguments as Record<string, unknown>, headerValue);
  };

  /**
   * Tells a connected legacy server its roots changed (`notifications/roots/list_changed`). A
   * modern one is told nothing: MCP 2026-07-28 removed that notification (a server asks for roots
   * inside each request that needs them, and so sees the change on its next ask).
   */
  async notifyRootsChanged(): Promise<void> {
    if (this.#state.status !== 'ready' || this.#discover) return;
    await this.client.notification({ method: 'notifications/roots/list_changed' }).catch(() => undefined);
  }

  /**
   * Answers one input request of a modern task the way the same request from a legacy server
   * is answered (an elicitation in the inbox, sampling through the sampling runner, with the
   * receiver's limits), tagged with the task so the inbox names the tool. Anything else is −32601.
   */
  async answerInputRequest(
    request: { method: string; params: Record<string, unknown> },
    context: { relatedTaskId: string; signal: AbortSignal }
  ): Promise<Record<string, unknown>> {
    return answerEmbedded(this.#options.receiver, this.owner, this.#options.roots?.() ?? [], request, context);
  }

  /**
   * Connects: learns the era (see {@link #connectEra}), then initializes a legacy server.
   * Never throws: failure is a state with a reason.
   */
  async connect(): Promise<ConnectionState> {
    this.#setState({ status: 'connecting' });
    const timeoutMs = this.#options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
    const deadline = Date.now() + timeoutMs;
    this.client.onclose = () => {
      // While connecting, connect() reports failures itself (and may start a fresh process).
      if (this.#state.status !== 'ready') return;
      const tail = this.#stderrTail();
      const exit = this.#exitWatch?.exit;
      this.#setState({
        status: this.#closing ? 'closed' : 'failed',
        reason: this.#closing
          ? closedReason(this.#closedBy)
          : (this.#dropReason ??
            (exit
              ? `The server ${exitWords(exit)}${tail ? ` (stderr: ${tail})` : ''}`
              : `The server closed the connection${tail ? `: ${tail}` : ''}`))
      });
    };
    this.client.onerror = () => {
      // Transport errors surface as a close or a failed request; nothing to do here.
    };
    try {
      await this.#connectEra(deadline, this.#options.probeTimeoutMs ?? Math.min(PROBE_TIMEOUT_MS, timeoutMs / 2));
    } catch (error) {
      if (this.#closing) return this.#closedWhileConnecting();
      this.#setState({
        status: 'failed',
        reason: `Could not connect: ${this.#failureText(error)}`,
        // The server asked for authorization and waits for a sign-in: not a failure to show as one.
        ...(inChain(error, SignInRequiredError) && { failedFor: 'sign-in' as const })
      });
      // A transport the client never took over (the probe failed or refused it) is closed here.
      const current = this.#current;
      const owned = this.client.transport === current;
      await this.client.close().catch(() => undefined);
      if (!owned) await current?.close().catch(() => undefined);
      return this.state;
    }
    // Closed just as the connect succeeded: not ready (close() tears the transport down).
    if (this.#closing) return this.#closedWhileConnecting();
    return this.#ready();
  }

  /**
   * Why a connect failed, in words. A process that exited by itself says how (its exit code or
   * signal) instead of the SDK's "Connection closed". The stderr quoted is that of the process of
   * the attempt that failed (a fresh process starts with none), and none is quoted when the
   * server's own answer is the reason ({@link AnsweredError}, or an error it answered with).
   */
  #failureText(error: unknown): string {
    const exit = this.#exitWatch?.exit;
    const why =
      this.#dropReason ??
      // Its own words name the sign-in service it could not reach, not only the address.
      inChain(error, SignInUnreachableError)?.message ??
      this.#httpFailureText(error) ??
      networkFailureText(error) ??
      (exit && endedUnanswered(error) ? `The server ${exitWords(exit)} before it answered` : undefined) ??
      // The whole connect's timeout: the probe before initialize spent part of it.
      unansweredText(error, {
        transport: this.config.transport,
        timeoutMs: this.#options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS
      }) ??
      toErrorData(error).message;
    const tail = answered(error) ? '' : this.#stderrTail();
    return `${why}${tail ? ` (stderr: ${tail})` : ''}`;
  }

  /** Disconnected while connecting: that is a close, not a failure. */
  #closedWhileConnecting(): ConnectionState {
    this.#setState({ status: 'closed', reason: closedReason(this.#closedBy) });
    return this.state;
  }

  /**
   * The one place that decides the era. A server remembered as legacy is initialized at once,
   * without a probe. When that fails for any reason but those that say nothing about the server
   * (it could not be started or reached, or the connect timeout ran out: see
   * {@link saysNothingAboutEra}), the server may have changed: the remembered era is forgotten
   * and the server probed, once (this is the only probe of the connect). Otherwise
   * the probe decides, over stdio ({@link #probeAndConnectStdio}) or Streamable HTTP
   * ({@link #probeAndConnectHttp}). Throws why it failed.
   */
  async #connectEra(deadline: number, probeTimeoutMs: number): Promise<void> {
    const pinned = this.config.protocol ?? 'auto';
    if (pinned === '2025-11-25') {
      // Set by the user: no probe, whatever is remembered; the server's answer to initialize stands.
      const outcome = await this.#initialize(this.#freshTransport(), deadline, { lateProbe: false });
      if (outcome.type === 'failed') throw outcome.error;
      return;
    }
    if (pinned === '2026-07-28') return this.#connectPinnedModern(deadline);
    if (this.#remembered() === 'legacy') {
      const outcome = await this.#initialize(this.#freshTransport(), deadline, { lateProbe: false });
      if (outcome.type !== 'failed') return;
      if (this.#closing || saysNothingAboutEra(outcome.error) || Date.now() >= deadline) throw outcome.error;
      this.#forget();
      // The probe's process is handed to the client once the first is gone: until then the
      // client holds it and refuses another ("Already connected to a transport"). Not gone by
      // the deadline, or the connection closed meanwhile: the connect fails for what failed.
      if (!(await this.#released(deadline)) || this.#closing) throw outcome.error;
    }
    const probeMs = Math.max(1, Math.min(probeTimeoutMs, deadline - Date.now()));
    const target = this.config.transport;
    if (target.type === 'http') await this.#probeAndConnectHttp(target, deadline, probeMs);
    else await this.#probeAndConnectStdio(deadline, probeMs);
  }

  /**
   * Probes a fresh process. `modern`: no initialize. `legacy` (the server answered the probe):
   * initialize on the same process, and an error is the failure. `silent`: initialize on the
   * same process, still listening for a late `DiscoverResult` (a slow starter), which wins. A
   * process that exits on the probe, or on the `initialize` after it (one that choked on the
   * probe), is replaced once by a fresh one that is initialized without a probe. The era found
   * is remembered.
   */
  async #probeAndConnectStdio(deadline: number, probeMs: number): Promise<void> {
    const transport = this.#freshTransport();
    const probed = await this.#probe(transport, probeMs);
    if (probed === 'modern') return this.#connectModern(transport);
    if (probed !== 'closed') {
      const outcome = await this.#initialize(transport, deadline, { lateProbe: probed === 'silent' });
      if (outcome.type === 'modern') {
        this.#discover = outcome.discover;
        return this.#connectModern(transport);
      }
      if (outcome.type === 'ready') return this.#remember('legacy');
      if (!outcome.closed || this.#closing) throw outcome.error;
    }
    const fresh = await this.#initialize(this.#freshTransport(), deadline, { lateProbe: false });
    if (fresh.type === 'failed') throw fresh.error;
    this.#remember('legacy');
  }

  /**
   * Streamable HTTP: one `server/discover` POST, capped like the stdio probe, then `initialize`
   * with the SDK's transport (and the rest of the connect timeout) unless the server is modern.
   * When the probe got no answer and the server then refuses `initialize` as only a modern
   * server does, it was a modern server too slow to answer: this attempt fails, and as nothing
   * is remembered the next connect probes again. Throws why it failed.
   */
  async #probeAndConnectHttp(
    target: Extract<ServerConfig['transport'], { type: 'http' }>,
    deadline: number,
    probeMs: number
  ): Promise<void> {
    const probed = await this.#probeHttp(target, probeMs);
    if (probed === 'modern') {
      // No initialize and no session: each request is its own POST, enveloped by modernRequest.
      return this.#connectModern(this.#freshTransport({ era: 'modern' }));
    }
    const outcome = await this.#initialize(this.#freshTransport(), deadline, { lateProbe: false });
    if (outcome.type === 'failed') {
      const refusal = probed === 'silent' && !this.#closing ? jsonRpcErrorOf(outcome.error) : undefined;
      if (refusal && isModernErrorCode(refusal.code)) {
        throw new Error(
          `The server refused initialize as an MCP ${MODERN_PROTOCOL_VERSION} server does (${refusal.code}: ${refusal.message}) but answered server/discover too slowly; it will be probed again on the next connect.`
        );
      }
      throw outcome.error;
    }
    this.#remember('legacy');
  }

  /**
   * A server set to MCP 2026-07-28: it must answer `server/discover` with a `DiscoverResult` within
   * the connect timeout; nothing else is tried (no `initialize`). Throws why it failed.
   */
  async #connectPinnedModern(deadline: number): Promise<void> {
    // Silence is only slowness here (a first `npx` run): the probe may take the whole connect timeout.
    const probeMs = Math.max(1, deadline - Date.now());
    const target = this.config.transport;
    const transport = target.type === 'http' ? undefined : this.#freshTransport();
    const probed =
      target.type === 'http' ? await this.#probeHttp(target, probeMs) : await this.#probe(transport!, probeMs);
    if (probed === 'modern') {
      return this.#connectModern(transport ?? this.#freshTransport({ era: 'modern' }));
    }
    const exit = this.#exitWatch?.exit;
    const why =
      probed === 'silent'
        ? // The whole connect's timeout, as the other unanswered connects say it (the probe had all of it).
          `it did not answer server/discover in ${durationText(this.#options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS)}`
        : probed === 'closed'
          ? exit
            ? `it ${exitWords(exit)} before it answered server/discover`
            : 'it closed the connection on server/discover'
          : target.type === 'http'
            ? 'server/discover did not bring a DiscoverResult (the server refused it, could not be reached, or speaks MCP 2025-11-25)'
            : 'it answered server/discover as an MCP 2025-11-25 server does';
    const text = `The server is set to MCP ${MODERN_PROTOCOL_VERSION}, but ${why}. Set its protocol to "auto" or 2025-11-25 if it speaks the earlier revision.`;
    // Silence or an exit may be explained by what the process wrote; an answer is explained by itself.
    throw probed === 'legacy' ? new AnsweredError(text) : new Error(text);
  }

  /** Hands a transport to a modern server's client: no initialize, it only carries requests and answers. */
  async #connectModern(transport: Transport): Promise<void> {
    await connectWithoutInitialize(this.client, transport);
    this.#remember('modern');
  }

  /**
   * Initializes the client on `transport` within the deadline. `modern` when a late answer to
   * an unanswered probe (`lateProbe`) made the server modern meanwhile; `failed` says whether
   * the transport closed by itself, which a caller may answer with a fresh process.
   */
  async #initialize(
    transport: Transport,
    deadline: number,
    options: { lateProbe: boolean }
  ): Promise<
    | { type: 'ready' }
    | { type: 'modern'; discover: DiscoverResult }
    | { type: 'failed'; error: unknown; closed: boolean }
  > {
    const watch = watchInitialize(transport, { ...options, onModern: () => this.#modernWire.add(transport) });
    let failure: { error: unknown } | undefined;
    try {
      await this.#initializeBy(transport, deadline);
    } catch (error) {
      // An answer the SDK could not accept is the whole reason, in words rather than the SDK's.
      const text = initializeFailureText(error, { pinnedLegacy: this.config.protocol === '2025-11-25' });
      failure = { error: text === undefined ? error : new AnsweredError(text, { cause: error }) };
    }
    // A server refused initialize before answering the probe (both lines arrived together): wait for that answer, which tells whether it is modern.
    const refused = watch.refused;
    const late = watch.late ?? (refused && (await watch.lateAnswer(Math.max(0, deadline - Date.now()))));
    watch.stop();
    if (late && late.era === 'modern') return { type: 'modern', discover: late.discover };
    if (late && late.era === 'unsupported')
      return { type: 'failed', error: new AnsweredError(late.reason), closed: false };
    if (this.#closing) return { type: 'failed', error: new Error('Disconnected while connecting'), closed: false };
    if (refused && late?.era === 'legacy')
      return { type: 'failed', error: new McpError(refused.code, refused.message), closed: false };
    if (refused) {
      const error = new AnsweredError(
        `The server refused initialize (${refused.code}: ${refused.message}) and did not answer server/discover in time`
      );
      return { type: 'failed', error, closed: false };
    }
    return failure ? { type: 'failed', error: failure.error, closed: watch.closed } : { type: 'ready' };
  }

  /**
   * `client.connect` (the `initialize` exchange) by the deadline. `initialize` must not be
   * cancelled (MCP 2025-11-25, cancellation), and the SDK cancels a request whose own timeout
   * runs out: that timeout is kept out of the way, and when the deadline passes the connection is
   * given up instead, by closing the transport. That close is Taskdesk's, so it reads neither as
   * an exit nor as a server that hung up ({@link watchStdioExit}, `watchInitialize`), and the
   * failure is the SDK's own timeout error, as before.
   */
  async #initializeBy(transport: Transport, deadline: number): Promise<void> {
    const timeoutMs = Math.max(1, deadline - Date.now());
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<'expired'>((resolve) => (timer = setTimeout(() => resolve('expired'), timeoutMs)));
    const connecting = this.client.connect(transport, { timeout: SDK_TIMEOUT_OUT_OF_THE_WAY_MS });
    try {
      if ((await Promise.race([connecting, expired])) !== 'expired') return;
    } finally {
      clearTimeout(timer);
    }
    // The close fails the pending initialize ("Connection closed"): the timeout below is the reason.
    connecting.catch(() => undefined);
    await transport.close().catch(() => undefined);
    throw new McpError(ErrorCode.RequestTimeout, 'Request timed out', { timeout: timeoutMs });
  }

  /**
   * Resolves once the client has let go of its transport after a failed `initialize` (the SDK's
   * client closes it, and lets go only when the transport reports the close: over stdio, when the
   * process is gone, which for one that outlives its stdin is the SDK's SIGTERM two seconds
   * later): true then, false at the deadline if it still holds it.
   */
  async #released(deadline: number): Promise<boolean> {
    const transport = this.client.transport;
    if (!transport) return true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const closed = new Promise<boolean>((resolve) => {
      const onclose = transport.onclose;
      transport.onclose = () => {
        onclose?.();
        resolve(true);
      };
      timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
    });
    await this.client.close().catch(() => undefined);
    const released = await closed;
    clearTimeout(timer);
    return released || this.client.transport === undefined;
  }

  /** The era remembered for this server (its identity), if any. */
  #remembered(): ProtocolEra | undefined {
    return this.#options.eras?.get(this.#eraKey());
  }

  #remember(era: ProtocolEra): void {
    this.#options.eras?.set(this.#eraKey(), era);
  }

  /** Forgets the remembered era: a connect that fails before finding one leaves the next to probe. */
  #forget(): void {
    this.#options.eras?.forget(this.#eraKey());
  }

  /** The era belongs to the server, not to whoever is signed in to it: remembered without the grant. */
  #eraKey(): string {
    return ownerIdentity(this.config);
  }

  /**
   * A transport for the next attempt (the one before it, unless the client owns it, is closed);
   * its stderr alone is quoted in a failure reason. Throws when it cannot be built or the
   * connection is being closed.
   */
  #freshTransport(context?: { era: 'modern' }): Transport {
    if (this.#closing) throw new Error('Disconnected while connecting');
    const previous = this.#current;
    if (previous && this.client.transport !== previous) void previous.close().catch(() => undefined);
    this.#current = undefined;
    this.#stderr = new StderrTail();
    this.#exitWatch = undefined;
    let inner: Transport;
    try {
      inner = this.#options.transportFactory
        ? this.#options.transportFactory(this.config, context)
        : this.#defaultTransport(context);
    } catch (error) {
      // A missing command says so in its own words (and which directories were searched).
      if (error instanceof CommandNotFoundError) throw error;
      throw new Error(`the transport could not be started: ${toErrorData(error).message}`, { cause: error });
    }
    // Every request a server sends is checked and counted before the SDK dispatches it; a modern
    // server's are dropped unanswered (its revision has no server-initiated requests).
    const modern = (): boolean => this.#modernWire.has(transport) || this.#discover !== undefined;
    const transport: GatedTransport = new GatedTransport(inner, {
      admit: () => this.#options.receiver.admitRequest(this.owner),
      dropsRequests: modern,
      handles: (method) => handlesRequest(this.client, method)
    });
    if (this.config.protocol === MODERN_PROTOCOL_VERSION) this.#modernWire.add(transport);
    this.#current = transport;
    if (inner instanceof GuardedStdioTransport) {
      inner.onDrop = (reason) => this.#dropped(transport, reason);
      // Nor does a modern server get answers to lines the reader refuses: no responses at all.
      inner.sendsNoResponses = modern;
      if (this.#options.ignored) inner.onIgnored = this.#options.ignored;
      if (this.#options.throttled) inner.onThrottle = this.#options.throttled;
    }
    if (inner instanceof StdioClientTransport) {
      this.#exitWatch = watchStdioExit(inner);
      this.#stderrStream = inner.stderr ?? undefined;
      inner.stderr?.on('data', (chunk: Buffer) => {
        if (this.#current === transport) this.#stderr.append(chunk.toString('utf8'));
      });
    }
    return transport;
  }

  /**
   * The current server stopped reading and was dropped: the state says so at once, without
   * waiting for the process to exit (the SDK's close may take seconds to stop it).
   */
  #dropped(transport: Transport, reason: string): void {
    if (this.#current !== transport || this.#closing) return;
    this.#dropReason = reason;
    if (this.#state.status === 'ready') this.#setState({ status: 'failed', reason });
  }

  /**
   * What the current process wrote to stderr, for a failure reason: the line that names the
   * error, else its last lines ({@link StderrTail.summary}), its secrets hidden before it is cut.
   */
  #stderrTail(): string {
    return this.#stderr.summary((text) => redactServerText(text, this.config));
  }

  /** Words for an HTTP error status (or a failed OAuth sign-in) of a Streamable HTTP server. */
  #httpFailureText(error: unknown): string | undefined {
    const transport = this.config.transport;
    if (transport.type !== 'http') return undefined;
    return httpFailureText(error, {
      url: redactUrl(transport.url),
      redact: (text) => redactServerText(text, this.config)
    });
  }

  /** The latest process's stderr stream (stdio), for a caller that waits for a line on it. */
  get stderrStream(): Stream | undefined {
    return this.#stderrStream;
  }

  /** What the latest process wrote to stderr (bounded: see {@link StderrTail}), unredacted. */
  get stderr(): { text: string; truncated: boolean } {
    return { text: this.#stderr.text, truncated: this.#stderr.truncated };
  }

  /** The SDK transports, the stdio command found on {@link ServerConnectionOptions.stdioPath} first. */
  #defaultTransport(context: { era?: 'modern' } | undefined): Transport {
    const transport = this.config.transport;
    if (transport.type === 'http')
      return defaultTransport(this.config, context, undefined, this.#options.httpFetch, this.#extraHeaders);
    const target = stdioSpawnTarget(transport, this.#options.stdioPath, this.#options.stdioEnv);
    this.#executable = target.executable;
    return new GuardedStdioTransport(target.params, this.#options.stdioLimits);
  }

  /**
   * The stdio backward-compatibility probe: `modern` (the discover result is kept), `legacy`
   * (answered: initialize on the same transport), `silent` (no answer: the same, listening for a
   * late one) or `closed` (initialize on a fresh one). A modern server without a version in
   * common throws, failing the connection with that reason.
   */
  async #probe(transport: Transport, timeoutMs: number): Promise<'modern' | 'legacy' | 'silent' | 'closed'> {
    return this.#eraOf(await probeEra(transport, this.#clientInfo, timeoutMs, () => this.#modernWire.add(transport)));
  }

  /** What a probe found, for either transport: a modern server's discover result is kept. */
  #eraOf(probe: EraProbe): 'modern' | 'legacy' | 'silent' | 'closed' {
    if (this.#closing) throw new Error('Disconnected while connecting');
    if (probe.era === 'unsupported') throw new AnsweredError(probe.reason);
    if (probe.era === 'modern') this.#discover = probe.discover;
    return probe.era;
  }

  /**
   * The Streamable HTTP era probe: `modern` (the discover result is kept), `legacy` (initialize
   * with the SDK's transport, as before) or `silent` (no answer in time: the same). A modern
   * server that refuses the probe, or has no version in common, throws, failing the connection
   * with that reason.
   */
  async #probeHttp(
    target: Extract<ServerConfig['transport'], { type: 'http' }>,
    timeoutMs: number
  ): Promise<'modern' | 'legacy' | 'silent'> {
    this.#probingHttp = new AbortController();
    try {
      const era = this.#eraOf(
        await probeHttpEra(target, this.#clientInfo, timeoutMs, this.#probingHttp.signal, this.#options.httpFetch)
      );
      // A connection that failed outright says as little as an error answer: initialize as before.
      return era === 'closed' ? 'legacy' : era;
    } finally {
      this.#probingHttp = undefined;
    }
  }

  /** The connection is up: the state records what the server said about itself. */
  #ready(): ConnectionState {
    const discover = this.#discover;
    if (discover) {
      const serverInfo = serverInfoOf(discover);
      this.#setState({
        status: 'ready',
        era: 'modern',
        protocolVersion: MODERN_PROTOCOL_VERSION,
        ...(serverInfo && { serverInfo }),
        capabilities: { ...discover.capabilities }
      });
      return this.state;
    }
    const version = this.client.getServerVersion();
    const capabilities = this.client.getServerCapabilities();
    this.#setState({
      status: 'ready',
      era: 'legacy',
      ...(version && { serverInfo: { name: version.name, version: version.version } }),
      ...(this.client.transport &&
      'protocolVersion' in this.client.transport &&
      typeof this.client.transport.protocolVersion === 'string'
        ? { protocolVersion: this.client.transport.protocolVersion }
        : {}),
      ...(capabilities && { capabilities })
    });
    return this.state;
  }

  /**
   * Closes the session; work of tasks already created goes on and their results stay.
   *
   * `by` says who asked, in the closed state's reason: the person's Disconnect reads as theirs.
   */
  async close(by: ClosedBy = 'taskdesk'): Promise<void> {
    // A close already under way keeps who asked for it first.
    if (!this.#closing) this.#closedBy = by;
    this.#closing = true;
    const current = this.#current;
    const owned = this.client.transport === current;
    await this.client.close().catch(() => undefined);
    // A transport the client does not own (during the probe, or between attempts) is closed too.
    if (!owned) await current?.close().catch(() => undefined);
    this.#probingHttp?.abort();
    this.#setState({ status: 'closed', reason: closedReason(this.#closedBy) });
  }

  /** Sends `notifications/tasks/status` with the full task (no related-task metadata, per spec). */
  async notifyStatus(task: TaskView): Promise<void> {
    if (this.#state.status !== 'ready') return;
    await this.client
      .notification({ method: 'notifications/tasks/status', params: { ...task } })
      .catch(() => undefined);
  }

  /** Sends a progress notification; tagged with the task when it belongs to one. */
  async notifyProgress(
    taskId: string | undefined,
    progressToken: string | number,
    progress: number,
    total?: number,
    message?: string
  ): Promise<void> {
    if (this.#state.status !== 'ready') return;
    await this.client
      .notification({
        method: 'notifications/progress',
        params: {
          progressToken,
          progress,
          ...(total !== undefined && { total }),
          ...(message !== undefined && { message }),
          ...(taskId !== undefined && { _meta: { [RELATED_TASK_META_KEY]: { taskId } } })
        }
      })
      .catch(() => undefined);
  }

  /** Records and reports a state; a close reported again (by close() and the connect or client it ended) is one close. */
  #setState(state: ConnectionState): void {
    if (state.status === 'closed' && this.#state.status === 'closed') return;
    this.#state = this.#executable !== undefined ? { ...state, executable: this.#executable } : state;
    this.#options.onState(this.state);
  }

  #registerHandlers(): void {
    const receiver = this.#options.receiver;
    const owner = () => this.owner;
    const inbound =
      (kind: TaskKind) => async (request: { params: Record<string, unknown> }, extra: { signal: AbortSignal }) => {
        const params = request.params;
        const meta = params._meta as Record<string, unknown> | undefined;
        const progressToken = meta?.progressToken as string | number | undefined;
        const relatedTaskId = (meta?.[RELATED_TASK_META_KEY] as { taskId?: unknown } | undefined)?.taskId;
        const info = {
          ...(progressToken !== undefined && { progressToken }),
          ...(typeof relatedTaskId === 'string' && { relatedTaskId })
        };
        return rethrow(async () => {
          // The signal too: a task whose request is cancelled before it is acknowledged is not left behind.
          if (params.task !== undefined && params.task !== null)
            return receiver.create(owner(), kind, params, { ...info, signal: extra.signal });
          return receiver.runOrdinary(owner(), kind, params, { ...info, signal: extra.signal });
        });
      };
    cancelAnyRequestId(this.client);
    setServerRequestHandler(this.client, CreateMessageRequestSchema, inbound('sampling'));
    setServerRequestHandler(this.client, ElicitRequestSchema, inbound('elicitation'));
    this.client.setRequestHandler(ListRootsRequestSchema, () => listRootsResult(this.#options.roots?.() ?? []));
    this.client.setRequestHandler(GetTaskRequestSchema, (request) =>
      rethrow(() => receiver.get(owner(), request.params.taskId))
    );
    this.client.setRequestHandler(GetTaskPayloadRequestSchema, async (request, extra) =>
      rethrow(async () => {
        const taskId = request.params.taskId;
        const outcome = await receiver.result(owner(), taskId, extra.signal);
        if (outcome.type === 'error')
          throw new HostError(outcome.error.code, outcome.error.message, outcome.error.data);
        const result = outcome.result;
        const resultMeta = (result._meta as Record<string, unknown> | undefined) ?? {};
        return { ...result, _meta: { ...resultMeta, [RELATED_TASK_META_KEY]: { taskId } } };
      })
    );
    this.client.setRequestHandler(ListTasksRequestSchema, (request) =>
      rethrow(() => receiver.list(owner(), request.params?.cursor))
    );
    this.client.setRequestHandler(CancelTaskRequestSchema, async (request) =>
      rethrow(async () => receiver.cancel(owner(), request.params.taskId))
    );
  }
}

/**
 * Runs a handler body so that whatever it throws reaches the SDK as `{ code, message, data }`.
 *
 * A plain message (no "MCP error" prefix) goes on the wire; an ordinary request and the
 * `tasks/result` replay of the same failure therefore send the same error.
 */
async function rethrow<T>(body: () => T | Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof HostError) throw error;
    const data = toErrorData(error);
    throw new HostError(data.code, data.message, data.data);
  }
}

/**
 * Whether a failed connect ended without an answer from the server: the connection closed (or
 * could no longer be written to), or no answer came in time. When its process had exited, that
 * exit is the better reason.
 */
function endedUnanswered(error: unknown): boolean {
  if (error instanceof McpError)
    return error.code === Number(ErrorCode.ConnectionClosed) || error.code === Number(ErrorCode.RequestTimeout);
  return error instanceof Error && error.message === 'Not connected';
}

/**
 * Whether a failed connect is the server's own answer: an {@link AnsweredError}, or an error
 * the server answered `initialize` with (any `McpError` but the SDK's own for a closed
 * connection or a timeout).
 */
function answered(error: unknown): boolean {
  if (error instanceof AnsweredError) return true;
  return error instanceof McpError && !endedUnanswered(error);
}

/** Error codes of a server that could not be reached at all over HTTP (nothing listens, no such host). */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * Whether a failed `initialize` says nothing about the server's era: the process could not be
 * started (no such command, no permission: a `spawn` error), the HTTP server could not be
 * reached, or no answer came within the connect timeout. Any other failure (an error answer of
 * whatever code, an HTTP status, an exit) may mean that the server changed era.
 */
function saysNothingAboutEra(error: unknown): boolean {
  if (error instanceof CommandNotFoundError) return true;
  if (error instanceof McpError && error.code === Number(ErrorCode.RequestTimeout)) return true;
  let cause: unknown = error;
  for (let depth = 0; depth < 4 && typeof cause === 'object' && cause !== null; depth++) {
    const { syscall, code } = cause as { syscall?: unknown; code?: unknown };
    if (typeof syscall === 'string' && syscall.startsWith('spawn')) return true;
    if (typeof code === 'string' && UNREACHABLE.has(code)) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}

function defaultTransport(
  config: ServerConfig,
  context: { era?: 'modern' } | undefined,
  stdioLimits: Partial<StdioLimits> | undefined,
  httpFetch: FetchLike | undefined,
  extraHeaders: ExtraHeaders
): Transport {
  const transport = config.transport;
  switch (transport.type) {
    case 'stdio':
      return new GuardedStdioTransport(stdioSpawnTarget(transport, undefined).params, stdioLimits);
    case 'http':
      if (context?.era === 'modern') return modernHttpTransport(transport, httpFetch, extraHeaders);
      return new StreamableHTTPClientTransport(new URL(transport.url), {
        ...(transport.headers && { requestInit: { headers: transport.headers } }),
        ...(httpFetch && { fetch: httpFetch })
      });
  }
}
