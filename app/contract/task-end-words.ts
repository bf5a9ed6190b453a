/* Imports no zod: the Desk takes it as a value (a contract module that imports zod would bring
   zod's eval probe into the page), and the app's main process notifies with the same words. */
import { markdownPlainText } from './markdown-plain-text.js';
import { serverErrorText } from './error-words.js';

/** How much of a result's text or an error's message a notice quotes. */
const NOTICE_BODY_LIMIT = 180;

/** What a notice needs of an outbound task's view (its fields written out, so that no schema comes with it). */
export interface EndedTask {
  toolName: string;
  serverName: string;
  state: string;
  cancelledBy?: 'you' | 'server' | 'taskdesk' | undefined;
  lostByYou?: true | undefined;
  reason?: string | undefined;
  task: { statusMessage?: string | undefined };
  outcome?:
    | { type: 'result'; result: { content?: unknown; isError?: boolean | undefined } }
    | { type: 'error'; error: { code: number; message: string } }
    | undefined;
  origin?: { kind: 'assistant' } | undefined;
}

/**
 * The system notification for a tool call's task that ended while the person may be elsewhere (a
 * long call is why it is a task): which tool, on which server, how it ended, and the first words
 * of its result or why it did not give one. None for a task the person cancelled themselves, nor
 * for one their own act lost (a Disconnect, sign-out or settings Save that stopped its stdio
 * process, a Remove of its server): they did it a moment ago, told that it would be lost.
 */
export function taskEndNotice(task: EndedTask): { title: string; body: string } | undefined {
  const assistant = task.origin?.kind === 'assistant';
  // At the head of a title, and within one.
  const tool = assistant ? `The assistant’s call of ${task.toolName}` : task.toolName;
  const toolWithin = assistant ? `the assistant’s call of ${task.toolName}` : task.toolName;
  const on = `${tool} on ${task.serverName}`;
  const result = task.outcome?.type === 'result' ? task.outcome.result : undefined;
  // Said as the Desk says it: a record stored before `toErrorData` left out the SDK's lead holds it.
  const error = task.outcome?.type === 'error' ? serverErrorText(task.outcome.error) : undefined;
  const said = (...texts: Array<string | undefined>) =>
    cut(texts.find((text) => text !== undefined && text.trim() !== '') ?? 'Open Taskdesk to see it on Tasks.');
  switch (task.state) {
    case 'completed':
      // Completed, but its result could not be fetched (an error in its place).
      if (error !== undefined)
        return { title: `${on} finished, but its result could not be fetched`, body: said(error) };
      return result?.isError === true
        ? { title: `${on} ended with an error`, body: said(textOf(result.content)) }
        : { title: `${on} finished`, body: said(result && textOf(result.content)) };
    case 'failed':
      return { title: `${on} failed`, body: said(error, task.task.statusMessage) };
    case 'cancelled':
      if (task.cancelledBy === 'you') return undefined;
      return {
        title: task.cancelledBy === 'server' ? `${task.serverName} cancelled ${toolWithin}` : `${on} was cancelled`,
        body: said(task.task.statusMessage)
      };
    case 'expired':
      return { title: `${on} expired before its result came`, body: said(task.reason) };
    case 'lost':
      if (task.lostByYou === true) return undefined;
      return { title: `${task.serverName} no longer has the task of ${toolWithin}`, body: said(task.reason) };
    default:
      return undefined;
  }
}

/** The text blocks of a tool result's content, one line. */
function textOf(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  const texts = content.flatMap((block: unknown) => {
    const { type, text } = (block ?? {}) as { type?: unknown; text?: unknown };
    return type === 'text' && typeof text === 'string' ? [text] : [];
  });
  // A result's text is often Markdown: a notification shows plain words, as a question's does.
  return texts.length === 0 ? undefined : markdownPlainText(texts.join('\n\n'));
}

function cut(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > NOTICE_BODY_LIMIT ? `${line.slice(0, NOTICE_BODY_LIMIT - 1)}…` : line;
}
