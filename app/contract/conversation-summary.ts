import type { Conversation, ConversationSummary } from './assistant.js';

// A module of its own, with type imports only: the Desk imports it as a value, and a value import
// of ./assistant.js would bring zod into the renderer bundle (its eval probe breaks the CSP).

/**
 * The outbound tasks a conversation's tool calls still run as (`outboundId` of each call in state
 * `task`, or stopped but whose task could not be cancelled): the tasks whose questions it waits on, which the list shows for every conversation, held
 * whole by the Desk or not.
 */
export function runningTaskCalls(c: Conversation): string[] {
  const ids: string[] = [];
  for (const m of c.messages)
    if (m.role === 'assistant')
      for (const call of m.toolCalls)
        if ((call.state === 'task' || call.cancelFailed === true) && call.outboundId !== undefined)
          ids.push(call.outboundId);
  return ids;
}

/**
 * Newest activity first (see `activeAt`): the conversation list's order. Two of the same
 * millisecond by id, so that no other change (a rename) swaps them.
 */
export function byActivity(a: ConversationSummary, b: ConversationSummary): number {
  if (a.activeAt !== b.activeAt) return a.activeAt < b.activeAt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/** A conversation's line in the list: what the host lists and the Desk keeps up to date from changes. */
export function conversationSummary(c: Conversation): ConversationSummary {
  let pendingApprovals = 0;
  for (const m of c.messages)
    if (m.role === 'assistant') pendingApprovals += m.toolCalls.filter((t) => t.state === 'pending-approval').length;
  return {
    id: c.id,
    title: c.title,
    providerId: c.providerId,
    model: c.model,
    updatedAt: c.updatedAt,
    activeAt: c.messages.at(-1)?.at ?? c.createdAt,
    status: c.status,
    messageCount: c.messages.length,
    pendingApprovals,
    runningTasks: runningTaskCalls(c)
  };
}

/**
 * The title of a conversation created without one. Its first message names it (the message's
 * first line, cut to {@link FIRST_MESSAGE_TITLE_LENGTH} characters), so that a list of chats is
 * not a list of "New chat".
 */
export const UNTITLED_CONVERSATION = 'New chat';
