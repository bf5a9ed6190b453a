import type { ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, type StdioServerParameters } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Protocol, type RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CancelledNotificationSchema,
  type JSONRPCMessage,
  type JSONRPCResultResponse
} from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { JsonRpcCode, type ErrorData } from '../core/errors.js';
import { isPlainResultResponse } from './jsonrpc-checks.js';
import { JsonRpcLineReader, defaultLineReaderLimits, type LineReaderLimits } from './line-reader.js';
import {
  BoundedWriteQueue,
  defaultWriteQueueLimits,
  type WriteQueueLimits,
  type WriteQueueStats
} from './write-queue.js';

/**
 * Every place Taskdesk works around the MCP SDK (1.32.2), in one module.
 *
 * Each seam names what it relies on; `test/unit/mcp/sdk-seams.test.ts` checks each of those
 * facts against the installed SDK, so an upgrade that changes one fails there first rather
 * than somewhere in the app.
 */

/** What the seams read of `StdioClientTransport`'s private state. */
interface StdioInternals {
  _process?: ChildProcess;
  _readBuffer: { append(chunk: Buffer): void; readMessage(): JSONRPCMessage | null; clear(): void };
}

/** Limits of one stdio connection: its outgoing queue and the messages it reads. */
export interface StdioLimits {
  queue: WriteQueueLimits;
  reader: LineReaderLimits;
}

/** Lines waiting to be read above which the server's stdout is paused. */
const BACKLOG_PAUSE_LINES = 1_024;

/** The defaults documented in the README. */
export const defaultStdioLimits: StdioLimits = { queue: defaultWriteQueueLimits, reader: defaultLineReaderLimits };

/**
 * The SDK's stdio client transport with a bounded outgoing queue and a reader that answers
 * what it cannot deliver (unless the server is to be written no responses: `sendsNoResponses`).
 *
 * Why: `StdioClientTransport.send` writes to the child's stdin without a bound and adds a
 * one-shot `drain` listener per write the pipe did not take; a server that stops reading
 * makes the host's memory grow without limit, and firing those listeners costs quadratic
 * time. Its `ReadBuffer` drops a line it cannot parse (no answer, even with a readable id) and
 * drops the whole connection on a line over 10 MiB.
 *
 * Relies on: `send` being the only writer of `_process.stdin`; the stdout `data` handler
 * calling `_readBuffer.append(chunk)` then reading `_readBuffer.readMessage()` until null
 * (and `close` calling `_readBuffer.clear()`). A server whose queue overflows is dropped:
 * `onDrop` gets the reason, then the process is closed (stdin destroyed, then the SDK's close).
 */
export class GuardedStdioTransport extends StdioClientTransport {
  /** Called once when the server is dropped for not reading, with the reason for its state. */
  onDrop?: (reason: string) => void;
  /**
   * Whether no response may be written to this server: true once it is known to speak
   * MCP 2026-07-28, whose stdio transport says "The client MUST NOT write JSON-RPC responses".
   * What the reader refuses (a line that is not JSON, a broken envelope) is then reported
   * through `onerror` and dropped, not answered.
   */
  sendsNoResponses?: () => boolean;
  /**
   * Told of each line from the server that was neither delivered nor answered (a broken
   * notification, or a refused line when `sendsNoResponses`), in words; `onerror` otherwise.
   */
  onIgnored?: (reason: string) => void;
  /**
   * Told each time the server's stdout is paused for sending large lines that are not delivered
   * faster than they are read (`LineReaderHooks.throttle`), with how long.
   */
  onThrottle?: (ms: number) => void;
  readonly #limits: StdioLimits;
  readonly #reader: JsonRpcLineReader;
  #queue: BoundedWriteQueue | undefined;
  #dropReason: string | undefined;
  #readScheduled = false;
  /** The stream corked for this turn's messages (see `send`), until the turn ends. */
  #corked: Writable | undefined;
  /** While set, the server's stdout stays paused (see `#throttle`). */
  #throttled: NodeJS.Timeout | undefined;
  #throttledUntil = 0;

