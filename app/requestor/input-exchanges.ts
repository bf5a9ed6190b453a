import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import type { Clock } from '../core/clock.js';
import { HostError, JsonRpcCode, toErrorData } from '../core/errors.js';
import type { DocumentDir, LoadedDocument } from '../store/document-dir.js';
import {
  InputRequestSchema,
  type ExchangeMethod,
  type ExchangeOutcome,
  type InputExchangeView
} from '../contract/input-exchanges.js';
import { InputExchangeStore } from './input-exchange-store.js';
import { isLegacyPeer } from './legacy-exchange-peer.js';
import type { InputRequest, ModernPeer } from './modern-task-follower.js';
import type { CallOrigin } from '../contract/plain-calls.js';
import { TaskdeskCancelled } from './plain-calls.js';
import { RetryRefused } from './retry-refused.js';
import { isLocalFailure, toHostError } from './task-rpc.js';

/**
 * Multi round-trip requests (MCP 2026-07-28, SEP-2322).
 *
 * A `tools/call`, `prompts/get` or `resources/read` that a server answers with an
 * `InputRequiredResult` becomes an *exchange*: stored at once (the original request, the round's
 * `inputRequests` and opaque `requestState`), each question answered through the host's usual
 * machinery (several at once), each answer stored as it comes, then the same request retried with
 * a new JSON-RPC id, every `inputResponses` key and `requestState` unchanged (left out when the
 * server sent none), for as many rounds as the server asks. A round whose answers include the
 * person's consent to open a link (URL elicitation) is not retried at once: that consent is not the
 * work done in the browser, and a retry sent before it would only be asked the same link again. It
 * waits (`waiting-for-you`) until the person says they have finished there, or cancels. After a
 * restart, unfinished exchanges ask their unanswered questions again (or wait for the person again)
 * and send the retry when the server is connected; their outcome is kept for the person (`exchanges.list`), since the caller that started them is gone.
 *
 * A 2025-11-25 server's URL-elicitation-required error (−32042) takes the same path (see
 * `legacy-exchange-peer.ts`): its links are the round's questions, its retry is the original
 * request (a `tools/call` with or without its `task`, as the server and the tool allow by then:
 * `legacyToolRetry`), and the server's `notifications/elicitation/complete` for every link the person
 * agreed to open sends that retry without waiting for the person to say so.
 */

/** The `InputRequiredResult` fields Taskdesk reads (others are ignored). */
const InputRequiredSchema = z.looseObject({
  resultType: z.literal('input_required'),
  inputRequests: z.record(z.string(), InputRequestSchema).optional(),
  requestState: z.string().optional()
});

/**
 * What an exchange sends its requests through: a 2026-07-28 server's peer, or a 2025-11-25 server's
 * client made to read as one (`legacyExchangePeer`).
 */
export type ExchangePeer = Pick<ModernPeer, 'request'>;

/** MCP 2025-11-25's URL-elicitation-required error code, kept when such a request ends without its link. */
const URL_ELICITATION_REQUIRED = -32042;

/** Rounds one request may take before Taskdesk stops answering (a server asking in circles). */
const DEFAULT_MAX_ROUNDS = 32;

/** Options of {@link InputExchanges}. */
export interface InputExchangesOptions {
  dir: DocumentDir;
  clock: Clock;
  /** Answers one input request for a server (Inbox, sampling, roots); `relatedTaskId` is the exchange id. */
  answer(
    serverId: string,
    request: InputRequest,
    context: { relatedTaskId: string; signal: AbortSignal }
  ): Promise<Record<string, unknown>>;
  /** Timeout of a retry no caller waits for. */
  requestTimeoutMs: number;
  /**
   * The answer to a retry asked as a task that came once the exchange was cancelled: a task it
   * created is to be cancelled (`reason`: why the exchange ended).
   */
  lateAnswer?(view: InputExchangeView, response: Record<string, unknown>, reason: unknown): void;
  maxRounds?: number;
  /** An exchange changed (or was removed: `view` undefined). */
  onChange(exchangeId: string, view: InputExchangeView | undefined): void;
  /**
   * The final answer of a resumed exchange no caller waits for: what to keep as its outcome (a
   * `tools/call` that became a task is handed to the requestor, which follows it).
   */
  settle(view: InputExchangeView, response: Record<string, unknown>): ExchangeOutcome;
  /**
   * How a 2025-11-25 server's `tools/call` goes again after its links, asked before each such
   * retry: its params (with or without `task`) and whether it goes as a task, decided anew from
   * the server's capabilities and the tool's `execution.taskSupport` as they are now (both may
   * have changed since the request was first sent). Throws, in words, when it cannot be sent at
   * all (the tool is gone, or needs a task the server no longer accepts): the exchange ends there.
   * Absent: the request goes again as it was.
   */
  legacyToolRetry?(view: InputExchangeView): Promise<{ params: Record<string, unknown>; asTask: boolean }>;
}

