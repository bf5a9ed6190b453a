import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import type { ProviderSettings } from '../contract/providers.js';
import type { LocalModels } from '../sampling/local-model.js';

/**
 * What loads a model file and counts what the tools' descriptions take of its context: the
 * process's `LocalModels` (a test gives one whose load it holds, or fails).
 */
export type ModelFiles = Pick<LocalModels, 'toolsRoom'>;

/** Tools whose descriptions alone are more than the model's context holds: how many, and that context in tokens. */
export interface ToolsTooLong {
  tools: number;
  contextSize: number;
}

/**
 * Whether the descriptions of the tools `offered` (asked only for a model file) alone, with the
 * system prompt, are more than the model's context holds, so that no message can be answered
 * while they are offered. Known for a model file on this computer, whose model is loaded to
 * count them (as its first message would load it; `onProgress` is told how far the load is, from
 * 0 to 1, when llama.cpp says); not for a provider elsewhere (undefined), nor when the tools
 * offered could not be listed (undefined: its first message says what is wrong). Rejects when
 * the model could not be loaded (a `LocalModelError`, in words).
 */
export async function toolsTooLong(
  models: ModelFiles,
  settings: ProviderSettings,
  offered: () => Promise<ChatCompletionTool[]>,
  systemPrompt?: string,
  onProgress?: (progress: number) => void
): Promise<ToolsTooLong | undefined> {
  if (settings.modelFile === undefined) return undefined;
  let tools: ChatCompletionTool[];
  try {
    tools = await offered();
  } catch {
    return undefined;
  }
  if (tools.length === 0) return undefined;
  const { contextSize, tokens, room } = await models.toolsRoom(settings.modelFile, tools, systemPrompt, onProgress);
  return tokens > room ? { tools: tools.length, contextSize } : undefined;
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
