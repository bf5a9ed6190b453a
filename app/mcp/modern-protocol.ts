import { z } from 'zod';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, Progress } from '@modelcontextprotocol/sdk/types.js';
import { markStarted, watchCloseRequests } from './sdk-seams.js';

/**
 * The request envelope and era detection of the modern MCP generation (2026-07-28).
 *
 * Modern servers have no `initialize`: every request carries the protocol version, the
 * client's identity and its capabilities in `params._meta`, and `server/discover` tells what
 * the server is. Tasks are the extension `io.modelcontextprotocol/tasks` (SEP-2663).
 * Everything else about a connection (legacy `initialize`, the receiver) stays where it was.
 */

/** The modern revision Taskdesk speaks. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';
/** The legacy revisions Taskdesk speaks (through `initialize`). */
export const LEGACY_PROTOCOL_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];
/** The revisions Taskdesk speaks, in words for a reason: "2026-07-28, and 2024-11-05 to 2025-11-25". */
export const SPOKEN_VERSIONS = `${MODERN_PROTOCOL_VERSION}, and ${LEGACY_PROTOCOL_VERSIONS.at(-1)} to ${LEGACY_PROTOCOL_VERSIONS[0]}`;
/** The tasks extension's identifier, in `capabilities.extensions`. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/**
 * The `_meta` keys of the envelope. `@modelcontextprotocol/core` exports the same constants,
 * but it is not a run-time dependency of Taskdesk (only of the dev dependency
 * `@modelcontextprotocol/server`): these copies, and {@link DiscoverResultSchema}, are compared
 * with the installed package by `test/unit/mcp/sdk-seams.test.ts`.
 */
export const MetaKey = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  /** On what a `subscriptions/listen` stream carries: the JSON-RPC id of the request that opened it. */
  subscriptionId: 'io.modelcontextprotocol/subscriptionId'
} as const;

/** Error codes the modern revision adds. */
export const ModernErrorCode = {
  /** Streamable HTTP: the request headers are missing or disagree with its body (SEP-2243). */
  HeaderMismatch: -32020,
  /** The request needs a client capability the request did not declare. */
  MissingClientCapability: -32021,
  /** The server does not speak the version the request named; `data.supported` lists those it does. */
  UnsupportedProtocolVersion: -32022
} as const;

/** Which capabilities a modern request declares (see {@link modernClientCapabilities}). */
/**
 * How one request to a 2026-07-28 server is sent: whether its envelope declares the tasks
 * extension, its timeout, its abort, its progress, and `onRequestId`, told the request's JSON-RPC
 * id as it is sent (a `subscriptions/listen` stream is known by it), when the sender can tell it.
 */
export interface ModernRequestOptions {
  tasks: boolean;
  timeout: number;
  signal?: AbortSignal;
  onprogress?: (progress: Progress) => void;
  onRequestId?: (id: string | number) => void;
}

export interface ModernCapabilityOptions {
  /** Declare the tasks extension. */
  tasks: boolean;
  /** Declare sampling (false when the server's sampling policy refuses it). Default true. */
  sampling?: boolean;
}

/**
 * The client capabilities declared on modern requests: answers to the input requests a task
 * or a multi round-trip request may carry (elicitation forms and URLs, sampling with tools unless
 * the server's policy refuses sampling, roots) and, when asked for, the tasks extension. A server
 * should then only ask what Taskdesk can answer. Legacy's `tasks` capability (client-hosted
 * tasks) does not exist here, nor does `roots.listChanged`: this revision removed
 * `notifications/roots/list_changed`, since a server asks for roots in each request that needs them.
 */
export function modernClientCapabilities(options: ModernCapabilityOptions): Record<string, unknown> {
  return {
    ...(options.sampling !== false && { sampling: { tools: {} } }),
    elicitation: { form: {}, url: {} },
    roots: {},
    ...(options.tasks && { extensions: { [TASKS_EXTENSION]: {} } })
  };
}

/** The envelope of one modern request. */
export function envelope(
  clientInfo: { name: string; version: string },
  options: ModernCapabilityOptions
): Record<string, unknown> {
  return {
    [MetaKey.protocolVersion]: MODERN_PROTOCOL_VERSION,
    [MetaKey.clientInfo]: { ...clientInfo },
    [MetaKey.clientCapabilities]: modernClientCapabilities(options)
  };
}

/** `params` with the envelope merged into its `_meta` (keys the caller set in `_meta` stay). */
export function withEnvelope(
  params: Record<string, unknown> | undefined,
  meta: Record<string, unknown>
): Record<string, unknown> {
  const own = params?._meta;
  return { ...params, _meta: { ...(typeof own === 'object' && own !== null ? own : {}), ...meta } };
}

