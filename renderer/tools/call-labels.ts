import type { OutboundTaskView, PlainCallView } from '../../app/contract/host-api.js';

/** When a call started, to the second: what tells two calls of one tool apart. */
const startFormat = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });

/**
 * The name of a running call's Cancel. A call shows twice, under its tool's form and in the
 * Running calls list, so the two say which is which: the list's names the server, as its line
 * does (it holds every server's calls), and both say when the call started, which tells apart
 * two calls of one tool.
 */
export function cancelCallLabel(call: Pick<PlainCallView, 'toolName' | 'serverName' | 'startedAt'>, inList: boolean) {
  const started = startFormat.format(new Date(call.startedAt));
  return inList
    ? `Cancel ${call.toolName} on ${call.serverName}, started ${started}, in Running calls`
    : `Cancel ${call.toolName}, started ${started}`;
}

/**
 * A tool task's card as its buttons and its result's fold name it ("Cancel work-required task
 * started 10:04:05", "Check … now", "Forget …", "Details of …"): by its tool and when it started,
 * as a plain call's Cancel is named, not by its server's id for the task, which names nothing a
 * person knows (its card keeps the id in a tooltip).
 */
export function taskCardLabel(task: Pick<OutboundTaskView, 'toolName' | 'createdAt'>): string {
  return `${task.toolName} task started ${startFormat.format(new Date(task.createdAt))}`;
}