  constructor(server: StdioServerParameters, limits: Partial<StdioLimits> = {}) {
    super(server);
    this.#limits = { ...defaultStdioLimits, ...limits };
    this.#reader = new JsonRpcLineReader(this.#limits.reader, {
      reply: (message) => {
        if (this.sendsNoResponses?.())
          this.#ignored(new Error(`Ignored a line from the server: ${refusalText(message)}`));
        else void this.send(message).catch(() => undefined);
      },
      dropped: (error) => this.#ignored(error),
      backlog: () => this.#readLater(),
      throttle: (ms) => this.#throttle(ms)
    });
    (this as unknown as StdioInternals)._readBuffer = this.#reader;
  }

  /** Why the server was dropped, once it was. */
  get dropReason(): string | undefined {
    return this.#dropReason;
  }

  /** The outgoing queue's figures (zeros before the first write). */
  get queueStats(): WriteQueueStats {
    return (
      this.#queue?.stats ?? {
        queuedBytes: 0,
        queuedMessages: 0,
        peakQueuedBytes: 0,
        peakQueuedMessages: 0,
        drainListeners: 0
      }
    );
  }

  /**
   * Messages sent in one turn (the polls of many tasks due together, see `TaskTimers`) go to the
   * pipe in one write at the end of it, not in a system call and a wake-up of the server each:
   * the stream is corked at the first and uncorked once the turn's code has run.
   */
  override send(message: JSONRPCMessage): Promise<void> {
    const stdin = (this as unknown as StdioInternals)._process?.stdin;
    if (!stdin) return Promise.reject(new Error('Not connected'));
    this.#queue ??= new BoundedWriteQueue(stdin, this.#limits.queue, (reason) => this.#drop(stdin, reason));
    if (!this.#corked && stdin.writable) {
      this.#corked = stdin;
      stdin.cork();
      process.nextTick(this.#uncork);
    }
    return this.#queue.write(serializeMessage(message));
  }

  readonly #uncork = (): void => {
    const stdin = this.#corked;
    this.#corked = undefined;
    if (stdin && !stdin.destroyed) stdin.uncork();
  };

  override async close(): Promise<void> {
    this.#queue?.clear();
    clearTimeout(this.#throttled);
    this.#throttled = undefined;
    await super.close();
  }

  /** Reads nothing from the server for `ms` (already paused: until the later of the two ends). */
  #throttle(ms: number): void {
    const stdout = (this as unknown as StdioInternals)._process?.stdout;
    if (!stdout) return;
    stdout.pause();
    const until = performance.now() + ms;
    if (this.#throttled !== undefined && until <= this.#throttledUntil) return;
    clearTimeout(this.#throttled);
    this.#throttledUntil = until;
    this.#throttled = setTimeout(() => {
      this.#throttled = undefined;
      if (this.#reader.waiting <= BACKLOG_PAUSE_LINES && !stdout.destroyed) stdout.resume();
    }, ms);
    this.#throttled.unref();
    this.onThrottle?.(ms);
  }

  /**
   * Reads the lines left over on the next turn, as the SDK's own loop would (each delivered
   * message in its own try), and stops reading the server's stdout while many wait, so the
   * pipe slows a flooding server down instead of the host buffering its flood.
   */
  #readLater(): void {
    const stdout = (this as unknown as StdioInternals)._process?.stdout;
    if (this.#reader.waiting > BACKLOG_PAUSE_LINES && stdout && !stdout.isPaused()) stdout.pause();
    if (this.#readScheduled) return;
    this.#readScheduled = true;
    // Two hops: an immediate set in a data event (the poll phase) runs before the event loop polls
    // again, so the rest would be read before any other server's input that came meanwhile; one
    // set from an immediate runs after the next poll.
    setImmediate(() => setImmediate(this.#readTurn));
  }

  /** A turn of reading, after the event loop polled (see {@link JsonRpcLineReader}). */
  readonly #readTurn = (): void => {
    const stdout = (this as unknown as StdioInternals)._process?.stdout;
    this.#readScheduled = false;
    this.#reader.nextTurn();
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.#reader.readMessage();
      } catch (error) {
        this.onerror?.(error as Error);
        continue;
      }
      if (message === null) break;
      try {
        this.onmessage?.(message);
      } catch (error) {
        this.onerror?.(error as Error);
      }
    }
    if (this.#reader.waiting === 0 && this.#throttled === undefined && stdout?.isPaused()) stdout.resume();
  };

  #ignored(error: Error): void {
    if (this.onIgnored) this.onIgnored(error.message);
    else this.onerror?.(error);
  }

  #drop(stdin: Writable, reason: string): void {
    this.#dropReason = reason;
    this.#reader.stop();
    // What the pipe still holds is freed now; the process is stopped by the SDK's close.
    stdin.destroy();
    this.onDrop?.(reason);
    void this.close().catch(() => undefined);
  }
}

