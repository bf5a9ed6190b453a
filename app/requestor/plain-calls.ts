import { randomUUID } from 'node:crypto';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import type { CallOrigin, PlainCallView } from '../contract/plain-calls.js';
import { argumentsPreview, CALL_ARGUMENTS_CHARS } from '../contract/request-preview.js';
import type { Clock, TimerHandle } from '../core/clock.js';
import { HostError, JsonRpcCode, toErrorData } from '../core/errors.js';
import { copyJson } from '../core/json-copy.js';
import { RetryRefused } from './retry-refused.js';

/** MCP's code for a request that timed out (the SDK's `ErrorCode.RequestTimeout`). */
const REQUEST_TIMEOUT = -32001;

/** MCP's code for a request its connection's close broke off (the SDK's `ErrorCode.ConnectionClosed`). */
const CONNECTION_CLOSED = -32000;

/** Why a plain call still running when Taskdesk closed ended, in words for a person. */
export const STOPPED_WHILE_RUNNING = 'Taskdesk stopped while the call ran; its result was not received';

/**
 * A −32800 Taskdesk itself ended a call with: `you` for the person's Cancel (of the call, or of
 * the exchange it became), `taskdesk` for Taskdesk's closing ({@link STOPPED_WHILE_RUNNING}).
 * Known as Taskdesk's by what it is, not by its words: a server may answer a call with −32800
 * of its own, in any words, and that end is the server's doing. Its data says whose cancel it
 * was (`cancelledBy`), so that a caller across the host API (the Desk) can tell too.
 */
export class TaskdeskCancelled extends HostError {
  readonly by: 'you' | 'taskdesk';
  /**
   * `yourAct`: the person's act that closed the call's connection while it ran, in words ("You
   * disconnected Books"), said as the call's end and in its
   * data (`yourAct`), so that the Tools screen says "Stopped: …" rather than "You cancelled".
   * See {@link PlainCalls.closingByYourAct}.
   */
  constructor(by: 'you' | 'taskdesk', message?: string, yourAct?: string) {
    super(
      JsonRpcCode.RequestCancelled,
      message ?? yourAct ?? (by === 'you' ? 'Cancelled by you' : STOPPED_WHILE_RUNNING),
      { cancelledBy: by, ...(yourAct !== undefined && { yourAct }) }
    );
    this.name = 'TaskdeskCancelled';
    this.by = by;
  }

  /** Its words alone: the SDK tells the server why a request was cancelled as `String(reason)`. */
  override toString(): string {
    return this.message;
  }
}

/**
 * Far beyond any idle timeout: the SDK's own request timeout is kept out of the way, since it
 * runs on real timers and cannot be paused while a person answers; {@link PlainCalls} times
 * calls out on the host's clock instead.
 */
export const SDK_TIMEOUT_OUT_OF_THE_WAY_MS = 2 ** 31 - 1;

/** How many calls the person stopped are remembered, for {@link PlainCalls.stoppedDuring}. */
const STOPPED_KEPT = 50;

/** How many ended calls are remembered, for {@link PlainCalls.ranAt}. */
const ENDED_KEPT = 200;

/**
 * What sending one plain call needs: a signal to abort it with, where its progress goes, and a
 * way to say that it waits for the person to sign in to its server (see
 * `PlainCallView.waitingForSignIn`): it cannot time out while it does.
 */
export type PlainCallSender<T> = (
  signal: AbortSignal,
  onprogress: (progress: Progress) => void,
  waitingForSignIn: (waiting: boolean) => void
) => Promise<T>;

/** Options of {@link PlainCalls}. */
export interface PlainCallsOptions {
  clock: Clock;
  /** How long a call may go without an answer or progress (default 60 s, the SDK's). */
  idleTimeoutMs?: number;
  /**
   * Whether Taskdesk is itself waiting on the person for a request from this server (a question
   * outside a task in the Inbox, or one of a task the server handed Taskdesk that has not ended):
   * then the call cannot time out, since the server may be waiting for that answer.
   */
  waitingOnPerson: (serverId: string) => boolean;
  /** Told of every change of a call; as it starts, with its arguments (`started`) when its caller gave them. */
  onChange: (view: PlainCallView, started?: { arguments: Record<string, unknown> }) => void;
}

