import { EventEmitter, once } from 'node:events';
import {
  CreateMessageRequestParamsSchema,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type CreateMessageResultWithTools
} from '@modelcontextprotocol/sdk/types.js';
import type { Clock } from '../../../app/core/clock.js';
import type { WorkContext, WorkOutcome } from '../../../app/receiver/runners.js';
import { InMemoryKeyStore } from '../../../app/sampling/key-store.js';
import {
  LlmSamplingRunner,
  type LlmSamplingRunnerOptions,
  type PartialUpdate
} from '../../../app/sampling/llm-sampling-runner.js';
import type { ProviderSettings } from '../../../app/contract/providers.js';
import { ProviderRegistry } from '../../../app/sampling/provider-registry.js';
import type { RetryNotice } from '../../../app/sampling/retry.js';
import type { FakeOpenAIServer } from '../../support/fake-openai-server.js';

/** An API key that must never show up in anything the engine returns or records. */
export const SECRET_KEY = 'sk-test-SECRET-0123456789abcdef';

/** Events the engine emitted, awaitable in order. */
export class Recorder<T> extends EventEmitter {
  readonly items: T[] = [];
  #read = 0;

  readonly push = (item: T): void => {
    this.items.push(item);
    this.emit('item');
  };

  /** Resolves with the next item not yet returned by `next()`. */
  async next(): Promise<T> {
    while (this.items.length <= this.#read) await once(this, 'item');
    return this.items[this.#read++]!;
  }
}

/** A provider pointing at the fake server. */
export function fakeProvider(server: FakeOpenAIServer, extra: Partial<ProviderSettings> = {}): ProviderSettings {
  return {
    id: 'fake',
    name: 'Fake LLM',
    baseURL: server.baseURL,
    models: [{ name: 'fake-small' }, { name: 'fake-large' }],
    defaultModel: 'fake-small',
    ...extra
  };
}

/** A runner on the fake server with recorders for partial text and retries. */
export async function makeRunner(
  server: FakeOpenAIServer,
  options: {
    apiKey?: string;
    clock?: Clock;
    provider?: Partial<ProviderSettings>;
  } & Partial<LlmSamplingRunnerOptions> = {}
) {
  const keys = new InMemoryKeyStore(options.apiKey ? { fake: options.apiKey } : {});
  const registry = new ProviderRegistry(keys, [fakeProvider(server, options.provider)]);
  const partials = new Recorder<PartialUpdate>();
  const retries = new Recorder<RetryNotice>();
  const runner = new LlmSamplingRunner({
    providers: registry,
    onPartial: partials.push,
    onRetry: retries.push,
    retry: { baseDelayMs: 0, maxRetries: 2, maxWaitMs: 10_000 },
    ...options
  });
  return { runner, registry, keys, partials, retries };
}

/** A work context with recorders for progress, notes and input-required changes. */
export function makeContext(overrides: Partial<WorkContext> = {}) {
  const controller = new AbortController();
  const progress = new Recorder<{ progress: number; total: number | undefined; message: string | undefined }>();
  const notes = new Recorder<Record<string, unknown>>();
  const waitingFor = new Recorder<{ message: string | undefined; next?: string }>();
  const context: WorkContext = {
    serverId: 'srv-1',
    serverName: 'Test server',
    taskId: 'task-1',
    signal: controller.signal,
    reportProgress: (p, total, message) => progress.push({ progress: p, total, message }),
    annotate: (note) => notes.push(note),
    setWaitingFor: (message, next) => waitingFor.push({ message, ...(next !== undefined && { next }) }),
    ...overrides
  };
  return { context, controller, progress, notes, waitingFor };
}

/** Sampling params through the SDK schema, with a one-line user question by default. */
export function samplingParams(extra: Record<string, unknown> = {}): CreateMessageRequestParams {
  return CreateMessageRequestParamsSchema.parse({
    messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
    maxTokens: 64,
    ...extra
  });
}

/** The text of a single-block text result, or undefined for anything else. */
export function textOf(outcome: WorkOutcome<CreateMessageResult | CreateMessageResultWithTools>): string | undefined {
  if (outcome.type !== 'result' || Array.isArray(outcome.result.content)) return undefined;
  return outcome.result.content.type === 'text' ? outcome.result.content.text : undefined;
}
