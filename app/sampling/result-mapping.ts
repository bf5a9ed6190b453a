import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  CreateMessageResultWithTools,
  SamplingMessageContentBlock
} from '@modelcontextprotocol/sdk/types.js';
import type { AccumulatedCompletion } from './stream-accumulator.js';

/**
 * The MCP `stopReason` for a chat-completions `finish_reason`.
 *
 * `stop` is `endTurn` unless the provider says a stop sequence ended it (only vLLM
 * reports which, as `stop_reason`); `length` is `maxTokens`; `tool_calls` (and the
 * legacy `function_call`) is `toolUse`; `content_filter` passes as `contentFilter`,
 * since the field is an open string. Tool calls under any other reason (Ollama sends
 * them with `stop`) still mean `toolUse`: the server must run them.
 */
export function stopReasonOf(
  completion: AccumulatedCompletion,
  stopSequences: readonly string[] = []
): string | undefined {
  if (completion.toolCalls.length > 0) return 'toolUse';
  switch (completion.finishReason) {
    case 'stop':
      return completion.matchedStop !== undefined && stopSequences.includes(completion.matchedStop)
        ? 'stopSequence'
        : 'endTurn';
    case 'length':
      return 'maxTokens';
    case 'tool_calls':
    case 'function_call':
      return 'toolUse';
    case 'content_filter':
      return 'contentFilter';
    case null:
      return undefined;
    default:
      return completion.finishReason;
  }
}

/** Why a completion could not be turned into a result. */
export class MalformedCompletionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MalformedCompletionError';
  }
}

/**
 * Maps a finished completion to the `sampling/createMessage` result.
 *
 * Without tool calls the content is a single text block (the shape every client
 * accepts, and the only one allowed when the request had no tools). With tool calls
 * it is an array: the text said before the calls, if any, then one `tool_use` each.
 * `model` is the model the provider reports it ran, falling back to the one asked for.
 */
export function toCreateMessageResult(
  completion: AccumulatedCompletion,
  params: CreateMessageRequestParams,
  requestedModel: string
): CreateMessageResult | CreateMessageResultWithTools {
  const model = completion.model || requestedModel;
  const stopReason = stopReasonOf(completion, params.stopSequences);
  const base = { role: 'assistant' as const, model, ...(stopReason !== undefined ? { stopReason } : {}) };

  if (completion.toolCalls.length === 0) {
    return { ...base, content: { type: 'text', text: completion.text } };
  }
  if (!params.tools || params.tools.length === 0) {
    throw new MalformedCompletionError('the model called a tool although the request offered none');
  }
  const content: SamplingMessageContentBlock[] = [];
  if (completion.text.trim() !== '') content.push({ type: 'text', text: completion.text });
  completion.toolCalls.forEach((call, i) => {
    if (!call.name) throw new MalformedCompletionError(`tool call ${i + 1} has no name`);
    content.push({
      type: 'tool_use',
      id: call.id || `call_${i + 1}`,
      name: call.name,
      input: parseArguments(call.arguments, call.name)
    });
  });
  return { ...base, content };
}

function parseArguments(text: string, name: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new MalformedCompletionError(`the model sent arguments for tool "${name}" that are not valid JSON`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new MalformedCompletionError(`the model sent arguments for tool "${name}" that are not a JSON object`);
  }
  return value as Record<string, unknown>;
}
