import { randomUUID } from 'node:crypto';
import type { AssistantToolCall, Conversation } from '../contract/assistant.js';
import type { OutboundTaskView } from '../contract/outbound-tasks.js';
import type { ToolResultForModel } from './chat-messages.js';
import type { ConversationBook } from './conversation-book.js';

/**
 * Adds a call's result as the model reads it and ends the call: a `tool` message, or a notice
 * when an interim result (a task's immediate response) already answered the call. The tool's
 * `CallToolResult` goes with it for the screen.
 */
export function addToolResult(
  book: ConversationBook,
  c: Conversation,
  call: AssistantToolCall,
  result: ToolResultForModel,
  state?: AssistantToolCall['state']
): void {
  call.state = state ?? (result.isError ? 'failed' : 'completed');
  const extra = {
    ...(result.images.length > 0 && { images: result.images }),
    ...(result.raw !== undefined && { result: result.raw })
  };
  if (call.interimSent) {
    book.push(c, {
      id: randomUUID(),
      at: book.now(),
      role: 'notice',
      toolCallId: call.id,
      text: `The task started by tool call ${call.id} (${call.toolName ?? call.functionName}) has ended. Its result:\n${result.text}`,
      ...extra
    });
    return;
  }
  book.push(c, {
    id: randomUUID(),
    at: book.now(),
    role: 'tool',
    toolCallId: call.id,
    text: result.text,
    ...(result.isError && { isError: true }),
    ...extra
  });
}

/** What the model reads of a call the person stopped: a failed tool result, or a notice after an interim one. */
export function addStoppedResult(
  book: ConversationBook,
  c: Conversation,
  call: AssistantToolCall,
  interim: boolean,
  text: string
): void {
  if (interim) book.push(c, { id: randomUUID(), at: book.now(), role: 'notice', toolCallId: call.id, text });
  else book.push(c, { id: randomUUID(), at: book.now(), role: 'tool', toolCallId: call.id, text, isError: true });
}

/**
 * What the model (and the call's card) reads of a task that ended without a result: cancelled
 * (and by whom), expired or lost, and then the requestor's reason as it is. The reason is whole
 * sentences that may hold parentheses of their own (a lost task's "(It answered: …)"), so it
 * follows the state rather than being put inside its parentheses.
 */
export function endedWithoutResult(task: Pick<OutboundTaskView, 'state' | 'cancelledBy' | 'reason'>): string {
  const by = task.cancelledBy === 'you' ? ' by the person' : task.cancelledBy === 'server' ? ' by the server' : '';
  const state = task.state === 'cancelled' ? `cancelled${by}` : task.state;
  const reason = task.state !== 'cancelled' && task.reason ? ` ${task.reason}` : '';
  return `The task ended without a result (${state}).${reason}`;
}
