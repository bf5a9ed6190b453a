import type { AnswerCutOff } from '../../app/contract/assistant.js';

/** Under an Assistant answer the provider ended before the model finished it (its finish reason). */
export function cutOffWords(cutOff: AnswerCutOff): string {
  return cutOff === 'length'
    ? 'Cut off: the model reached its token limit, or the end of its context, before it finished.'
    : 'Cut off: the provider’s content filter withheld the rest of the answer.';
}

/**
 * What a review card says of a model's answer that did not end as the model meant, from its
 * MCP `stopReason`: at the request's token limit (`maxTokens`, named: the server's, or the person's if they changed it on the approval card),
 * or by the provider's content filter. Undefined for any other answer.
 */
export function reviewCutOffText(stopReason: unknown, maxTokens: unknown): string | undefined {
  if (stopReason === 'maxTokens')
    return typeof maxTokens === 'number'
      ? `Cut off: the model reached the limit of ${maxTokens} tokens before it finished. Send it as it is, edit it, or reject it.`
      : 'Cut off: the model reached its token limit before it finished. Send it as it is, edit it, or reject it.';
  if (stopReason === 'contentFilter')
    return 'Cut off: the provider’s content filter withheld the rest of the answer. Send it as it is, edit it, or reject it.';
  return undefined;
}
