import type { Conversation } from '../../app/contract/assistant.js';

/**
 * A chat without tools, as its header says it (after the model): why, when it began without them
 * because the model's context cannot hold their descriptions (`toolsOff`). Ticking servers in the
 * settings offers them all the same.
 */
export function noToolsWords({ toolsOff }: Pick<Conversation, 'toolsOff'>): string {
  return toolsOff ? ` · no tools: ${toolsOffReason(toolsOff)}` : ' · no tools';
}

/** Why a chat began without tools (`toolsOff`): "the descriptions of your servers’ 8 tools do not fit …". */
export function toolsOffReason(toolsOff: NonNullable<Conversation['toolsOff']>): string {
  const context = `this model’s context of ${toolsOff.contextSize} tokens`;
  return toolsOff.tools === 1
    ? `the description of your servers’ one tool does not fit ${context}`
    : `the descriptions of your servers’ ${toolsOff.tools} tools do not fit ${context}`;
}