/** How the caller of one request wants it sent. */
export interface ExchangeRequestOptions {
  tasks: boolean;
  timeout: number;
  signal?: AbortSignal;
  /** Progress of the first request (the server's `notifications/progress` for its token). */
  onprogress?: (progress: Progress) => void;
  /**
   * The server is of MCP 2025-11-25, and `peer` gives its URL-elicitation-required errors as
   * rounds: each retry is the original request (see `InputExchangeView.protocol`).
   */
  legacy?: boolean;
  /** Who made the call (kept on the exchange, for the task it may become after a restart). */
  origin?: CallOrigin | undefined;
  /** Told of the exchange as soon as it is stored, before its questions are asked. */
  onExchange?: ((exchangeId: string) => void) | undefined;
  /**
   * Told of each retry as it goes: a 2025-11-25 `tools/call` sent again may go as a task though
   * the first request did not, or the other way round (see `legacyToolRetry`), and its answer is
   * read by how it was sent.
   */
  onRetry?: ((sent: { params: Record<string, unknown>; tasks: boolean }) => void) | undefined;
}

interface Running {
  view: InputExchangeView;
  controller: AbortController;
  /** Set while a caller waits for the final answer (not for an exchange resumed after a restart). */
  live: boolean;
  timeout: number;
  /** The caller's progress handler: every retry carries a progress token, as the first request did. */
  onprogress?: (progress: Progress) => void;
  /** See `ExchangeRequestOptions.onRetry`. */
  onRetry?: (sent: { params: Record<string, unknown>; tasks: boolean }) => void;
  /** Set while the exchange waits for the person (`waiting-for-you`): lets its retry go. */
  proceed?: () => void;
  /**
   * The `elicitationId`s of this round the server said are done (2025-11-25,
   * `notifications/elicitation/complete`). Not stored: after a restart the person continues.
   */
  completed: Set<string>;
}

/** Every multi round-trip request in progress, and the ended ones nobody was waiting for. */
export class InputExchanges {
  readonly #options: InputExchangesOptions;
  readonly #store: InputExchangeStore;
  readonly #running = new Map<string, Running>();
  /** Ended exchanges kept for the person (resumed after a restart, so no caller got the outcome). */
  readonly #ended = new Map<string, InputExchangeView>();
  readonly #peers = new Map<string, ExchangePeer>();
  /** Who waits for a server to be attached, by server id. */
  readonly #waiting = new Map<string, Set<() => void>>();
  readonly quarantined: ReadonlyArray<LoadedDocument & { ok: false }>;
  /** Unfinished exchanges loaded from disk, until {@link resume}. */
  #loaded: InputExchangeView[] = [];
  #closed = false;

  constructor(options: InputExchangesOptions) {
    this.#options = options;
    this.#store = new InputExchangeStore(options.dir);
    const loaded = this.#store.loadAll();
    this.quarantined = loaded.quarantined;
    for (const view of loaded.exchanges) {
      if (view.state === 'asking' || view.state === 'waiting-for-you' || view.state === 'retrying')
        this.#loaded.push(view);
      else this.#ended.set(view.exchangeId, view);
    }
  }

  /**
   * Takes up the unfinished exchanges found on disk: their unanswered questions are asked again
   * (back in the Inbox), and each retry goes out once its server is connected. Called once the
   * host's parts that answer questions exist.
   */
  resume(): void {
    const loaded = this.#loaded;
    this.#loaded = [];
    for (const view of loaded) this.#start(view, { live: false });
  }

  /** A server is connected: retries waiting for it go out. */
  attach(serverId: string, peer: ExchangePeer): void {
    this.#peers.set(serverId, peer);
    const waiting = this.#waiting.get(serverId);
    this.#waiting.delete(serverId);
    for (const wake of waiting ?? []) wake();
  }

  detach(serverId: string): void {
    this.#peers.delete(serverId);
  }

