import type { SamplingMessage, SamplingMessageContentBlock } from '@modelcontextprotocol/sdk/types.js';
import { HostError, JsonRpcCode } from '../core/errors.js';

/** A message's content as an array, whether it was sent as one block or many. */
export function blocksOf(message: SamplingMessage): SamplingMessageContentBlock[] {
  return Array.isArray(message.content) ? message.content : [message.content];
}

/**
 * Checks the spec's tool-use rules for a sampling conversation (MCP 2025-11-25,
 * "Tool Use and Result Balance" and "Tool Result Messages").
 *
 * - `tool_use` appears only in assistant messages, `tool_result` only in user messages;
 * - a user message with a `tool_result` holds nothing but tool results;
 * - an assistant message with `tool_use` is followed at once by a user message whose
 *   results answer exactly its ids, each once;
 * - every result answers a `tool_use` of the message just before it.
 *
 * Throws `HostError` -32602 naming the offending id, since OpenAI-style providers
 * reject such a history with an opaque 400 and the server needs to know why.
 */
export function assertToolBalance(messages: readonly SamplingMessage[]): void {
  let pending: string[] | undefined;
  messages.forEach((message, index) => {
    const blocks = blocksOf(message);
    const uses = blocks.filter((b) => b.type === 'tool_use');
    const results = blocks.filter((b) => b.type === 'tool_result');
    const where = `messages[${index}]`;

    if (pending) {
      if (message.role !== 'user' || results.length === 0) {
        fail(`${where}: tool_use id(s) ${list(pending)} must be answered by tool_result in the next user message`);
      }
    }
    if (message.role === 'user' && uses.length > 0) fail(`${where}: tool_use is only allowed in assistant messages`);
    if (message.role === 'assistant' && results.length > 0)
      fail(`${where}: tool_result is only allowed in user messages`);
    if (results.length > 0 && results.length !== blocks.length) {
      fail(`${where}: a user message with tool_result must contain only tool_result blocks`);
    }

    if (results.length > 0) {
      const expected = new Set(pending ?? []);
      const seen = new Set<string>();
      for (const result of results) {
        if (!expected.has(result.toolUseId)) {
          fail(
            `${where}: tool_result for unknown toolUseId "${result.toolUseId}" (no matching tool_use in the previous assistant message)`
          );
        }
        if (seen.has(result.toolUseId)) fail(`${where}: more than one tool_result for toolUseId "${result.toolUseId}"`);
        seen.add(result.toolUseId);
      }
      const missing = [...expected].filter((id) => !seen.has(id));
      if (missing.length > 0) fail(`${where}: no tool_result for tool_use id(s) ${list(missing)}`);
    }

    if (uses.length > 0) {
      const ids = uses.map((u) => u.id);
      const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
      if (duplicate !== undefined) fail(`${where}: duplicate tool_use id "${duplicate}"`);
      pending = ids;
    } else {
      pending = undefined;
    }
  });
  // A trailing assistant tool_use with no results yet cannot be sent to a model: the
  // provider would be asked to continue a turn whose tool calls were never answered.
  if (pending) fail(`messages[${messages.length - 1}]: tool_use id(s) ${list(pending)} have no tool_result`);
}

function list(ids: readonly string[]): string {
  return ids.map((id) => `"${id}"`).join(', ');
}

function fail(message: string): never {
  throw new HostError(JsonRpcCode.InvalidParams, `Invalid sampling messages: ${message}`);
}
