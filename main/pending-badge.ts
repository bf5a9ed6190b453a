import type { Host } from '../app/host/host.js';

/**
 * What the Electron shell shows of the Inbox: the number of questions waiting (dock or taskbar
 * badge, tray). Implemented over Electron in `tray.ts`; this file holds no Electron, so the
 * logic is tested under plain Node through this interface.
 */
export interface PendingBadgeView {
  show(count: number, label: string): void;
}

/** The line the tray and its tooltip show for `count` waiting questions. */
export function pendingLabel(count: number): string {
  if (count === 0) return 'Nothing waiting in the Inbox';
  return count === 1 ? '1 question waiting in the Inbox' : `${count} questions waiting in the Inbox`;
}

/**
 * Keeps `view` on the number of Inbox items, from the host's events; returns the function that
 * stops it. Counted from the Inbox itself at every change, so a missed or repeated event cannot
 * leave the badge wrong.
 */
export function followPendingCount(
  host: Pick<Host, 'on'> & { inbox: { readonly size: number } },
  view: PendingBadgeView
): () => void {
  let shown = -1;
  const update = () => {
    const count = host.inbox.size;
    if (count === shown) return;
    shown = count;
    view.show(count, pendingLabel(count));
  };
  update();
  const stops = [host.on('inbox.added', update), host.on('inbox.removed', update)];
  return () => stops.forEach((stop) => stop());
}