  /**
   * Sends `method` through `peer` and, while the server answers `input_required`, answers and
   * retries. Resolves with the final answer (a result, or a `CreateTaskResult`); rejects with the
   * server's error, with why a question could not be answered, or with the signal's reason.
   */
  async request(
    server: { serverId: string; serverName: string; peer: ExchangePeer },
    method: ExchangeMethod,
    params: Record<string, unknown>,
    options: ExchangeRequestOptions
  ): Promise<Record<string, unknown>> {
    const sendOptions = {
      tasks: options.tasks,
      timeout: options.timeout,
      ...(options.signal && { signal: options.signal })
    };
    const first = await server.peer.request(method, params, {
      ...sendOptions,
      ...(options.onprogress && { onprogress: options.onprogress })
    });
    if (first.resultType !== 'input_required') return first;
    const now = this.#now();
    const view: InputExchangeView = {
      exchangeId: `ex-${randomUUID()}`,
      serverId: server.serverId,
      serverName: server.serverName,
      method,
      params: structuredClone(params),
      asTask: options.tasks,
      ...(options.legacy && { protocol: '2025-11-25' as const }),
      ...(options.origin && { origin: { ...options.origin } }),
      round: 0,
      inputRequests: {},
      answers: {},
      state: 'asking',
      createdAt: now,
      updatedAt: now
    };
    this.#nextRound(view, first);
    if (!this.#peers.has(server.serverId)) this.#peers.set(server.serverId, server.peer);
    const run = this.#start(view, {
      live: true,
      timeout: options.timeout,
      ...(options.onprogress && { onprogress: options.onprogress }),
      ...(options.onRetry && { onRetry: options.onRetry })
    });
    options.onExchange?.(view.exchangeId);
    const onAbort = () => run.controller.abort(options.signal?.reason);
    if (options.signal?.aborted) onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await this.#finished(run);
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Every exchange in progress, and those ended that no caller waited for, newest first. */
  list(): InputExchangeView[] {
    return [...[...this.#running.values()].map((run) => run.view), ...this.#loaded, ...this.#ended.values()]
      .map((view) => structuredClone(view))
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  /**
   * How many exchanges wait for the person to finish in the browser (of one server, or of all):
   * counted where they are kept, without the copies {@link list} makes.
   */
  waitingForYou(serverId?: string): number {
    // Asked once a call starts (is the person answering this server already?): no arrays made.
    const counts = (view: InputExchangeView) =>
      view.state === 'waiting-for-you' && (serverId === undefined || view.serverId === serverId);
    let count = 0;
    for (const run of this.#running.values()) if (counts(run.view)) count++;
    for (const view of this.#loaded) if (counts(view)) count++;
    return count;
  }

  /** An exchange in progress (or loaded and not yet resumed), or ended and kept. */
  get(exchangeId: string): InputExchangeView | undefined {
    const view =
      this.#running.get(exchangeId)?.view ??
      this.#ended.get(exchangeId) ??
      this.#loaded.find((loaded) => loaded.exchangeId === exchangeId);
    return view && structuredClone(view);
  }

  /** Ends an exchange in progress: questions withdrawn, no retry sent. */
  cancel(exchangeId: string): InputExchangeView {
    const run = this.#running.get(exchangeId);
    if (run) run.controller.abort(new TaskdeskCancelled('you'));
    const view = this.#running.get(exchangeId)?.view ?? this.#ended.get(exchangeId);
    if (!view) throw new HostError(JsonRpcCode.InvalidParams, `No exchange ${JSON.stringify(exchangeId)}.`);
    return structuredClone(view);
  }

  /**
   * The person finished in the browser what the link they agreed to open asked: the exchange
   * waiting for them sends its retry.
   */
  continue(exchangeId: string): InputExchangeView {
    const run = this.#running.get(exchangeId);
    if (!run) {
      if (!this.#ended.has(exchangeId))
        throw new HostError(JsonRpcCode.InvalidParams, `No exchange ${JSON.stringify(exchangeId)}.`);
      throw new HostError(JsonRpcCode.InvalidRequest, `Exchange ${exchangeId} has ended.`);
    }
    if (!run.proceed)
      throw new HostError(
        JsonRpcCode.InvalidRequest,
        `Exchange ${exchangeId} is not waiting for you (${run.view.state}).`
      );
    this.#proceed(run);
    return structuredClone(run.view);
  }

  /**
   * A 2025-11-25 server says the work a URL elicitation of its asked for is done
   * (`notifications/elicitation/complete`): once every link of the round the person agreed to
   * open is done, the exchange waiting for them sends its retry without being told. An id that no
   * exchange of this server is asking about now is ignored, as MCP asks. Returns the exchanges it
   * belonged to.
   */
  elicitationComplete(serverId: string, elicitationId: string): string[] {
    const found: string[] = [];
    // Every exchange asking about it: two calls may wait on the same sign-in.
    for (const run of [...this.#running.values()]) {
      const { view } = run;
      if (view.serverId !== serverId || view.protocol !== '2025-11-25') continue;
      if (!Object.values(view.inputRequests).some((request) => elicitationIdOf(request) === elicitationId)) continue;
      run.completed.add(elicitationId);
      if (run.proceed && allLinksDone(run)) this.#proceed(run);
      found.push(view.exchangeId);
    }
    return found;
  }

  /** Lets the retry of an exchange waiting for the person go. */
  #proceed(run: Running): void {
    const { proceed } = run;
    delete run.proceed;
    // Stored before the retry goes: after a restart from here, it is sent without asking again.
    this.#set(run, { state: 'retrying' });
    proceed?.();
  }

  /** Removes an ended exchange. */
  forget(exchangeId: string): void {
    if (this.#running.has(exchangeId))
      throw new HostError(JsonRpcCode.InvalidRequest, `Exchange ${exchangeId} is in progress; cancel it first.`);
    if (!this.#ended.delete(exchangeId))
      throw new HostError(JsonRpcCode.InvalidParams, `No exchange ${JSON.stringify(exchangeId)}.`);
    this.#store.remove(exchangeId);
    this.#options.onChange(exchangeId, undefined);
  }

  /** What asks, for the Inbox: the tool, prompt or resource of an exchange of this server. */
  describe(serverId: string, exchangeId: string): string | undefined {
    const view = this.#running.get(exchangeId)?.view;
    if (!view || view.serverId !== serverId) return undefined;
    const { name, uri } = view.params as { name?: unknown; uri?: unknown };
    if (view.method === 'resources/read') return `resource ${String(uri)}`;
    return `${view.method === 'tools/call' ? 'tool' : 'prompt'} ${String(name)}`;
  }

  /** The links of an exchange of this server that its server asks again after the person agreed to open them. */
  linksAskedAgain(serverId: string, exchangeId: string): readonly string[] {
    const view = this.#running.get(exchangeId)?.view;
    return view?.serverId === serverId ? (view.linksAskedAgain ?? []) : [];
  }

  /**
   * Why the questions of an exchange of this server leave the Inbox unanswered when the person
   * cancelled it (its call's Cancel, `exchanges.cancel`), in words for a person; undefined for
   * any other end. Its server holds none of these questions (it waits in its `requestState`, and
   * nothing times out while they are asked): only Taskdesk withdraws them.
   */
  cancelledByYou(serverId: string, exchangeId: string): string | undefined {
    const run = this.#running.get(exchangeId);
    if (!run || run.view.serverId !== serverId || !run.controller.signal.aborted) return undefined;
    const reason: unknown = run.controller.signal.reason;
    if (!(reason instanceof TaskdeskCancelled) || reason.by !== 'you') return undefined;
    const request = run.view.method === 'tools/call' ? 'call' : 'request';
    return `The ${request} this was asked for (${this.describe(serverId, exchangeId)}) was cancelled by you.`;
  }

  /** Stops every exchange in this process (they stay stored, and resume on the next start). */
  close(): void {
    this.#closed = true;
    for (const run of this.#running.values()) run.controller.abort(new Error('Taskdesk is closing'));
    for (const wakers of this.#waiting.values()) for (const wake of wakers) wake();
    this.#waiting.clear();
  }

  #start(
    view: InputExchangeView,
    options: {
      live: boolean;
      timeout?: number;
      onprogress?: (progress: Progress) => void;
      onRetry?: Running['onRetry'];
    }
  ): Running {
    const run: Running = {
      view,
      controller: new AbortController(),
      live: options.live,
      completed: new Set(),
      timeout: options.timeout ?? this.#options.requestTimeoutMs,
      ...(options.onprogress && { onprogress: options.onprogress }),
      ...(options.onRetry && { onRetry: options.onRetry })
    };
    this.#running.set(view.exchangeId, run);
    this.#save(run);
    if (!options.live) void this.#finished(run).catch(() => undefined);
    return run;
  }

  /** Drives one exchange to its end and records that end. */
  async #finished(run: Running): Promise<Record<string, unknown>> {
    try {
      const response = await this.#drive(run);
      this.#end(run, 'completed', run.live ? undefined : this.#options.settle(run.view, response));
      return response;
    } catch (error) {
      if (this.#closed) throw error;
      const cancelled = run.controller.signal.aborted;
      const failure = toHostError(cancelled ? (run.controller.signal.reason ?? error) : error);
      this.#end(run, cancelled ? 'cancelled' : 'failed', {
        type: 'error',
        error: toErrorData(failure)
      });
      throw failure;
    }
  }

  async #drive(run: Running): Promise<Record<string, unknown>> {
    const signal = run.controller.signal;
    for (;;) {
      // Cancelled before it began (its call ended while the first answer was on its way): nothing is asked.
      signal.throwIfAborted();
      await this.#collectAnswers(run);
      if (run.view.protocol === '2025-11-25') refuseWithoutLinks(run.view);
      // `retrying` already: the person said to go on (before a restart, or a retry the connection lost).
      if (run.view.state !== 'retrying' && opensLink(run.view) && !allLinksDone(run)) await this.#waitForPerson(run);
      if (run.view.state !== 'retrying') this.#set(run, { state: 'retrying' });
      const { view } = run;
      const peer = await this.#peerFor(view, signal);
      if (view.protocol === '2025-11-25' && view.method === 'tools/call' && this.#options.legacyToolRetry) {
        // Task or not, decided again before each retry: the server or the tool may have changed.
        let retry: { params: Record<string, unknown>; asTask: boolean };
        try {
          retry = await this.#options.legacyToolRetry(structuredClone(view));
        } catch (error) {
          if (signal.aborted) throw signal.reason ?? error;
          // The connection went while the tool was looked up: decided again once the server is back.
          if (this.#peers.get(view.serverId) !== peer) {
            this.#set(run, { lastError: toErrorData(error) });
            continue;
          }
          throw error;
        }
        signal.throwIfAborted();
        // Kept, so that the answer is read by how it was sent, after a restart too (`settle`).
        if (retry.asTask !== view.asTask || !isDeepStrictEqual(retry.params, view.params))
          this.#set(run, { params: retry.params, asTask: retry.asTask });
      }
      // A 2025-11-25 server's retry is the request as it was (but for its `task`, above): its
      // answers were the work done in the browser.
      const params: Record<string, unknown> =
        view.protocol === '2025-11-25'
          ? structuredClone(view.params)
          : {
              ...view.params,
              ...(Object.keys(view.inputRequests).length > 0 && { inputResponses: structuredClone(view.answers) }),
              ...(view.requestState !== undefined && { requestState: view.requestState })
            };
      const tasks = view.asTask;
      run.onRetry?.({ params: structuredClone(params), tasks });
      let response: Record<string, unknown>;
      try {
        response = await peer.request(view.method, params, {
          tasks,
          timeout: run.timeout,
          // A request that may become a task is never cancelled with notifications/cancelled (MCP
          // forbids it): the exchange waits for its answer, and a task created late is cancelled.
          ...(!tasks && { signal }),
          ...(run.onprogress && { onprogress: run.onprogress })
        });
      } catch (error) {
        if (signal.aborted) throw signal.reason ?? error;
        // The connection failed, not the request: the answers are kept, and sent once the server is back.
        if (isLocalFailure(error) && this.#peers.get(view.serverId) !== peer) {
          this.#set(run, { lastError: toErrorData(error) });
          continue;
        }
        throw describeRefusal(view, error);
      }
      if (signal.aborted) {
        this.#options.lateAnswer?.(view, response, signal.reason);
        throw signal.reason;
      }
      if (response.resultType !== 'input_required') return response;
      if (view.round >= (this.#options.maxRounds ?? DEFAULT_MAX_ROUNDS))
        throw new HostError(
          JsonRpcCode.InternalError,
          `${what(view)} on "${view.serverName}" asked for input ${view.round} times in a row; Taskdesk stopped answering.`
        );
      this.#nextRound(view, response);
      run.completed.clear();
      this.#set(run, { state: 'asking' });
    }
  }

  /** Takes the next round's questions and state from an `InputRequiredResult` (a malformed one throws). */
  #nextRound(view: InputExchangeView, response: Record<string, unknown>): void {
    const parsed = InputRequiredSchema.safeParse(response);
    if (!parsed.success || (parsed.data.inputRequests === undefined && parsed.data.requestState === undefined))
      throw new HostError(
        JsonRpcCode.InternalError,
        `${what(view)} on "${view.serverName}" answered input_required without ${parsed.success ? 'inputRequests or requestState' : `a valid InputRequiredResult (${parsed.error.issues[0]?.message ?? 'invalid'})`}.`
      );
    const consented = new Set(consentedLinks(view));
    view.round += 1;
    view.inputRequests = structuredClone(parsed.data.inputRequests ?? {});
    const again = linksOf(view.inputRequests).filter((url) => consented.has(url));
    if (again.length > 0) view.linksAskedAgain = again;
    else delete view.linksAskedAgain;
    view.answers = {};
    if (parsed.data.requestState === undefined) delete view.requestState;
    else view.requestState = parsed.data.requestState;
    delete view.lastError;
  }

  /** Asks every question of the round not answered yet, all at once; the first that cannot be answered ends them all. */
  async #collectAnswers(run: Running): Promise<void> {
    const { view } = run;
    const open = Object.entries(view.inputRequests).filter(([key]) => !Object.hasOwn(view.answers, key));
    if (open.length === 0) return;
    const round = new AbortController();
    const onAbort = () => round.abort(run.controller.signal.reason);
    run.controller.signal.addEventListener('abort', onAbort, { once: true });
    try {
      await Promise.all(
        open.map(async ([key, request]) => {
          let answer: Record<string, unknown>;
          try {
            answer = await this.#options.answer(
              view.serverId,
              { method: request.method, params: request.params ?? {} },
              { relatedTaskId: view.exchangeId, signal: round.signal }
            );
          } catch (error) {
            if (run.controller.signal.aborted) throw run.controller.signal.reason ?? error;
            const data = toErrorData(error);
            round.abort(new Error('Another question could not be answered'));
            throw new HostError(
              data.code,
              `${what(view)} on "${view.serverName}" asked for ${request.method} (input "${key}"), which Taskdesk could not answer: ${data.message}`,
              { inputKey: key }
            );
          }
          view.answers[key] = answer;
          this.#set(run, {});
        })
      );
    } finally {
      run.controller.signal.removeEventListener('abort', onAbort);
      round.abort(new Error('The round is over'));
    }
  }

  /** Waits, stored as `waiting-for-you`, until {@link continue} lets the retry go; cancelling rejects. */
  async #waitForPerson(run: Running): Promise<void> {
    const signal = run.controller.signal;
    if (signal.aborted) throw signal.reason;
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        delete run.proceed;
        reject(signal.reason);
      };
      run.proceed = () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#set(run, { state: 'waiting-for-you' });
    });
  }

  /**
   * The server's peer, waiting for it to be attached (an exchange resumed after a restart, or a
   * dropped connection) in the exchange's own revision: its retry means something else in the
   * other one, so a server that changed revision meanwhile keeps it waiting, as its tasks wait.
   */
  async #peerFor(view: InputExchangeView, signal: AbortSignal): Promise<ExchangePeer> {
    const serverId = view.serverId;
    for (;;) {
      const peer = this.#peers.get(serverId);
      if (peer && isLegacyPeer(peer) === (view.protocol === '2025-11-25')) return peer;
      if (signal.aborted) throw signal.reason;
      await new Promise<void>((resolve) => {
        const wake = () => {
          signal.removeEventListener('abort', wake);
          this.#waiting.get(serverId)?.delete(wake);
          resolve();
        };
        let set = this.#waiting.get(serverId);
        if (!set) this.#waiting.set(serverId, (set = new Set()));
        set.add(wake);
        signal.addEventListener('abort', wake, { once: true });
      });
    }
  }