interface RunningCall {
  view: PlainCallView;
  idleMs: number;
  controller: AbortController;
  timer: TimerHandle | undefined;
  /**
   * Told once the call ends, with what it resolved to (undefined when it failed or was cancelled),
   * and `taskdesk` when Taskdesk's closing cancelled it.
   */
  ended: ((view: PlainCallView, value: unknown, cancelledBy?: 'taskdesk') => void) | undefined;
  /**
   * The person's act closing the call's connection, in words, while that close may still break
   * the call off (see {@link PlainCalls.closingByYourAct}); progress from the server ends it.
   */
  yourAct?: string;
}

/**
 * The plain tool calls in flight: each with a progress token, an idle timeout on the host's clock
 * that progress resets and that does not run out while Taskdesk waits on the person for the
 * server, and a cancel that sends `notifications/cancelled` (the SDK does, when the request's
 * signal aborts). A call asked as a task is not cancelled at the server that way, which MCP forbids
 * for a task-augmented request: its sender stops waiting, and cancels a task created late with
 * `tasks/cancel` (`tool-call-dispatch.ts`).
 */
export class PlainCalls {
  readonly #options: PlainCallsOptions;
  readonly #idleMs: number;
  readonly #running = new Map<string, RunningCall>();
  /** The last calls the person stopped (oldest first): their server, tool and when they ran. */
  readonly #stopped: Array<{ serverId: string; toolName: string; startedAt: string; stoppedAt: string }> = [];
  /** The last calls that ended, however they did (oldest first): which they were and when they ran. */
  readonly #ended: Array<{ callId: string; serverId: string; toolName: string; startedAt: string; endedAt: string }> =
    [];
  /** By server, the latest end of a call {@link #ended} no longer remembers: {@link ranAt} cannot tell before it. */
  readonly #forgottenUntil = new Map<string, string>();

  constructor(options: PlainCallsOptions) {
    this.#options = options;
    this.#idleMs = options.idleTimeoutMs ?? 60_000;
  }

