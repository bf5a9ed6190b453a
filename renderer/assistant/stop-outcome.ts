import type { Conversation } from '../../app/contract/assistant.js';

/** The person's last message: the answer after it is the one a Stop stops. */
export const lastUserMessageId = (c: Conversation): string | undefined =>
  c.messages.findLast((m) => m.role === 'user')?.id;

/**
 * Whether the answer to the person's last message shows stopped: cut short by Stop (`stopped`,
 * which the host adds once the model's request has closed), or its tool calls stopped.
 */
function answerStopped(c: Conversation): boolean {
  const last = c.messages.findLast((m) => m.role === 'user' || m.role === 'assistant');
  return (
    last?.role === 'assistant' && (last.stopped === true || last.toolCalls.some((call) => call.state === 'cancelled'))
  );
}

/**
 * Whether the answer to the person's last message has ended (not stopped, not still to come): the
 * conversation is not busy and that answer is there, the model's or a failure. A model stopped
 * mid-answer leaves the person's message (or a tool's result) last until its stopped answer comes.
 */
function answerEnded(c: Conversation): boolean {
  if (c.status === 'generating' || c.status === 'tools') return false;
  const last = c.messages.at(-1)?.role;
  return last === 'assistant' || last === 'error';
}

/**
 * Where a Stop the host has answered stands, in conversation `c`: `stopped` once the answer to the
 * person's message `after` shows stopped (then "Stopped." is said); `over` when there is nothing
 * left to wait for (a message after it, or that answer ended whole: the Stop came too late, and a
 * call of it cancelled later is no Stop's); else it `waits`.
 */
export function stopOutcome(c: Conversation, after: string | undefined): 'waits' | 'stopped' | 'over' {
  if (lastUserMessageId(c) !== after) return 'over';
  if (answerStopped(c)) return 'stopped';
  return answerEnded(c) ? 'over' : 'waits';
}