  #set(run: Running, change: Partial<InputExchangeView>): void {
    Object.assign(run.view, change);
    this.#save(run);
  }

  #save(run: Running): void {
    run.view.updatedAt = this.#now();
    this.#store.save(run.view);
    this.#options.onChange(run.view.exchangeId, structuredClone(run.view));
  }

  #end(run: Running, state: 'completed' | 'failed' | 'cancelled', outcome: ExchangeOutcome | undefined): void {
    this.#running.delete(run.view.exchangeId);
    const view: InputExchangeView = { ...run.view, state, updatedAt: this.#now(), ...(outcome && { outcome }) };
    if (run.live) {
      // The caller has the outcome: nothing to keep.
      this.#store.remove(view.exchangeId);
      this.#options.onChange(view.exchangeId, undefined);
      return;
    }
    this.#ended.set(view.exchangeId, view);
    this.#store.save(view);
    this.#options.onChange(view.exchangeId, structuredClone(view));
  }

  #now(): string {
    return new Date(this.#options.clock.now()).toISOString();
  }
}

/** The URLs of a round's URL elicitations. */
function linksOf(requests: InputExchangeView['inputRequests']): string[] {
  return Object.values(requests).flatMap((request) =>
    request.method === 'elicitation/create' && request.params?.mode === 'url' && typeof request.params.url === 'string'
      ? [request.params.url]
      : []
  );
}

