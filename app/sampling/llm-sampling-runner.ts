import { randomUUID } from 'node:crypto';
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  CreateMessageResultWithTools
} from '@modelcontextprotocol/sdk/types.js';
import type { ChatCompletionChunk, ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { systemClock, type Clock } from '../core/clock.js';
import { errorMessage, HostError, JsonRpcCode, toErrorData, type ErrorData } from '../core/errors.js';
import type { SamplingRunner, WorkContext, WorkOutcome } from '../receiver/runners.js';
import { chooseModel, type ModelChoice } from './model-selection.js';
import { createProviderClient } from './provider-client.js';
import { modelNamesOf, tokenLimitParamOf, type ProviderSettings } from '../contract/providers.js';
import {
  classifyProviderError,
  droppedFailure,
  MODEL_RUN_CANCELLED,
  ProviderFailureError,
  stoppedFailure,
  timeoutFailure,
  type FailureSubject,
  type ProviderFailure
} from './provider-failure.js';
import type { ProviderSource } from './provider-registry.js';
import { ProgressThrottle } from './progress-throttle.js';
import { redactSecrets } from './redact.js';
import { setupFailure } from './server-failure.js';
import { toChatCompletionRequest } from './request-mapping.js';
import { MalformedCompletionError, toCreateMessageResult } from './result-mapping.js';
import { defaultRetryOptions, withRetries, type RetryNotice, type RetryOptions } from './retry.js';
import { StreamAccumulator } from './stream-accumulator.js';
import { Watchdog } from './watchdog.js';

/** Text generated so far for one request, for a live view in the UI. */
export interface PartialUpdate {
  serverId: string;
  taskId?: string;
  /** One model call's stream (a request that is not a task has nothing else to tell it by). */
  streamId: string;
  providerId: string;
  model: string;
  /** All text generated so far. */
  text: string;
  /** The text this update added. */
  delta: string;
  /** The last update of a stream (it ended, failed or was cancelled); `delta` is empty. */
  done?: true;
}

/** What the LLM runner is built from. */
export interface LlmSamplingRunnerOptions {
  providers: ProviderSource;
  clock?: Clock;
  /** Called for every streamed piece of text; the host forwards it to the UI. */
  onPartial?: (update: PartialUpdate) => void;
  /**
   * Told as each run's call of its provider starts; the function it returns is told how the
   * provider answered: `failure` (its words, redacted) when it failed, nothing when it answered;
   * not for a run that was cancelled or never reached it, nor for one that failed on a model the
   * provider does not list and does not know (a name the person typed).
   */
  onCall?: (providerId: string) => (failure?: string) => void;
  /** Called before each retry wait (rate limit, server error). */
  onRetry?: (notice: RetryNotice & { serverId: string; taskId?: string }) => void;
  retry?: Partial<RetryOptions>;
  /** Least time between progress notifications; default 250 ms. */
  progressIntervalMs?: number;
  /** Longest wait for the provider's first byte; default 120 s (local servers load models first). */
  firstByteTimeoutMs?: number;
  /** Longest silence between streamed chunks; default 60 s. */
  idleTimeoutMs?: number;
  /** The fetch the `openai` SDK uses; for proxies and tests. */
  fetch?: typeof fetch;
}

type SamplingOutcome = WorkOutcome<CreateMessageResult | CreateMessageResultWithTools>;

/** The model call a person may stop: its task (`taskId`), or its stream (`streamId`) for a request that is not a task. */
export type StopTarget = { serverId: string } & ({ taskId: string } | { streamId: string });

/** A run calling its provider now, by its stream's id: what tells it apart, and how to stop it. */
interface RunningCall {
  serverId: string;
  taskId: string | undefined;
  stop: () => void;
}

/**
 * Runs `sampling/createMessage` on an OpenAI-compatible LLM, streaming.
 *
 * Chooses the model from the server's preferences (or takes the one a person chose),
 * maps the request, streams the answer with throttled progress and live partial text,
 * retries rate limits and server errors a bounded number of times on the clock, and
 * turns every failure into `-32603` with the whole reason, for the person, and its kind in
 * `data.kind` (a server is told only the kind: `failureForServer`).
 * Not resumable: a stream cut by a restart is lost, and re-running it would bill twice.
 */
export class LlmSamplingRunner implements SamplingRunner {
  readonly resumable = false;
  readonly #providers: ProviderSource;
  readonly #clock: Clock;
  readonly #options: LlmSamplingRunnerOptions;
  readonly #retry: RetryOptions;
  /** Runs calling their provider now, by stream id (see {@link stop}). */
  readonly #running = new Map<string, RunningCall>();

  constructor(options: LlmSamplingRunnerOptions) {
    this.#providers = options.providers;
    this.#clock = options.clock ?? systemClock;
    this.#options = options;
    this.#retry = { ...defaultRetryOptions, ...options.retry };
  }

  /**
   * The model the server's preferences select, and why; undefined when none is configured.
   * `passOver` as {@link chooseModel} takes it (a person approves the choice).
   */
  choose(
    params: CreateMessageRequestParams,
    passOver?: { failing?: (providerId: string) => boolean }
  ): ModelChoice | undefined {
    return chooseModel(this.#providers.list(), params.modelPreferences, passOver);
  }

  /**
   * The choice for a model a person picked; undefined when the provider is gone.
   * Keeps the engine's reason when the pick is the engine's own choice.
   */
  choiceFor(providerId: string, model: string, engineChoice?: ModelChoice): ModelChoice | undefined {
    const provider = this.#providers.list().find((p) => p.id === providerId);
    if (!provider) return undefined;
    const same = engineChoice && engineChoice.providerId === providerId && engineChoice.model === model;
    return {
      providerId,
      providerName: provider.name,
      model,
      reason: same ? engineChoice.reason : 'chosen by you'
    };
  }

  /**
   * Stops the model call of `target` (the person's Stop): its provider request is aborted, and
   * the run ends failed, kind `stopped` ("Stopped by you."), which says nothing of the provider.
   * What it had written is not kept: the run failed, as any cut-off stream does. Returns false
   * when no such call runs (it ended meanwhile).
   */
  stop(target: StopTarget): boolean {
    for (const [streamId, call] of this.#running) {
      if (call.serverId !== target.serverId) continue;
      if ('taskId' in target ? call.taskId === target.taskId : streamId === target.streamId) {
        call.stop();
        return true;
      }
    }
    return false;
  }

  /**
   * Samples once. `choice` overrides model selection (a person picked the model);
   * without it the server's `modelPreferences` decide.
   */
  async run(params: CreateMessageRequestParams, context: WorkContext, choice?: ModelChoice): Promise<SamplingOutcome> {
    // Failures on Taskdesk's side say what the person can do; `failureForServer` tells a server
    // only their kind.
    const chosen = choice ?? this.choose(params);
    if (!chosen)
      return failed(
        setupFailure(
          'no-model',
          'No LLM provider lists a model to run this request: add one under LLM providers in Taskdesk.'
        )
      );
    const where = { providerId: chosen.providerId, model: chosen.model };
    const provider = this.#providers.list().find((p) => p.id === chosen.providerId);
    // Removed since the model was chosen (by a person who picked it, or the engine).
    if (!provider)
      return failed(setupFailure('model-removed', `The LLM provider "${chosen.providerId}" is not configured.`, where));
    context.annotate?.({
      model: chosen.model,
      provider: provider.name,
      providerId: provider.id,
      reason: chosen.reason
    });

    let request: ChatCompletionCreateParamsStreaming;
    try {
      request = toChatCompletionRequest(params, { model: chosen.model, tokenLimitParam: tokenLimitParamOf(provider) });
    } catch (error) {
      if (error instanceof HostError) return { type: 'error', error: toErrorData(error) };
      throw error;
    }
    if (context.signal.aborted) return cancelledOutcome(context.signal);

    const answered = this.#options.onCall?.(provider.id);
    let apiKey: string | undefined;
    try {
      apiKey = await this.#providers.apiKey(provider.id);
    } catch (error) {
      // No answer of the provider's (`answered` is not told): the key store's own words, which
      // may name its file or quote what it holds, are for the person only.
      const why = redactSecrets(`Taskdesk could not read the API key of ${provider.name}: ${errorMessage(error)}`);
      return failed(setupFailure('key-store', why, where));
    }
    const subject: FailureSubject = {
      providerName: provider.name,
      baseURL: provider.baseURL,
      model: chosen.model,
      apiKey
    };
    const client = createProviderClient(provider, apiKey, this.#options.fetch ? { fetch: this.#options.fetch } : {});

    // One controller per run: the task's signal, our own timeouts and the person's Stop abort it.
    const controller = new AbortController();
    // The text streamed so far, once there is some: the stream's last update repeats it, marked done.
    const streamed = { id: randomUUID(), text: undefined as string | undefined };
    let stoppedByPerson = false;
    this.#running.set(streamed.id, {
      serverId: context.serverId,
      taskId: context.taskId,
      stop: () => {
        stoppedByPerson = true;
        controller.abort(new Error('stopped by the person'));
      }
    });
    let expiredAfterMs: number | undefined;
    const watchdog = new Watchdog(this.#clock, (ms) => {
      expiredAfterMs = ms;
      controller.abort(new Error('provider timed out'));
    });
    const onAbort = () => controller.abort(context.signal.reason);
    context.signal.addEventListener('abort', onAbort, { once: true });
    const interrupted = (): ProviderFailure | undefined =>
      context.signal.aborted
        ? cancelled()
        : stoppedByPerson
          ? stoppedFailure()
          : expiredAfterMs !== undefined
            ? timeoutFailure(subject, expiredAfterMs)
            : undefined;
    const classify = (error: unknown) => interrupted() ?? classifyProviderError(error, subject);

    const firstByteMs = this.#options.firstByteTimeoutMs ?? 120_000;
    const idleMs = this.#options.idleTimeoutMs ?? 60_000;
    try {
      const stream = await withRetries(
        async () => {
          watchdog.arm(firstByteMs);
          try {
            return await client.chat.completions.create(request, { signal: controller.signal });
          } catch (error) {
            watchdog.disarm();
            throw error;
          }
        },
        classify,
        {
          ...this.#retry,
          clock: this.#clock,
          signal: controller.signal,
          onRetry: (notice) => {
            context.annotate?.({ retry: notice.retry, waitMs: notice.waitMs, reason: notice.failure.message });
            this.#options.onRetry?.({
              ...notice,
              serverId: context.serverId,
              ...(context.taskId ? { taskId: context.taskId } : {})
            });
          }
        }
      );

      const accumulator = await this.#consume(
        stream,
        params,
        context,
        provider,
        chosen.model,
        () => watchdog.arm(idleMs),
        classify,
        streamed
      );
      // The SDK ends the iteration quietly when the request is aborted, and a server
      // that drops the connection may just end the body: neither has a finish_reason.
      const stopped = interrupted();
      if (stopped) throw new ProviderFailureError(stopped);
      const completion = accumulator.result();
      if (completion.finishReason === null) {
        throw new ProviderFailureError(droppedFailure(subject));
      }
      try {
        const answer: SamplingOutcome = {
          type: 'result',
          result: toCreateMessageResult(completion, params, chosen.model)
        };
        answered?.();
        return answer;
      } catch (error) {
        if (!(error instanceof MalformedCompletionError)) throw error;
        return this.#failureOutcome(
          {
            kind: 'bad-response',
            retryable: false,
            message: `${provider.name} returned an unusable answer: ${error.message}.`
          },
          provider,
          chosen.model,
          apiKey,
          answered
        );
      }
    } catch (error) {
      const found = error instanceof ProviderFailureError ? error.failure : classify(error);
      if (found.kind === 'cancelled' && context.signal.aborted) return cancelledOutcome(context.signal);
      return this.#failureOutcome(found, provider, chosen.model, apiKey, answered);
    } finally {
      this.#running.delete(streamed.id);
      watchdog.disarm();
      context.signal.removeEventListener('abort', onAbort);
      if (streamed.text !== undefined)
        this.#partial(context, streamed.id, provider, chosen.model, streamed.text, '', true);
    }
  }

  /** Reads the stream into an accumulator, with partial text and throttled progress. */
  async #consume(
    stream: AsyncIterable<ChatCompletionChunk>,
    params: CreateMessageRequestParams,
    context: WorkContext,
    provider: ProviderSettings,
    model: string,
    onChunk: () => void,
    classify: (error: unknown) => ProviderFailure,
    streamed: { id: string; text: string | undefined }
  ): Promise<StreamAccumulator> {
    const accumulator = new StreamAccumulator();
    const throttle = new ProgressThrottle(this.#clock, this.#options.progressIntervalMs ?? 250);
    try {
      for await (const chunk of stream) {
        onChunk();
        const before = accumulator.deltas;
        const delta = accumulator.add(chunk);
        if (delta) {
          streamed.text = accumulator.text;
          this.#partial(context, streamed.id, provider, model, accumulator.text, delta);
        }
        if (accumulator.deltas > before && context.reportProgress && throttle.take()) {
          context.reportProgress(accumulator.deltas, params.maxTokens, `Generating with ${model}`);
        }
      }
    } catch (error) {
      throw new ProviderFailureError(classify(error));
    }
    return accumulator;
  }

  #partial(
    context: WorkContext,
    streamId: string,
    provider: ProviderSettings,
    model: string,
    text: string,
    delta: string,
    done = false
  ): void {
    this.#options.onPartial?.({
      serverId: context.serverId,
      ...(context.taskId ? { taskId: context.taskId } : {}),
      streamId,
      providerId: provider.id,
      model,
      text,
      delta,
      ...(done && { done: true as const })
    });
  }

  /**
   * The error a failure ends the request with. Its message goes to the UI, the task's notes and
   * the audit log (a server is told only its kind, see `failureForServer`): it is redacted once
   * more here, whatever part of the engine wrote it, so that no echo of the key can leave.
   */
  #failureOutcome(
    found: ProviderFailure,
    provider: ProviderSettings,
    model: string,
    apiKey: string | undefined,
    answered: ((failure?: string) => void) | undefined
  ): SamplingOutcome {
    const data: Record<string, unknown> = { kind: found.kind, providerId: provider.id, model };
    if (found.status !== undefined) data['status'] = found.status;
    const message = redactSecrets(found.message, [apiKey]);
    // A cancel or the person's Stop is no answer of the provider's, nor is its not knowing a
    // model it does not list (see `unlistedModel`).
    if (found.kind !== 'cancelled' && found.kind !== 'stopped' && !unlistedModel(found, provider, model))
      answered?.(message);
    return { type: 'error', error: { code: JsonRpcCode.InternalError, message, data } };
  }
}