  /**
   * Runs one call through `send`; resolves or rejects as it does, or with −32001 / −32800. A
   * −32800 the server answered with, when Taskdesk did not cancel the call, ends it `failed` and
   * rejects saying the server ended it itself, with the server's message.
   * `ended` is told once the call has ended, with its last view and what `send` resolved to
   * (undefined when it failed or was cancelled), and `taskdesk` when {@link stopAll} ended it.
   */
  async run<T>(
    call: {
      callId?: string;
      idleTimeoutMs?: number;
      serverId: string;
      serverName: string;
      toolName: string;
      origin?: CallOrigin;
      /**
       * Its arguments, told as it starts (see {@link PlainCallsOptions.onChange}); its view holds
       * them only in a line (`argumentsPreview`).
       */
      arguments?: Record<string, unknown>;
    },
    send: PlainCallSender<T>,
    ended?: (view: PlainCallView, value: T | undefined, cancelledBy?: 'taskdesk') => void
  ): Promise<T> {
    const callId = call.callId ?? `call-${randomUUID()}`;
    if (this.#running.has(callId))
      throw new HostError(JsonRpcCode.InvalidParams, `A call ${callId} is already running`);
    // In a line, as a task's card says its arguments: calls of one tool are told apart by them.
    const preview = argumentsPreview(call.arguments, CALL_ARGUMENTS_CHARS);
    const running: RunningCall = {
      view: {
        callId,
        serverId: call.serverId,
        serverName: call.serverName,
        toolName: call.toolName,
        ...(preview !== undefined && { argumentsPreview: preview }),
        startedAt: this.#now(),
        state: 'running',
        ...(call.origin && { origin: copyJson(call.origin) })
      },
      idleMs: call.idleTimeoutMs ?? this.#idleMs,
      controller: new AbortController(),
      timer: undefined,
      ended: ended as RunningCall['ended']
    };
    // A question of the server already in the Inbox may be what this call will wait for too.
    if (this.#options.waitingOnPerson(call.serverId)) running.view.waitingOnPerson = true;
    this.#running.set(callId, running);
    this.#arm(running);
    this.#options.onChange(copyJson(running.view), call.arguments && { arguments: call.arguments });
    try {
      const result = await send(
        running.controller.signal,
        (progress) => this.#progress(running, progress),
        (waiting) => this.#waitingForSignIn(running, waiting)
      );
      this.#end(running, 'completed', undefined, result);
      return result;
    } catch (error) {
      const { signal } = running.controller;
      const reason: unknown = signal.aborted ? signal.reason : error;
      const failure = reason instanceof HostError ? reason : error;
      const data = toErrorData(failure);
      if (running.yourAct !== undefined && !signal.aborted && data.code === CONNECTION_CLOSED) {
        // The person's act closed the connection under the call: stopped by them, not failed.
        const stopped = new TaskdeskCancelled('you', undefined, running.yourAct);
        this.#end(running, 'cancelled', toErrorData(stopped));
        throw stopped;
      }
      if (data.code === JsonRpcCode.RequestCancelled && !signal.aborted && !(failure instanceof TaskdeskCancelled)) {
        // The server answered −32800 of its own accord: nobody here cancelled the call, so it
        // failed, in the server's words, never "cancelled by you". Its data goes under
        // `serverData`, where no `cancelledBy` of its own can pass for Taskdesk's; a retry the
        // server refused is already said in Taskdesk's words, and keeps them.
        const ended =
          failure instanceof RetryRefused
            ? failure
            : new HostError(
                data.code,
                `The server "${running.view.serverName}" ended the call itself: ${data.message}`,
                data.data === undefined ? undefined : { serverData: data.data }
              );
        this.#end(running, 'failed', toErrorData(ended));
        throw ended;
      }
      this.#end(running, data.code === JsonRpcCode.RequestCancelled ? 'cancelled' : 'failed', data);
      throw failure;
    }
  }

  /** Whether a call by that id is running. */
  isRunning(callId: string): boolean {
    return this.#running.has(callId);
  }

  /** Cancels a running call; false when there is none by that id. */
  cancel(callId: string): boolean {
    const running = this.#running.get(callId);
    if (!running) return false;
    const { serverId, toolName, startedAt } = running.view;
    this.#stopped.push({ serverId, toolName, startedAt, stoppedAt: this.#now() });
    if (this.#stopped.length > STOPPED_KEPT) this.#stopped.shift();
    running.controller.abort(new TaskdeskCancelled('you'));
    return true;
  }

  /**
   * The tool of the latest call to `serverId` the person stopped ({@link cancel}) that was running
   * at `askedAt`, when a request of that server was asked; undefined when none was.
   *
   * Only a hint of which call a server's request was for: nothing on the wire says so (the SDK's
   * `relatedRequestId` picks a Streamable HTTP response stream and is not sent; stdio has no
   * streams at all), and a server may run several calls at once or ask on its own.
   */
  stoppedDuring(serverId: string, askedAt: string): string | undefined {
    return this.#stopped.findLast(
      (stopped) => stopped.serverId === serverId && stopped.startedAt <= askedAt && askedAt <= stopped.stoppedAt
    )?.toolName;
  }

  /**
   * The calls to `serverId` that were running at `at`, when a request of that server was asked:
   * those running now that had started by then, and those that have ended since (however they
   * ended: the person's Cancel, a timeout, an answer). Undefined when it cannot be told: a call
   * that ran then may be one of those no longer remembered.
   */
  ranAt(serverId: string, at: string): Array<{ callId: string; toolName: string }> | undefined {
    const forgottenUntil = this.#forgottenUntil.get(serverId);
    if (forgottenUntil !== undefined && at <= forgottenUntil) return undefined;
    const running = [...this.#running.values()]
      .map((each) => each.view)
      .filter((view) => view.serverId === serverId && view.startedAt <= at);
    const ended = this.#ended.filter(
      (each) => each.serverId === serverId && each.startedAt <= at && at <= each.endedAt
    );
    return [...ended, ...running].map(({ callId, toolName }) => ({ callId, toolName }));
  }

  /**
   * Taskdesk is closing: every running call ends now, cancelled by Taskdesk with
   * {@link STOPPED_WHILE_RUNNING} (told to `ended` at once, while the history is open), and its
   * server is told as by {@link cancel}; its caller's promise rejects with that reason.
   */
  stopAll(): void {
    for (const running of [...this.#running.values()]) {
      const stopped = new TaskdeskCancelled('taskdesk');
      this.#end(running, 'cancelled', toErrorData(stopped), undefined, 'taskdesk');
      running.controller.abort(stopped);
    }
  }

  /**
   * An act of the person's (Disconnect, a sign-out, Remove, a Save that restarts the server) is
   * about to close `serverId`'s connection: its running calls that the close breaks off (they
   * end with its "Connection closed") end stopped by the person, in that act's words (`words` of
   * the server's name, "You disconnected Books"), not failed. A call with nothing in flight (one
   * waiting on the person for a link) goes on, marked only until the close is over
   * ({@link connected}); one waiting for the server's sign-in is left to that wait, which ends it
   * with the act in its own words.
   */
  closingByYourAct(serverId: string, words: (serverName: string) => string): void {
    for (const running of this.#running.values()) {
      if (running.view.serverId !== serverId || running.view.waitingForSignIn) continue;
      running.yourAct = words(running.view.serverName);
    }
  }

  /**
   * A connection of `serverId` is ready: the close of an act of the person's before it is over,
   * and what it broke off has ended. The calls it did not break off (one waiting on the person
   * for a link) are no longer marked by that act: a drop of this connection, or a −32000 of the
   * server's own, is not the person's doing.
   *
   * Not as soon as the close resolves: what it broke off is rejected before it resolves, but the
   * rejection reaches {@link run} through its caller's chain of promises, one microtask after it
   * today; nothing reaches a call over a connection before that connection is ready. As the host
   * forgets the act for the server's own requests (`#closedByYou`).
   */
  connected(serverId: string): void {
    for (const running of this.#running.values()) if (running.view.serverId === serverId) delete running.yourAct;
  }

  /**
   * A question of this server (of a task it handed Taskdesk or not) came into the Inbox or left
   * it: its running calls say at once whether they may be waiting on the person, rather than only
   * once their idle timeout runs out. Once nothing of the server waits on the person any more, a
   * call's idle timeout starts again in full: the server has its answer now.
   */
  personWaitingChanged(serverId: string): void {
    const waiting = this.#options.waitingOnPerson(serverId);
    for (const running of this.#running.values()) {
      if (running.view.serverId !== serverId || running.view.state !== 'running') continue;
      if (waiting === (running.view.waitingOnPerson === true)) continue;
      if (waiting) running.view.waitingOnPerson = true;
      else {
        delete running.view.waitingOnPerson;
        this.#arm(running);
      }
      this.#options.onChange(copyJson(running.view));
    }
  }

  /**
   * A server was renamed, its connection kept: its running calls go on under the new name (their
   * cards, their Cancel, the History entries their ends make), as its later calls do.
   */
  serverRenamed(serverId: string, serverName: string): void {
    for (const running of this.#running.values()) {
      if (running.view.serverId !== serverId || running.view.serverName === serverName) continue;
      running.view.serverName = serverName;
      this.#options.onChange(copyJson(running.view));
    }
  }

  /** The calls running now. */
  list(): PlainCallView[] {
    return [...this.#running.values()].map((running) => copyJson(running.view));
  }

  #progress(running: RunningCall, progress: Progress): void {
    if (running.view.state !== 'running') return;
    // Heard from over a connection after the act's close: that close no longer breaks it off.
    delete running.yourAct;
    running.view.progress = {
      progress: progress.progress,
      ...(progress.total !== undefined && { total: progress.total }),
      ...(progress.message !== undefined && { message: progress.message }),
      at: this.#now()
    };
    // Progress says the server works; a question of it still in the Inbox may still be waited for.
    if (!this.#options.waitingOnPerson(running.view.serverId)) delete running.view.waitingOnPerson;
    this.#arm(running);
    this.#options.onChange(copyJson(running.view));
  }

  /**
   * The call waits for the person to sign in to its server, or no longer: its idle timeout stops
   * meanwhile (nothing is in flight), and starts again in full once it is sent again.
   */
  #waitingForSignIn(running: RunningCall, waiting: boolean): void {
    if (this.#running.get(running.view.callId) !== running) return;
    if (waiting === (running.view.waitingForSignIn === true)) return;
    if (waiting) running.view.waitingForSignIn = true;
    else delete running.view.waitingForSignIn;
    this.#arm(running);
    this.#options.onChange(copyJson(running.view));
  }

  /**
   * (Re)starts the idle timeout. When it runs out while the person is answering, it waits another
   * round; while the call waits for a sign-in it does not run at all.
   */
  #arm(running: RunningCall): void {
    if (running.timer !== undefined) this.#options.clock.clearTimeout(running.timer);
    running.timer = undefined;
    if (running.view.waitingForSignIn) return;
    running.timer = this.#options.clock.setTimeout(() => {
      running.timer = undefined;
      if (running.view.state !== 'running') return;
      if (this.#options.waitingOnPerson(running.view.serverId)) {
        if (!running.view.waitingOnPerson) {
          running.view.waitingOnPerson = true;
          this.#options.onChange(copyJson(running.view));
        }
        this.#arm(running);
        return;
      }
      running.controller.abort(
        new HostError(
          REQUEST_TIMEOUT,
          `Tool "${running.view.toolName}" on "${running.view.serverName}" sent no answer or progress for ${Math.round(running.idleMs / 1000)} s; Taskdesk cancelled the call.`
        )
      );
    }, running.idleMs);
  }

  #end(
    running: RunningCall,
    state: PlainCallView['state'],
    error?: PlainCallView['error'],
    value?: unknown,
    cancelledBy?: 'taskdesk'
  ): void {
    // Ended already: stopped by Taskdesk's closing, which its send then rejects with.
    if (this.#running.get(running.view.callId) !== running) return;
    if (running.timer !== undefined) this.#options.clock.clearTimeout(running.timer);
    running.timer = undefined;
    this.#running.delete(running.view.callId);
    const { waitingOnPerson: _waiting, waitingForSignIn: _signIn, ...rest } = running.view;
    const endedAt = this.#now();
    running.view = { ...rest, state, endedAt, ...(error && { error }) };
    this.#remember(running.view, endedAt);
    this.#options.onChange(copyJson(running.view));
    try {
      running.ended?.(copyJson(running.view), value, cancelledBy);
    } catch (problem) {
      // What records the call (the history) must not turn a call that ended into one that failed.
      console.error('Taskdesk could not record an ended tool call:', problem);
    }
  }

  /** Remembers an ended call for {@link ranAt}, forgetting the oldest beyond {@link ENDED_KEPT}. */
  #remember({ callId, serverId, toolName, startedAt }: PlainCallView, endedAt: string): void {
    this.#ended.push({ callId, serverId, toolName, startedAt, endedAt });
    if (this.#ended.length <= ENDED_KEPT) return;
    const forgotten = this.#ended.shift()!;
    const until = this.#forgottenUntil.get(forgotten.serverId);
    if (until === undefined || until < forgotten.endedAt)
      this.#forgottenUntil.set(forgotten.serverId, forgotten.endedAt);
  }

  #now(): string {
    return new Date(this.#options.clock.now()).toISOString();
  }
}