/** The URLs of this round that the person agreed to open. */
function consentedLinks(view: InputExchangeView): string[] {
  return Object.entries(view.inputRequests).flatMap(([key, request]) =>
    view.answers[key]?.action === 'accept' ? linksOf({ [key]: request }) : []
  );
}

/** The request in words: `Tool "x"`, `Prompt "x"`, `Resource <uri>`. */
function what(view: InputExchangeView): string {
  const { name, uri } = view.params as { name?: unknown; uri?: unknown };
  if (view.method === 'resources/read') return `Resource ${String(uri)}`;
  return `${view.method === 'tools/call' ? 'Tool' : 'Prompt'} "${String(name)}"`;
}

/**
 * Whether a round's answers include the person's consent to open a link (an accepted URL-mode
 * elicitation): what that link asks is done in the browser, after the answer was given.
 */
export function opensLink(view: Pick<InputExchangeView, 'inputRequests' | 'answers'>): boolean {
  return Object.entries(view.inputRequests).some(
    ([key, request]) =>
      request.method === 'elicitation/create' &&
      request.params?.mode === 'url' &&
      view.answers[key]?.action === 'accept'
  );
}

/**
 * A 2025-11-25 server said the request cannot go on until its links are done: sent again without
 * one the person declined or dismissed, it would only be refused the same way (and its links asked
 * again, round after round). So the request ends there, with the server's reason in its words.
 */
