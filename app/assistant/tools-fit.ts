import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import type { ProviderSettings } from '../contract/providers.js';
import { localModels } from '../sampling/local-model.js';

/** Tools whose descriptions alone are more than the model's context holds: how many, and that context in tokens. */
export interface ToolsTooLong {
  tools: number;
  contextSize: number;
}

/**
 * Whether the descriptions of the tools `offered` (asked only for a model file) alone, with the
 * system prompt, are more than the model's context holds, so that no message can be answered
 * while they are offered. Known for a model
 * file on this computer (its model is loaded to count them, as its first message would load it);
 * not for a provider elsewhere, nor for a file that cannot be loaded (undefined: its first
 * message says what is wrong).
 */
export async function toolsTooLong(
  settings: ProviderSettings,
  offered: () => Promise<ChatCompletionTool[]>,
  systemPrompt?: string
): Promise<ToolsTooLong | undefined> {
  if (settings.modelFile === undefined) return undefined;
  try {
    const tools = await offered();
    if (tools.length === 0) return undefined;
    const { contextSize, tokens, room } = await localModels.toolsRoom(settings.modelFile, tools, systemPrompt);
    return tokens > room ? { tools: tools.length, contextSize } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why a retry is not made: the same tools would not fit again, whatever the model were asked.
 * What to do: fewer tools while several are offered; none once only one is.
 */
export function toolsStillTooLong({ tools, contextSize }: ToolsTooLong): string {
  return tools === 1
    ? `The description of the one tool this chat offers takes more than the model's context of ${contextSize} tokens by itself: turn off tools and retry.`
    : `The descriptions of the ${tools} tools this chat offers take more than the model's context of ${contextSize} tokens by themselves: offer fewer tools (or none).`;
}