/** What the reader would have answered a refused line with, in words. */
function refusalText(message: JSONRPCMessage): string {
  return 'error' in message ? message.error.message : 'not a valid JSON-RPC message';
}

/** How a stdio server's process ended: its exit code, or the signal that stopped it (Node's `exit` event). */
export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * Notes how the process of a stdio transport ended, when it ended by itself: the SDK tells only
 * that the connection closed, so a server that exited with code 1 at start read the same as one
 * that hung up or broke the protocol. An exit after Taskdesk asked the transport to close (it ends
 * the child's stdin, then signals it) is Taskdesk's doing and is not noted.
 *
 * Relies on: `start()` spawning the child into the private `_process`, which it holds once `start`
 * resolves (and clears on its `close` event, which Node emits after `exit`: the exit is noted
 * before the transport's `onclose`); and `close()` being the one way the transport is closed
 * (`GuardedStdioTransport` drops a server through it too).
 */
export function watchStdioExit(transport: StdioClientTransport): { readonly exit: ProcessExit | undefined } {
  let exit: ProcessExit | undefined;
  let closeAsked = false;
  const start = transport.start.bind(transport);
  transport.start = async () => {
    await start();
    const child = (transport as unknown as StdioInternals)._process;
    if (!child) return;
    const note = (code: number | null, signal: NodeJS.Signals | null) => {
      if (!closeAsked) exit ??= { code, signal };
    };
    // Node emits `exit` on a later turn than `spawn`; an exit already seen is read from the child.
    if (child.exitCode !== null || child.signalCode !== null) note(child.exitCode, child.signalCode);
    else child.once('exit', note);
  };
  const close = transport.close.bind(transport);
  transport.close = () => {
    closeAsked = true;
    return close();
  };
  return {
    get exit() {
      return exit;
    }
  };
}

/**
 * Connects a client to a modern (2026-07-28) server without `initialize`.
 *
 * Relies on: `Protocol.prototype.connect` wiring the transport's handlers and starting it,
 * and `Client.prototype.connect` adding only the `initialize` exchange on top.
 */
export function connectWithoutInitialize(client: Client, transport: Transport): Promise<void> {
  const before = transport.onmessage;
  const connecting = Protocol.prototype.connect.call(client, transport);
  if (client instanceof HostClient) dispatchResponsesLean(client, transport, before);
  return connecting;
}

/** What {@link HostClient} reads and calls of `Protocol`'s private state to take a response. */
interface ResponseInternals {
  _requestResolvers: Map<number, (response: JSONRPCMessage) => void>;
  _responseHandlers: Map<number, (response: JSONRPCMessage) => void>;
  _progressHandlers: Map<number, unknown>;
  _taskProgressTokens: Map<string, number>;
  _cleanupTimeout(messageId: number): void;
  _onerror(error: Error): void;
}

/**
 * The SDK's `Client`, taking a well-formed result response without checking it three more times.
 *
 * Why: the SDK's `Protocol` checks every incoming message against `JSONRPCResultResponseSchema`
 * once to route it and twice more in `_onresponse`, and zod copies the message's `result` (a
 * loose object) each time: three copies of every answer to every poll of every followed task,
 * which showed as the largest allocation of `bench:requestor`'s Taskdesk side after the polls
 * themselves. The line reader has already read each message against the SDK's envelope schemas
 * (`asJsonRpcMessage`); a result response that `isPlainResultResponse` vouches for (one the
 * schema would take and give back unchanged) is handed to its request as `_onresponse` would
 * hand it, and everything else (errors, requests, notifications, a result with anything unusual
 * in it) goes through the SDK's own dispatch. The request's own result schema still reads the
 * result (lean for the requestor's polls, see `lean-schemas.ts`).
 *
 * Relies on: `Protocol.connect` setting `transport.onmessage` before its first `await`, to a
 * dispatcher that calls the transport's earlier `onmessage` first and routes a result response
 * to `_onresponse`; and `_onresponse` doing, for a result response, only what
 * {@link takeResultResponse} does, with the private `_requestResolvers`, `_responseHandlers`,
 * `_progressHandlers`, `_taskProgressTokens`, `_cleanupTimeout` and `_onerror`. Should any of
 * those be missing (another SDK), the SDK's dispatch is kept.
 */
export class HostClient extends Client {
  override connect(transport: Transport, options?: RequestOptions): Promise<void> {
    const before = transport.onmessage;
    const connecting = super.connect(transport, options);
    dispatchResponsesLean(this, transport, before);
    return connecting;
  }
}

function dispatchResponsesLean(client: Client, transport: Transport, before: Transport['onmessage'] | undefined): void {
  const sdkDispatch = transport.onmessage;
  const internals = client as unknown as Partial<ResponseInternals>;
  if (
    !sdkDispatch ||
    !(internals._requestResolvers instanceof Map) ||
    !(internals._responseHandlers instanceof Map) ||
    !(internals._progressHandlers instanceof Map) ||
    !(internals._taskProgressTokens instanceof Map) ||
    typeof internals._cleanupTimeout !== 'function' ||
    typeof internals._onerror !== 'function'
  )
    return;
  const complete = internals as ResponseInternals;
  transport.onmessage = (message, extra) => {
    if (!('result' in message) || !isPlainResultResponse(message)) {
      sdkDispatch(message, extra);
      return;
    }
    before?.(message, extra);
    takeResultResponse(complete, message);
  };
}

/** `Protocol._onresponse` for a result response the SDK's schema would take unchanged. */
function takeResultResponse(internals: ResponseInternals, response: JSONRPCResultResponse): void {
  const messageId = Number((response as { id: unknown }).id);
  const resolver = internals._requestResolvers.get(messageId);
  if (resolver) {
    internals._requestResolvers.delete(messageId);
    resolver(response);
    return;
  }
  const handler = internals._responseHandlers.get(messageId);
  if (handler === undefined) {
    internals._onerror(new Error(`Received a response for an unknown message ID: ${JSON.stringify(response)}`));
    return;
  }
  internals._responseHandlers.delete(messageId);
  internals._cleanupTimeout(messageId);
  // A CreateTaskResult keeps its request's progress handler, as the SDK does, for the task's progress.
  const task: unknown = response.result.task;
  if (typeof task === 'object' && task !== null && typeof (task as { taskId?: unknown }).taskId === 'string')
    internals._taskProgressTokens.set((task as { taskId: string }).taskId, messageId);
  else internals._progressHandlers.delete(messageId);
  handler(response);
}

/**
 * A request timeout the SDK never reaches: when its own timeout runs out, `Protocol.request`
 * sends `notifications/cancelled`, which `initialize` must never get (MCP 2025-11-25,
 * cancellation). The connect deadline is kept by the caller instead. The longest delay Node's
 * `setTimeout` takes (a longer one fires at once); `app/requestor` keeps its own copy.
 */
export const SDK_TIMEOUT_OUT_OF_THE_WAY_MS = 2 ** 31 - 1;

/**
 * The abort signal of one request, as `Protocol.request` reads one, for a fraction of what a Node
 * `AbortController` costs (its signal is an EventTarget, with a map of listeners and a record per
 * listener): the requestor gives one to every poll, thousands a minute with many tasks followed,
 * and the controllers showed among the requestor benchmark's largest allocations.
 *
 * Relies on: `Protocol.request` reading its `signal` only through `throwIfAborted()`, `aborted`,
 * `reason` and `addEventListener('abort', listener)`, and passing it nowhere else (not to the
 * transport). Only for `Client.request` and what calls it; anything else gets a real signal.
 */
export class RequestAbort {
  aborted = false;
  reason: unknown = undefined;
  /** The SDK adds one listener a request; more are kept too. */
  #listener: (() => void) | undefined;
  #more: Array<() => void> | undefined;

  /** This, typed as the signal a request's options take. */
  get signal(): AbortSignal {
    return this as unknown as AbortSignal;
  }

  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }

  addEventListener(type: string, listener: () => void): void {
    if (type !== 'abort' || this.aborted) return;
    if (this.#listener === undefined) this.#listener = listener;
    else (this.#more ??= []).push(listener);
  }

  removeEventListener(type: string, listener: () => void): void {
    if (type !== 'abort') return;
    if (this.#listener === listener) this.#listener = undefined;
    else if (this.#more) this.#more = this.#more.filter((other) => other !== listener);
  }

  /**
   * Forgets the listeners of a request that has settled (the SDK never removes its own), so that
   * the next request can have this: false once aborted. One kept per follower also keeps the
   * object's shape alive across a full collection between two rounds of polls, which would
   * otherwise throw away the optimized code of every poll (`--trace-deopt`: "weak objects").
   */
  reuse(): boolean {
    if (this.aborted) return false;
    this.#listener = undefined;
    this.#more = undefined;
    return true;
  }

  /** Aborts the request (once): its listeners run, and the SDK cancels it. */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = [this.#listener, ...(this.#more ?? [])];
    this.#listener = undefined;
    this.#more = undefined;
    for (const listener of listeners) listener?.();
  }
}

/**
 * Releases the progress handler the SDK keeps for a task-augmented request after its
 * `CreateTaskResult`; only a receiver-side task store ever releases it, so a requestor leaks
 * one per task otherwise.
 *
 * Relies on: the private `Protocol._cleanupTaskProgressHandler(taskId)`.
 */
export function releaseTaskProgressHandler(client: Client, taskId: string): void {
  (client as unknown as { _cleanupTaskProgressHandler?(taskId: string): void })._cleanupTaskProgressHandler?.(taskId);
}

/**
 * Lets a client take over a transport that is already started (after the era probe).
 *
 * Relies on: `connect` calling `transport.start()` once; the SDK's transports refuse a second
 * start, so it becomes a no-op.
 */
export function markStarted(transport: Transport): void {
  transport.start = () => Promise.resolve();
}

/**
 * Calls `onClose` when someone closes `transport` (the client, after a failed `initialize`),
 * as opposed to the server exiting; returns a function that puts the original `close` back.
 *
 * Relies on: `Protocol.close()` closing through `transport.close()`.
 */
export function watchCloseRequests(transport: Transport, onClose: () => void): () => void {
  const original = transport.close.bind(transport);
  transport.close = () => {
    onClose();
    return original();
  };
  return () => {
    transport.close = original;
  };
}

/**
 * Sends a request whose method the SDK's `ClientRequest` type does not know (`server/discover`,
 * `tasks/update`, modern `tasks/get` with its envelope), read with `schema`. `onId`, when given,
 * gets the JSON-RPC id the SDK gave the request, once it is sent and before any notification
 * about it reaches a handler: a 2026-07-28 server tags the notifications of a
 * `subscriptions/listen` stream with its request's id. A request the SDK refuses before sending
 * it (not connected, aborted already) gets no id, and `onId` is not called.
 *
 * Relies on: `Client.request` checking capabilities only for methods it knows; `Protocol.request`
 * taking the id from its private counter `_requestMessageId` (then one more) and sending the
 * request before it returns; and notification handlers being called a microtask after the
 * message is read. With no such counter (another SDK), `onId` is not called.
 */
export function requestAnyMethod<T extends z.ZodType>(
  client: Client,
  request: { method: string; params?: Record<string, unknown> },
  schema: T,
  options?: RequestOptions,
  onId?: (id: number) => void
): Promise<z.infer<T>> {
  const counter = client as unknown as { _requestMessageId?: unknown };
  const next = counter._requestMessageId;
  const answer = client.request(request, schema, options);
  if (onId && typeof next === 'number' && counter._requestMessageId === next + 1) onId(next);
  return answer;
}

/** A request handler as Taskdesk writes them: params in, a result object out. */
export type ServerRequestHandler = (
  request: { method: string; params: Record<string, unknown> },
  extra: { signal: AbortSignal }
) => Promise<Record<string, unknown>>;

/**
 * Registers a handler for a server-to-client request that may answer with either the plain
 * result or a `CreateTaskResult` (sampling, elicitation).
 *
 * Relies on: `Client.setRequestHandler` validating the result itself for these methods
 * (against `CreateTaskResultSchema` when the request is task-augmented); its types allow only
 * the plain result.
 */
export function setServerRequestHandler(
  client: Client,
  schema: Parameters<Client['setRequestHandler']>[0],
  handler: ServerRequestHandler
): void {
  client.setRequestHandler(schema, handler);
}

/** The answer the SDK gives a request for a method it has no handler for. */
export const METHOD_NOT_FOUND: ErrorData = { code: JsonRpcCode.MethodNotFound, message: 'Method not found' };

/**
 * Whether the client has a handler for requests of `method`; the SDK answers any other with
 * {@link METHOD_NOT_FOUND}, after three schema checks of the message (it would queue the answer
 * for a related task only with a task store and message queue, which Taskdesk's client has
 * not). The request gate answers those itself, as the SDK would: a server flooding unknown
 * methods then costs the host a map lookup a request.
 *
 * Relies on: the private `Protocol._requestHandlers` map by method (what `setRequestHandler`
 * fills and `_onrequest` reads), and `fallbackRequestHandler`, which handles every method when
 * set.
 */
export function handlesRequest(client: Client, method: string): boolean {
  const internals = client as unknown as {
    _requestHandlers: ReadonlyMap<string, unknown>;
    fallbackRequestHandler?: unknown;
  };
  return internals.fallbackRequestHandler !== undefined || internals._requestHandlers.has(method);
}

/**
 * Honours `notifications/cancelled` for every request id, 0 included. The SDK's own handler
 * returns early on a falsy `requestId`, so a server's first request to Taskdesk (id 0, e.g. its
 * first elicitation) could never be cancelled: its Inbox card stayed until the server went away.
 *
 * Relies on: the private `Protocol._requestHandlerAbortControllers` map, by request id, of the
 * requests being handled (what the SDK's `_oncancel` aborts).
 */
export function cancelAnyRequestId(client: Client): void {
  client.setNotificationHandler(CancelledNotificationSchema, (notification) => {
    const requestId = notification.params.requestId;
    if (requestId === undefined) return;
    const controllers = (
      client as unknown as { _requestHandlerAbortControllers?: Map<string | number, AbortController> }
    )._requestHandlerAbortControllers;
    controllers?.get(requestId)?.abort(notification.params.reason);
  });
}