function refuseWithoutLinks(view: InputExchangeView): void {
  const refused = Object.entries(view.inputRequests).find(([key]) => view.answers[key]?.action !== 'accept');
  if (!refused) return;
  const [key, request] = refused;
  const action = view.answers[key]?.action === 'decline' ? 'declined' : 'dismissed';
  const message = typeof request.params?.message === 'string' ? ` ("${request.params.message}")` : '';
  throw new HostError(
    URL_ELICITATION_REQUIRED,
    `${what(view)} on "${view.serverName}" can go on only once you have opened its link${message}; you ${action} it, so the request was not sent again.`,
    { inputKey: key }
  );
}

/** The `elicitationId` of a URL-mode elicitation, if the request is one. */
function elicitationIdOf(request: InputExchangeView['inputRequests'][string]): string | undefined {
  if (request.method !== 'elicitation/create' || request.params?.mode !== 'url') return undefined;
  const id = request.params.elicitationId;
  return typeof id === 'string' ? id : undefined;
}

/**
 * Whether the server said every link of the round the person agreed to open is done (2025-11-25:
 * only its servers send `notifications/elicitation/complete`).
 */
function allLinksDone(run: Running): boolean {
  if (run.view.protocol !== '2025-11-25' || run.completed.size === 0) return false;
  return Object.entries(run.view.inputRequests).every(([key, request]) => {
    const id = elicitationIdOf(request);
    return id === undefined || run.view.answers[key]?.action !== 'accept' || run.completed.has(id);
  });
}

/**
 * A server's error answer to a retry, said so: a server refusing the retry (its `requestState`
 * failed verification, an answer was not what it asked for) keeps its code and message.
 */
function describeRefusal(view: InputExchangeView, error: unknown): RetryRefused {
  const data = toErrorData(toHostError(error));
  const retry = view.protocol === '2025-11-25' ? 'the request sent again after the link' : 'the retry with the answers';
  return new RetryRefused(
    data.code,
    `${what(view)} on "${view.serverName}" refused ${retry} (round ${view.round}): ${data.message}`,
    { ...(data.data !== undefined && { serverData: data.data }), round: view.round }
  );
}
