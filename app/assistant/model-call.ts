import type OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { ProviderSettings } from '../contract/providers.js';
import type { Clock } from '../core/clock.js';
import { inChain } from '../core/errors.js';
import { ContextOverflowError } from '../sampling/local-model.js';
import { stoppedBy } from '../sampling/provider-client.js';
import { classifyProviderError } from '../sampling/provider-failure.js';
import { ChangeCoalescer } from '../core/coalesce.js';
import { StreamAccumulator, type AccumulatedToolCall } from '../sampling/stream-accumulator.js';
import type { AnswerCutOff } from '../contract/assistant.js';

/** How one streamed model call ended. */
export type ModelCallOutcome =
  /** `cutOff`: the provider ended the answer before the model did (see {@link cutOffOf}). */
  | { type: 'done'; text: string; toolCalls: AccumulatedToolCall[]; cutOff?: AnswerCutOff }
  /** The person stopped it: the text is what had streamed in. */
  | { type: 'stopped'; text: string }
  /**
   * The provider failed: the message says what happened and what to do; `reason`, only what
   * happened (the classifier's words, for the provider's own state), when the provider was reached.
   * `toolsTooLong`: a model file's context could not hold the conversation with the descriptions
   * of the tools it offered (offering none may let it fit).
   */
  | { type: 'failed'; kind: string; message: string; text: string; reason?: string; toolsTooLong?: true };

/**
 * One streamed chat-completions call: text reported as it grows (at most ten times a second),
 * tool calls put together from their fragments, a provider failure classified as for sampling.
 */
export async function streamModelCall(options: {
  client: OpenAI;
  settings: ProviderSettings;
  apiKey: string | undefined;
  model: string;
  messages: ChatCompletionMessageParam[];
  tools: ChatCompletionTool[];
  signal: AbortSignal;
  clock: Clock;
  onText: (text: string) => void;
}): Promise<ModelCallOutcome> {
  const accumulator = new StreamAccumulator();
  // What came last is shown when the stream pauses, not only with its next token.
  const throttle = new ChangeCoalescer(options.clock, 100, () => options.onText(accumulator.text));
  try {
    const stream = await options.client.chat.completions.create(
      {
        model: options.model,
        messages: options.messages,
        stream: true,
        ...(options.tools.length > 0 && { tools: options.tools })
      },
      // Not the SDK's `signal` option, which costs an `AbortSignal.any` a request.
      stoppedBy(options.signal)
    );
    for await (const chunk of stream) if (accumulator.add(chunk) !== '') throttle.changed();
  } catch (problem) {
    if (!options.signal.aborted) {
      const failed = classifyProviderError(problem, {
        providerName: options.settings.name,
        baseURL: options.settings.baseURL,
        model: options.model,
        ...(options.apiKey && { apiKey: options.apiKey })
      });
      // A model file's context too small says what to do itself: its advice is not said twice.
      // With tools, it is said here, for as many tools as were offered.
      const overflow = inChain(problem, ContextOverflowError);
      return {
        type: 'failed',
        kind: failed.kind,
        message: overflow?.withTools
          ? `${options.settings.name}: ${toolsTooLong(overflow.contextSize, options.tools.length)}`
          : overflow
            ? failed.message
            : `${failed.message}${advice(failed.kind)}`,
        text: accumulator.text,
        reason: failed.message,
        ...(overflow?.withTools && { toolsTooLong: true as const })
      };
    }
  } finally {
    // Ended (or failed, or stopped): what it says next is the whole text, not a late partial.
    throttle.close();
  }
  // The SDK's stream may also end quietly when its request is aborted.
  if (options.signal.aborted) return { type: 'stopped', text: accumulator.text };
  const done = accumulator.result();
  const cutOff = cutOffOf(done.finishReason);
  return { type: 'done', text: done.text, toolCalls: done.toolCalls, ...(cutOff && { cutOff }) };
}

/**
 * Why a provider ended an answer before the model finished it, from its `finish_reason`:
 * `length`, the model's token limit or its context was reached; `content-filter`, the
 * provider's filter withheld the rest. Undefined for an answer that ended as the model meant.
 */
export function cutOffOf(finishReason: string | null): AnswerCutOff | undefined {
  if (finishReason === 'length') return 'length';
  if (finishReason === 'content_filter') return 'content-filter';
  return undefined;
}

/**
 * What a model file's context too small for the conversation with its tools' descriptions asks
 * of the person: fewer tools while it offers several; none once it offers only one.
 */
function toolsTooLong(contextSize: number, tools: number): string {
  const context = `does not fit the model's context of ${contextSize} tokens`;
  return tools === 1
    ? `The conversation, with the description of the one tool it offers, ${context}: turn off tools and retry, or use a model with a larger context.`
    : `The conversation, with the descriptions of the ${tools} tools it offers, ${context}: offer fewer tools (or none), or use a model with a larger context.`;
}

/**
 * What the person can do about a provider failure, after the classifier's own words (which ask
 * already, for a bad key, to check it, and for no connection, whether the server runs and its
 * base URL is right): said once.
 */
function advice(kind: string): string {
  switch (kind) {
    case 'rate-limited':
    case 'server-error':
    case 'timeout':
    case 'dropped':
      return ' Retry when the provider is back.';
    case 'unreachable':
      return ' Correct the base URL under LLM providers if it is wrong, or retry once the server runs.';
    case 'auth':
      return ' Once it is right, retry.';
    case 'bad-request':
      return ' If the conversation is too long for the model, start a new one or choose a model with a larger context, then retry.';
    case 'model-not-found':
      return ' Choose another model in the conversation settings, then retry.';
    default:
      return ' Fix the provider settings, then retry.';
  }
}