/** What `server/discover` answers (fields Taskdesk reads; others are kept). */
export const DiscoverResultSchema = z.looseObject({
  supportedVersions: z.array(z.string()),
  capabilities: z.record(z.string(), z.unknown()),
  instructions: z.string().optional(),
  _meta: z.record(z.string(), z.unknown()).optional()
});
export type DiscoverResult = z.infer<typeof DiscoverResultSchema>;

/** The server's self-description from a `DiscoverResult`, when it gave a well-formed one. */
export function serverInfoOf(discover: DiscoverResult): { name: string; version: string } | undefined {
  const parsed = z.object({ name: z.string(), version: z.string() }).safeParse(discover._meta?.[MetaKey.serverInfo]);
  return parsed.success ? { name: parsed.data.name, version: parsed.data.version } : undefined;
}

/** Whether a server's capabilities (from `server/discover`) include the tasks extension. */
export function declaresTasks(capabilities: Record<string, unknown> | undefined): boolean {
  const extensions = capabilities?.extensions;
  return typeof extensions === 'object' && extensions !== null && TASKS_EXTENSION in extensions;
}

/** What the `server/discover` probe learned. */
export type EraProbe =
  /** A `DiscoverResult` naming our version: a modern server. */
  | { era: 'modern'; discover: DiscoverResult }
  /** Any other error, or an unusable answer: a legacy server; `why` for the log. */
  | { era: 'legacy'; why: string }
  /**
   * No answer within the timeout: most likely a legacy server that ignores unknown requests, but
   * possibly a modern one slow to start, whose late answer {@link watchInitialize} listens for.
   */
  | { era: 'silent'; why: string }
  /** A modern server that speaks none of our versions: do not fall back to `initialize`. */
  | { era: 'unsupported'; reason: string }
  /** The transport closed during the probe (some legacy servers exit on an unknown request). */
  | { era: 'closed' };

const PROBE_ID = 'taskdesk-discover';

/**
 * Starts `transport` and sends `server/discover` before anything else (stdio backward
 * compatibility, MCP 2026-07-28): a `DiscoverResult` means modern, −32022 means modern with
 * other versions, −32020/−32021 a modern server refusing the probe, any other answer (an error
 * with the probe's id or `id: null`) means legacy, and no answer for `timeoutMs` is `silent`.
 *
 * Silence is not proof: a slow starter may answer later, which {@link watchInitialize} listens for.
 *
 * Never keyed to one error code. Afterwards the transport is started, has no handlers, and its
 * `start` does nothing, so an SDK `Client` can take it over (and `initialize` on it) as is.
 * `onModern` is called as the `DiscoverResult` is read, before the next line of the same chunk is.
 * Throws only what `transport.start()` throws (a command that cannot be spawned).
 */
export async function probeEra(
  transport: Transport,
  clientInfo: { name: string; version: string },
  timeoutMs: number,
  onModern?: () => void
): Promise<EraProbe> {
  let settle: (probe: EraProbe) => void = () => undefined;
  const outcome = new Promise<EraProbe>((resolve) => (settle = resolve));
  transport.onmessage = (message: JSONRPCMessage) => {
    const answer = probeAnswerOf(message, { orphanErrors: true });
    if (!answer) return;
    const probe = eraOfAnswer(answer);
    if (probe.era === 'modern') onModern?.();
    settle(probe);
  };
  transport.onclose = () => settle({ era: 'closed' });
  transport.onerror = () => undefined;
  await transport.start();
  const timer = setTimeout(
    () => settle({ era: 'silent', why: `no answer to server/discover in ${timeoutMs} ms` }),
    timeoutMs
  );
  try {
    await transport.send(discoverRequest(clientInfo)).catch(() => settle({ era: 'closed' }));
    return await outcome;
  } finally {
    clearTimeout(timer);
    transport.onmessage = undefined;
    transport.onclose = undefined;
    transport.onerror = undefined;
    markStarted(transport);
  }
}

/**
 * `message` as an answer to the probe: a result or error with the probe's id or, when
 * `orphanErrors`, an error without an id (`id: null`: a server that could not read the request
 * cannot echo it). The same rule the Streamable HTTP probe reads its answer with.
 */
