import type { ChatCompletionContentPart, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { Conversation } from '../contract/assistant.js';

/** A tool's result as the model will read it. */
export interface ToolResultForModel {
  text: string;
  images: Array<{ mimeType: string; data: string }>;
  isError: boolean;
  /** The `CallToolResult` it was read from, kept for the person to see. */
  raw?: Record<string, unknown>;
}

/**
 * Reads a `CallToolResult` for the model: text blocks as they are, embedded text resources
 * with their URI, resource links and binary resources named, audio named (chat completions takes
 * audio only from the person), images kept aside to go as image input parts, and
 * `structuredContent` as JSON when the tool sent no text of it.
 */
export function toolResultForModel(result: Record<string, unknown>): ToolResultForModel {
  const pieces: string[] = [];
  const images: ToolResultForModel['images'] = [];
  const content = Array.isArray(result.content) ? (result.content as Array<Record<string, unknown>>) : [];
  for (const block of content) {
    switch (block.type) {
      case 'text':
        pieces.push(typeof block.text === 'string' ? block.text : '');
        break;
      case 'image':
        images.push({ mimeType: String(block.mimeType), data: String(block.data) });
        pieces.push(`[image ${images.length} (${String(block.mimeType)})]`);
        break;
      case 'audio':
        pieces.push(`[audio (${String(block.mimeType)}) not included: the model cannot take audio from a tool]`);
        break;
      case 'resource_link':
        pieces.push(`[resource link: ${String(block.uri)}${typeof block.name === 'string' ? ` (${block.name})` : ''}]`);
        break;
      case 'resource': {
        const resource = (block.resource ?? {}) as Record<string, unknown>;
        pieces.push(
          typeof resource.text === 'string'
            ? `[resource ${String(resource.uri)}]\n${resource.text}`
            : `[binary resource: ${String(resource.uri)}${typeof resource.mimeType === 'string' ? ` (${resource.mimeType})` : ''}]`
        );
        break;
      }
      default:
        pieces.push(`[${String(block.type)} content not shown]`);
    }
  }
  if (result.structuredContent !== undefined && !pieces.some((piece) => piece.trim() !== ''))
    pieces.push(JSON.stringify(result.structuredContent));
  const isError = result.isError === true;
  const text = pieces.join('\n');
  return { text: isError ? `Tool error: ${text}` : text, images, isError, raw: result };
}

/**
 * A conversation as chat-completions messages: the system prompt first, the person's and the
 * model's turns, one `tool` message per tool call (chat completions carries only text there, so
 * a result's images follow in a `user` message of image parts, or are named when the model
 * takes no images), notices as `user` messages. Errors shown to the person are left out, and
 * so is an answer stopped before its first word.
 */
export function toChatMessages(conversation: Conversation): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [];
  if (conversation.systemPrompt) messages.push({ role: 'system', content: conversation.systemPrompt });
  let images: ChatCompletionContentPart[] = [];
  const flushImages = () => {
    if (images.length === 0) return;
    messages.push({
      role: 'user',
      content: [{ type: 'text', text: 'Images from the tool results above:' }, ...images]
    });
    images = [];
  };
  const addImages = (list: Array<{ mimeType: string; data: string }> | undefined) => {
    if (!conversation.imageInput) return;
    for (const image of list ?? [])
      images.push({ type: 'image_url', image_url: { url: `data:${image.mimeType};base64,${image.data}` } });
  };
  // Tool messages go in the order of the calls they answer (they are stored in the order the calls ended).
  let order = new Map<string, number>();
  // Calls the person approved with other arguments than the model wrote: its result says what ran.
  let edits = new Map<string, Record<string, unknown>>();
  const results: ChatCompletionMessageParam[] = [];
  const flushResults = () => {
    results.sort((a, b) => (order.get(callIdOf(a)) ?? 0) - (order.get(callIdOf(b)) ?? 0));
    messages.push(...results.splice(0));
  };
  for (const message of conversation.messages) {
    if (message.role !== 'tool') {
      flushResults();
      flushImages();
    }
    switch (message.role) {
      case 'user': {
        if (!message.sources?.length) {
          messages.push({ role: 'user', content: message.text });
          break;
        }
        const parts: ChatCompletionContentPart[] = [{ type: 'text', text: message.text }];
        for (const source of message.sources) {
          parts.push({ type: 'text', text: `[From ${source.label}]\n${source.text}` });
          if (conversation.imageInput)
            for (const image of source.images ?? [])
              parts.push({ type: 'image_url', image_url: { url: `data:${image.mimeType};base64,${image.data}` } });
        }
        messages.push({ role: 'user', content: parts });
        break;
      }
      case 'assistant':
        // An answer stopped before its first word: nothing the model said (and a message of
        // neither content nor tool calls is not one a provider takes).
        if (message.text === '' && message.toolCalls.length === 0) break;
        order = new Map(message.toolCalls.map((call, index) => [call.id, index]));
        edits = new Map(
          message.toolCalls.flatMap((call) => (call.edited && call.arguments ? [[call.id, call.arguments]] : []))
        );
        messages.push({
          role: 'assistant',
          content: message.text === '' ? null : message.text,
          ...(message.toolCalls.length > 0 && {
            tool_calls: message.toolCalls.map((call) => ({
              id: call.id,
              type: 'function' as const,
              function: { name: call.functionName, arguments: call.rawArguments }
            }))
          })
        });
        break;
      case 'tool': {
        const edited = edits.get(message.toolCallId);
        results.push({
          role: 'tool',
          tool_call_id: message.toolCallId,
          content: edited
            ? `The user edited the arguments before approving this call; it was made with ${JSON.stringify(edited)}.\n\n${message.text}`
            : message.text
        });
        addImages(message.images);
        break;
      }
      case 'notice':
        messages.push({ role: 'user', content: message.text });
        addImages(message.images);
        flushImages();
        break;
      case 'error':
        break;
    }
  }
  flushResults();
  flushImages();
  return messages;
}

function callIdOf(message: ChatCompletionMessageParam): string {
  return message.role === 'tool' ? message.tool_call_id : '';
}