/**
 * Whether a failure is the provider not knowing a model it does not list: a name a person typed
 * (Taskdesk's own choices are among those listed), which says nothing of how the provider
 * answers. Counted as its failing, it was passed over by the drafts that followed and shown
 * failing on every approval card, for one person's typo. A model it lists and does not know
 * (its list is out of date, its address wrong) is its failing.
 */
function unlistedModel(found: ProviderFailure, provider: ProviderSettings, model: string): boolean {
  return found.kind === 'model-not-found' && !modelNamesOf(provider).includes(model);
}

function cancelled(): ProviderFailure {
  return { kind: 'cancelled', message: MODEL_RUN_CANCELLED, retryable: false };
}

/**
 * The outcome of work the task's signal stopped: -32800, or the receiver's own error when
 * it aborted with one (it says why: cancelled by the requestor, expired...).
 */
export function cancelledOutcome(signal: AbortSignal): { type: 'error'; error: ErrorData } {
  if (signal.reason instanceof HostError) return { type: 'error', error: toErrorData(signal.reason) };
  return { type: 'error', error: { code: JsonRpcCode.RequestCancelled, message: MODEL_RUN_CANCELLED } };
}

function failed(error: ErrorData): { type: 'error'; error: ErrorData } {
  return { type: 'error', error };
}
