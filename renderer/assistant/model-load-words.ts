import type { Conversation } from '../../app/contract/assistant.js';
import { toolsOffReason } from './no-tools-words.js';

/** The chat's header while New chat has its model file loading: "Loading stories260K…". */
export function loadingWords(model: string): string {
  return `Loading ${model}…`;
}

/** How far the load is, when llama.cpp says it (0 to 1): "40%". */
export function loadedPart(progress: number): string {
  return `${Math.floor(progress * 100)}%`;
}

/** Why the model file did not load, in the host's words: "Could not load stories260K: The model file … was not found." */
export function loadFailedWords(model: string, message: string): string {
  return `Could not load ${model}: ${message}`;
}

/**
 * Said once the model has loaded, with what the header then says of its tools when it left them
 * out: "stories260K is ready. No tools: the descriptions of your servers’ 8 tools do not fit …".
 */
export function loadedWords(model: string, { toolsOff }: Pick<Conversation, 'toolsOff'>): string {
  return toolsOff ? `${model} is ready. No tools: ${toolsOffReason(toolsOff)}.` : `${model} is ready.`;
}
