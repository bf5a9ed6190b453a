import type {
  ContentBlock,
  CreateMessageRequestParams,
  SamplingMessage,
  ToolResultContent
} from '@modelcontextprotocol/sdk/types.js';
import type {
  ChatCompletionContentPart,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
  ChatCompletionTool
} from 'openai/resources/chat/completions';
import { HostError, JsonRpcCode } from '../core/errors.js';
import type { TokenLimitParam } from '../contract/providers.js';
import { assertToolBalance, blocksOf } from './tool-balance.js';

/** The model and provider quirks a request is built for. */
export interface ChatTarget {
  model: string;
  tokenLimitParam: TokenLimitParam;
}

/**
 * Maps MCP `sampling/createMessage` params to a streamed chat-completions request.
 *
 * - `systemPrompt` becomes the leading `system` message.
 * - Text, image and audio blocks become content parts (a lone text block is sent as a
 *   plain string, which every OpenAI-compatible server accepts); images go as `data:`
 *   URLs, audio as `input_audio` (chat completions takes only wav and mp3).
 * - Assistant `tool_use` blocks become `tool_calls`; each user `tool_result` becomes one
 *   `tool` message (the role OpenAI uses for results), in order.
 * - `tools` become function tools; `toolChoice.mode` maps to `tool_choice` as is.
 * - `maxTokens`, `temperature` and `stopSequences` map to the provider's fields.
 * - `includeContext`: Taskdesk has no context of other servers to attach, so
 *   `thisServer` and `allServers` are treated as `none` (the spec lets a client ignore
 *   it, and the values are soft-deprecated); the host does not declare `sampling.context`.
 * - `metadata` is not forwarded: it is provider-specific and OpenAI's field of that
 *   name means something else (stored-completion tags).
 *
 * Throws `HostError` -32602 for histories no chat-completions provider can take
 * (unbalanced tool ids, media in assistant turns, unsupported audio types).
 */
export function toChatCompletionRequest(
  params: CreateMessageRequestParams,
  target: ChatTarget
): ChatCompletionCreateParamsStreaming {
  assertToolBalance(params.messages);
  const messages: ChatCompletionMessageParam[] = [];
  if (params.systemPrompt) messages.push({ role: 'system', content: params.systemPrompt });
  params.messages.forEach((message, index) => messages.push(...toChatMessages(message, index)));

  const request: ChatCompletionCreateParamsStreaming = {
    model: target.model,
    messages,
    stream: true
  };
  if (target.tokenLimitParam === 'max_completion_tokens') request.max_completion_tokens = params.maxTokens;
  else request.max_tokens = params.maxTokens;
  if (params.temperature !== undefined) request.temperature = params.temperature;
  if (params.stopSequences && params.stopSequences.length > 0) request.stop = [...params.stopSequences];
  if (params.tools && params.tools.length > 0) {
    request.tools = params.tools.map((tool): ChatCompletionTool => ({
      type: 'function',
      function: {
        name: tool.name,
        ...(tool.description !== undefined ? { description: tool.description } : {}),
        parameters: tool.inputSchema
      }
    }));
    // OpenAI rejects tool_choice without tools, so it is only sent with them.
    if (params.toolChoice?.mode) request.tool_choice = params.toolChoice.mode;
  }
  return request;
}

function toChatMessages(message: SamplingMessage, index: number): ChatCompletionMessageParam[] {
  const blocks = blocksOf(message);
  if (message.role === 'assistant') {
    const text: string[] = [];
    const toolCalls: ChatCompletionMessageFunctionToolCall[] = [];
    for (const block of blocks) {
      switch (block.type) {
        case 'text':
          text.push(block.text);
          break;
        case 'tool_use':
          toolCalls.push({
            id: block.id,
            type: 'function',
            function: { name: block.name, arguments: JSON.stringify(block.input) }
          });
          break;
        default:
          invalid(
            `messages[${index}]: chat-completions providers take only text and tool_use in assistant messages, not ${block.type}`
          );
      }
    }
    return [
      {
        role: 'assistant',
        content: text.length > 0 ? text.join('') : null,
        ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {})
      }
    ];
  }

  if (blocks.some((b) => b.type === 'tool_result')) {
    return blocks.map((block) => {
      const result = block as ToolResultContent;
      return { role: 'tool', tool_call_id: result.toolUseId, content: toolResultText(result) };
    });
  }

  const parts: ChatCompletionContentPart[] = blocks.map((block) => {
    switch (block.type) {
      case 'text':
        return { type: 'text', text: block.text };
      case 'image':
        return { type: 'image_url', image_url: { url: `data:${block.mimeType};base64,${block.data}` } };
      case 'audio':
        return { type: 'input_audio', input_audio: { data: block.data, format: audioFormatOf(block.mimeType, index) } };
      default:
        return invalid(`messages[${index}]: ${block.type} is not allowed in a user message here`);
    }
  });
  const only = parts[0];
  if (parts.length === 1 && only?.type === 'text') return [{ role: 'user', content: only.text }];
  return [{ role: 'user', content: parts }];
}

/**
 * A tool result as the text of a `tool` message (chat completions takes only text there).
 *
 * Structured content is sent as JSON when there is no text; media cannot travel in a
 * tool message, so it is named instead of silently dropped.
 */
function toolResultText(result: ToolResultContent): string {
  const pieces = result.content.map(contentBlockText);
  if (pieces.length === 0 && result.structuredContent) pieces.push(JSON.stringify(result.structuredContent));
  const text = pieces.join('\n');
  return result.isError ? `Tool error: ${text}` : text;
}

function contentBlockText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type} (${block.mimeType}) not included: tool messages carry text only]`;
    case 'resource_link':
      return `[resource: ${block.uri}]`;
    case 'resource':
      return 'text' in block.resource ? block.resource.text : `[binary resource: ${block.resource.uri}]`;
    default:
      return '';
  }
}

function audioFormatOf(mimeType: string, index: number): 'wav' | 'mp3' {
  const type = mimeType.toLowerCase().split(';')[0]!.trim();
  if (['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave'].includes(type)) return 'wav';
  if (['audio/mpeg', 'audio/mp3', 'audio/mpeg3'].includes(type)) return 'mp3';
  return invalid(`messages[${index}]: audio type ${mimeType} is not supported by chat completions (wav and mp3 only)`);
}

function invalid(message: string): never {
  throw new HostError(JsonRpcCode.InvalidParams, `Invalid sampling messages: ${message}`);
}