export function probeAnswerOf(message: unknown, options: { orphanErrors: boolean }): ProbeAnswer | undefined {
  if (typeof message !== 'object' || message === null || 'method' in message) return undefined;
  const fields = message as { id?: unknown; result?: unknown; error?: unknown };
  if ('result' in fields && fields.id === PROBE_ID) return { result: fields.result };
  const error = fields.error as { code?: unknown; message?: unknown; data?: unknown } | undefined;
  if (
    typeof error !== 'object' ||
    error === null ||
    typeof error.code !== 'number' ||
    typeof error.message !== 'string'
  )
    return undefined;
  const ours = fields.id === PROBE_ID || (options.orphanErrors && (fields.id === null || fields.id === undefined));
  return ours
    ? { error: { code: error.code, message: error.message, ...(error.data !== undefined && { data: error.data }) } }
    : undefined;
}

/** What an answer to the probe says (silence and a closed transport are no answers). */
export type AnsweredEra = Extract<EraProbe, { era: 'modern' | 'unsupported' | 'legacy' }>;

/** One answer to `server/discover`, as {@link eraOfAnswer} reads it. */
export type ProbeAnswer = { result: unknown } | { error: { code: number; message: string; data?: unknown } };

/** The `server/discover` probe request (the same on every transport). */
export function discoverRequest(clientInfo: { name: string; version: string }): {
  jsonrpc: '2.0';
  id: string;
  method: 'server/discover';
  params: Record<string, unknown>;
} {
  return {
    jsonrpc: '2.0',
    id: PROBE_ID,
    method: 'server/discover',
    params: { _meta: envelope(clientInfo, { tasks: true }) }
  };
}

/**
 * What one answer to `server/discover` says about the server's era: a `DiscoverResult` naming
 * our version is modern, −32022 is modern with other versions (legacy when it names a legacy
 * version we speak), −32020/−32021 are a modern server's refusal (no fallback), anything else
 * is legacy. Read the same way on every transport.
 */
export function eraOfAnswer(answer: ProbeAnswer): AnsweredEra {
  return 'error' in answer ? fromError(answer.error) : fromResult(answer.result);
}

function fromResult(result: unknown): AnsweredEra {
  const parsed = DiscoverResultSchema.safeParse(result);
  if (!parsed.success) return { era: 'legacy', why: 'server/discover answered something that is not a DiscoverResult' };
  if (parsed.data.supportedVersions.includes(MODERN_PROTOCOL_VERSION)) return { era: 'modern', discover: parsed.data };
  return {
    era: 'unsupported',
    reason: `The server speaks MCP ${parsed.data.supportedVersions.join(', ') || '(no version)'}; Taskdesk speaks ${SPOKEN_VERSIONS}.`
  };
}

function fromError(error: { code: number; message: string; data?: unknown }): AnsweredEra {
  if (error.code === ModernErrorCode.HeaderMismatch || error.code === ModernErrorCode.MissingClientCapability) {
    // Codes only this revision defines: a modern server that refused the probe itself (no fallback to initialize).
    return {
      era: 'unsupported',
      reason: `The server speaks MCP ${MODERN_PROTOCOL_VERSION} or later but refused server/discover (${error.code}: ${error.message}).`
    };
  }
  if (error.code !== ModernErrorCode.UnsupportedProtocolVersion)
    return { era: 'legacy', why: `server/discover answered ${error.code}: ${error.message}` };
  const supported = z.object({ supported: z.array(z.string()) }).safeParse(error.data);
  const versions = supported.success ? supported.data.supported : [];
  // A dual-era server that refuses our modern version but names a legacy one we speak: initialize.
  if (versions.some((version) => LEGACY_PROTOCOL_VERSIONS.includes(version)))
    return { era: 'legacy', why: `server/discover: only ${versions.join(', ')}` };
  return {
    era: 'unsupported',
    reason: `The server does not speak MCP ${MODERN_PROTOCOL_VERSION}${versions.length ? ` (it speaks ${versions.join(', ')})` : ''}: ${error.message}`
  };
}

/** A late answer to the probe, which settles the era. */
export type LateProbe = AnsweredEra;

/** What {@link watchInitialize} saw while a client initialized on a transport. */
export interface InitializeWatch {
  /**
   * A late answer to the probe. One that makes the server modern (or modern without a version in
   * common) takes the transport from the client (see {@link watchInitialize}); a legacy one only
   * ends the watch: the server is legacy after all, and its answer to `initialize` stands.
   */
  readonly late: LateProbe | undefined;
  /**
   * The server refused `initialize` as only a modern server does (−32022, or no such method)
   * while the probe was unanswered: the transport was taken from the client to wait for that answer.
   */
  readonly refused: { code: number; message: string } | undefined;
  /** Whether the transport closed by itself (the server exited; not closed by the client) while watched. */
  readonly closed: boolean;
  /** After a refusal: waits up to `timeoutMs` for the probe's late answer (undefined when none came, or the server exited). */
  lateAnswer(timeoutMs: number): Promise<LateProbe | undefined>;
  /**
   * Stops watching. When the watch had taken the transport from the client, the handlers the
   * transport had before the watch are put back (a modern client then takes it over as is);
   * otherwise the client's handlers stay and the watch's, chained under them, do nothing more.
   */
  stop(): void;
}

