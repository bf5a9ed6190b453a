import type { ConversationSummary } from '../app/contract/assistant.js';
import { conversationSummary } from '../app/contract/conversation-summary.js';
import type { Host } from '../app/host/host.js';
import type { InputExchanges } from '../app/requestor/input-exchanges.js';

/**
 * What the Electron shell shows of what waits on the person: the questions in the Inbox (not
 * those whose answer the Desk holds for its undo window: `Inbox.waiting`), the
 * requests waiting for them to finish in the browser (shown in the Inbox too), and the assistant's
 * tool calls waiting for approval (dock or taskbar badge, tray). Implemented over
 * Electron in `tray.ts`; this file holds no Electron, so the logic is tested under plain Node
 * through this interface.
 */
export interface PendingBadgeView {
  show(count: number, label: string): void;
}

/**
 * The line the tray and its tooltip show for `questions` waiting in the Inbox, `approvals` waiting
 * in chats and `inBrowser` requests waiting for the person to finish in the browser.
 */
export function pendingLabel(questions: number, approvals = 0, inBrowser = 0): string {
  const parts: string[] = [];
  if (questions > 0)
    parts.push(questions === 1 ? '1 question waiting in the Inbox' : `${questions} questions waiting in the Inbox`);
  if (inBrowser > 0)
    parts.push(inBrowser === 1 ? '1 page to finish in your browser' : `${inBrowser} pages to finish in your browser`);
  if (approvals > 0) parts.push(approvals === 1 ? '1 tool call to approve' : `${approvals} tool calls to approve`);
  return parts.length === 0 ? 'Nothing waiting for you' : parts.join(', ');
}

/** The host as the badge reads it. */
export type PendingSource = Pick<Host, 'on'> & {
  inbox: { readonly waiting: number };
  assistant: { list(): ConversationSummary[] };
  requestor: { exchanges?: Pick<InputExchanges, 'waitingForYou'> | undefined };
};

/**
 * Keeps `view` on the number of Inbox items, of requests waiting for the person in the browser and
 * of tool calls waiting for approval, from the host's events; returns the function that stops it.
 * The Inbox and the waiting requests are counted from themselves at every change, so a missed or
 * repeated event cannot leave the badge wrong; the approvals from each
 * conversation as its change reports it (one conversation, not every one, per change), starting
 * from the conversations as they are.
 */
export function followPendingCount(host: PendingSource, view: PendingBadgeView): () => void {
  const approvals = new Map<string, number>();
  for (const summary of host.assistant.list())
    if (summary.pendingApprovals > 0) approvals.set(summary.id, summary.pendingApprovals);
  let shown = '';
  const update = () => {
    let waitingApprovals = 0;
    for (const count of approvals.values()) waitingApprovals += count;
    const questions = host.inbox.waiting;
    const inBrowser = host.requestor.exchanges?.waitingForYou() ?? 0;
    const label = pendingLabel(questions, waitingApprovals, inBrowser);
    if (label === shown) return;
    shown = label;
    view.show(questions + inBrowser + waitingApprovals, label);
  };
  update();
  const stops = [
    host.on('inbox.added', update),
    host.on('inbox.removed', update),
    host.on('inbox.held', update),
    host.on('exchange.changed', update),
    host.on('assistant.changed', ({ conversationId, conversation }) => {
      const count = conversation ? conversationSummary(conversation).pendingApprovals : 0;
      if (count > 0) approvals.set(conversationId, count);
      else approvals.delete(conversationId);
      update();
    })
  ];
  return () => stops.forEach((stop) => stop());
}
