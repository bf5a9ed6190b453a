import { useEffect, useState } from 'react';
import type { InboxItem } from '../../app/contract/host-api.js';
import { markdownPlainText } from '../../app/contract/markdown-plain-text.js';
import { requestedTaskKey, taskDetailHref } from '../components/task-address.js';
import { useDesk } from './desk-context.js';

/** Where the person's choice to be notified is kept (per browser profile and origin). */
const OPT_IN_KEY = 'taskdesk.notifications';

/** Whether this page can show system notifications itself: browser mode (Electron's main process notifies on its own). */
function canNotify(): boolean {
  return typeof Notification !== 'undefined' && !window.taskdesk;
}

function optedIn(): boolean {
  try {
    return canNotify() && Notification.permission === 'granted' && localStorage.getItem(OPT_IN_KEY) === 'on';
  } catch {
    return false;
  }
}

function what(item: InboxItem): string {
  return item.kind === 'elicitation' ? 'a question' : 'a model request';
}

function show(title: string, item: InboxItem): void {
  // A question is Markdown; a notification shows plain text (the shell's notification reads it the same way).
  const message = typeof item.request.message === 'string' ? markdownPlainText(item.request.message) : '';
  notify(title, message || item.serverName, `${item.id}`, '#inbox');
}

/** A notification that, clicked, brings the page forward on `address` (a screen, or a task's detail). */
function notify(title: string, body: string, tag: string, address: string): void {
  const notification = new Notification(title, { body, tag });
  notification.onclick = () => {
    window.focus();
    location.hash = address;
    notification.close();
  };
}

function inFront(): boolean {
  return document.visibilityState === 'visible' && document.hasFocus();
}

/**
 * System notifications in browser mode, once the person turned them on: an item that arrives
 * (or a tool call of the assistant that waits for approval) and a tool call's task that ends
 * (unless the person cancelled it or their own act lost it) while the page is hidden or not focused, and an item about to
 * expire unanswered (always: it is the last call).
 */
export function useDeskNotifications(): void {
  const { client } = useDesk();
  useEffect(() => {
    if (!canNotify()) return;
    const offAdded = client.on('inbox.added', ({ item }) => {
      if (!optedIn() || inFront()) return;
      show(`Taskdesk: ${what(item)} from ${item.serverName}`, item);
    });
    // A tool call of the assistant waits on the person as a question does.
    const offApproval = client.on('assistant.approval', ({ conversationId, toolCall }) => {
      if (!optedIn() || inFront()) return;
      notify(
        `Taskdesk: the assistant asks to run ${toolCall.toolName ?? toolCall.functionName}`,
        'Approve or deny it on the Assistant screen.',
        `${conversationId}/${toolCall.id}`,
        '#assistant'
      );
    });
    const offExpiring = client.on('inbox.expiring', ({ item }) => {
      if (optedIn()) show(`Taskdesk: ${what(item)} from ${item.serverName} expires soon`, item);
    });
    // A tool call's task is a long call: its end is told while the person is elsewhere. Clicked,
    // it opens that task's detail (not the list, nor another task's detail kept there).
    const offEnded = client.on('outbound.ended', ({ outboundId, notice }) => {
      if (notice && optedIn() && !inFront())
        notify(`Taskdesk: ${notice.title}`, notice.body, outboundId, taskDetailHref(requestedTaskKey(outboundId)));
    });
    return () => {
      offAdded();
      offApproval();
      offExpiring();
      offEnded();
    };
  }, [client]);
}

/** The button that asks the browser for permission to notify, and says where things stand. */
export function NotificationsControl() {
  const [on, setOn] = useState(optedIn);
  const [denied, setDenied] = useState(() => canNotify() && Notification.permission === 'denied');
  if (!canNotify()) return null;
  if (on)
    return (
      <p className="muted notifications-control">
        Notifications are on.{' '}
        <button
          type="button"
          className="link-button"
          onClick={() => {
            localStorage.removeItem(OPT_IN_KEY);
            setOn(false);
          }}
        >
          Turn off
        </button>
      </p>
    );
  if (denied)
    return <p className="muted notifications-control">Notifications are blocked in this browser’s site settings.</p>;
  return (
    <p className="notifications-control">
      <button
        type="button"
        onClick={() => {
          void Notification.requestPermission().then((permission) => {
            if (permission === 'granted') {
              localStorage.setItem(OPT_IN_KEY, 'on');
              setOn(true);
            } else setDenied(permission === 'denied');
          });
        }}
      >
        Notify me when something arrives
      </button>
    </p>
  );
}
