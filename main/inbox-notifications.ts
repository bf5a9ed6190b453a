import { Notification, type BrowserWindow } from 'electron';
import type { InboxItem } from '../app/contract/host-api.js';
import { markdownPlainText } from '../app/contract/markdown-plain-text.js';
import type { Host } from '../app/host/host.js';

const MAX_BODY = 180;

/**
 * Shows a system notification when a question arrives while the window is not in front, and
 * again when one is about to expire unanswered (`inbox.expiring`), when a tool call of the
 * assistant waits for approval, and when a tool call's task ends (`outbound.ended`, unless the
 * person cancelled it); clicking one brings the window forward. Returns the function that stops it.
 */
export function notifyInboxItems(
  host: Pick<Host, 'on'> & { assistant: { get(conversationId: string): { title: string } } },
  window: () => BrowserWindow | undefined
): () => void {
  // Electron drops a notification's handlers once it is garbage-collected: keep them alive.
  const shown = new Set<Notification>();
  const notify = (title: string, body: string) => {
    const target = window();
    if (!Notification.isSupported() || target?.isFocused()) return;
    const notification = new Notification({ title, body });
    shown.add(notification);
    notification.on('click', () => {
      shown.delete(notification);
      const current = window();
      if (!current || current.isDestroyed()) return;
      if (current.isMinimized()) current.restore();
      current.show();
      current.focus();
    });
    notification.on('close', () => shown.delete(notification));
    notification.show();
  };
  const stops = [
    host.on('inbox.added', ({ item }) => notify(`${item.serverName} is waiting for you`, bodyOf(item))),
    host.on('inbox.expiring', ({ item }) =>
      notify(`${item.serverName}'s question expires soon`, `${expiryOf(item)} ${bodyOf(item)}`)
    ),
    // A tool call's task is a long call: its end is worth a notification while the person is elsewhere.
    host.on('outbound.ended', ({ notice }) => {
      if (notice) notify(notice.title, notice.body);
    }),
    host.on('assistant.approval', ({ conversationId, toolCall }) =>
      notify(
        `The assistant asks to run ${toolCall.toolName ?? toolCall.functionName}`,
        `In “${cut(titleOf(host, conversationId))}”. Open Taskdesk to approve or deny it.`
      )
    )
  ];
  return () => stops.forEach((stop) => stop());
}

function titleOf(host: { assistant: { get(conversationId: string): { title: string } } }, id: string): string {
  try {
    return host.assistant.get(id).title;
  } catch {
    // Deleted meanwhile: the notification still says what waits.
    return 'a conversation';
  }
}

function cut(text: string): string {
  return text.length > MAX_BODY / 2 ? `${text.slice(0, MAX_BODY / 2 - 1)}…` : text;
}

/** "Expires at 14:05." in the user's locale. */
function expiryOf(item: InboxItem): string {
  if (!item.expiresAt) return '';
  return `Expires at ${new Date(item.expiresAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}.`;
}

function bodyOf(item: InboxItem): string {
  if (item.kind === 'sampling') return 'A model reply is requested. Open Taskdesk to answer or reject it.';
  if (item.kind === 'sampling-approval') return 'It asks to run a model. Open Taskdesk to approve or reject it.';
  if (item.kind === 'sampling-review') return "A model's answer waits for your review before it goes back.";
  // A question is Markdown; a notification shows plain text, read as the Desk's own notification reads it.
  const message = typeof item.request.message === 'string' ? markdownPlainText(item.request.message) : '';
  const text =
    item.request.mode === 'url' ? `Asks you to open a link. ${message}` : message || 'A form needs your answer.';
  return text.length > MAX_BODY ? `${text.slice(0, MAX_BODY - 1)}…` : text;
}