/**
 * Watches a transport an SDK `Client` is about to initialize on. Call it just before
 * `client.connect(transport)`: the client chains the handlers set here.
 *
 * It notes whether the transport closed by itself (some legacy servers choke on the probe
 * and exit only on the next line, which is `initialize`). When `lateProbe` (the probe went
 * unanswered, and only then), it also keeps listening for the probe's id: a server slower to
 * start than the probe timeout answers `server/discover` late (and may refuse `initialize`
 * before it, as the two arrive together). A modern answer, or a modern refusal of `initialize`,
 * takes the transport back from the client: the client is told it closed (its pending
 * `initialize` fails), but the process is not stopped, so the caller can carry modern requests on it.
 * `onModern` is called as a late `DiscoverResult` is read, before the next line of its chunk is.
 */
export function watchInitialize(
  transport: Transport,
  options: { lateProbe: boolean; onModern?: () => void }
): InitializeWatch {
  const original = {
    onmessage: transport.onmessage,
    onclose: transport.onclose,
    onerror: transport.onerror
  };
  let late: LateProbe | undefined;
  let refused: InitializeWatch['refused'];
  let closed = false;
  /** Set once someone (the client, after a failed initialize) closes the transport: that close is not the server's. */
  let closeAsked = false;
  let watching = options.lateProbe;
  let stopped = false;
  let detached = false;
  let detaching = false;
  let wake: () => void = () => undefined;
  const woken = new Promise<void>((resolve) => (wake = resolve));
  const onClose = () => {
    if (detaching || stopped || closeAsked) return;
    closed = true;
    wake();
  };
  const listen = (message: JSONRPCMessage) => {
    if (!watching) return;
    const answer = probeAnswerOf(message, { orphanErrors: false });
    const probe = answer && eraOfAnswer(answer);
    if (probe?.era === 'modern' || probe?.era === 'unsupported') {
      if (probe.era === 'modern') options.onModern?.();
      watching = false;
      late = probe;
      detach();
      transport.onmessage = undefined;
      transport.onclose = undefined;
      wake();
      return;
    }
    if (probe) {
      // Answered late, as a legacy server: nothing more to watch for (a refusal already seen is its failure).
      watching = false;
      late = probe;
      wake();
      return;
    }
    const refusal = refused ? undefined : initializeRefusalOf(message);
    if (refusal) {
      refused = refusal;
      detach();
    }
  };
  /** Takes the transport from the client without closing it; only this watch listens afterwards. */
  const detach = () => {
    if (detached) return;
    detached = true;
    const clientClosed = transport.onclose;
    transport.onmessage = listen;
    transport.onclose = onClose;
    transport.onerror = undefined;
    detaching = true;
    try {
      clientClosed?.();
    } finally {
      detaching = false;
    }
  };
  transport.onmessage = listen;
  transport.onclose = onClose;
  const restoreClose = watchCloseRequests(transport, () => (closeAsked = true));
  return {
    get late() {
      return late;
    },
    get refused() {
      return refused;
    },
    get closed() {
      return closed;
    },
    async lateAnswer(timeoutMs: number) {
      if (late || closed) return late;
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([woken, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
      clearTimeout(timer);
      return late;
    },
    stop: () => {
      watching = false;
      stopped = true;
      restoreClose();
      if (!detached) return;
      transport.onmessage = original.onmessage;
      transport.onclose = original.onclose;
      transport.onerror = original.onerror;
    }
  };
}

/** An error answer to a request other than the probe that only a modern server gives to `initialize`. */
function initializeRefusalOf(message: JSONRPCMessage): { code: number; message: string } | undefined {
  if ('method' in message || !('error' in message)) return undefined;
  const { id, error } = message as { id?: unknown; error: { code?: unknown; message?: unknown } };
  if (id === PROBE_ID || id === null || id === undefined) return undefined;
  const modern = error.code === ModernErrorCode.UnsupportedProtocolVersion || error.code === -32601;
  return modern && typeof error.message === 'string'
    ? { code: error.code as number, message: error.message }
    : undefined;
}

/** Whether a JSON-RPC error code is one only the modern revision defines (−32022, −32020, −32021). */
export function isModernErrorCode(code: number | undefined): boolean {
  return (
    code === ModernErrorCode.UnsupportedProtocolVersion ||
    code === ModernErrorCode.HeaderMismatch ||
    code === ModernErrorCode.MissingClientCapability
  );
}
