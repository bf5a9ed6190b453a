import type { BrowserWindow, IpcMainInvokeEvent } from 'electron';

/**
 * Whether an IPC call comes from our page: the main window's own webContents, its top frame
 * (not an iframe), showing our file:// page. VS Code's `electron-main/ipcMain.ts` and GitHub
 * Desktop's `trusted-ipc-sender.ts` check the same.
 */
export function isTrustedSender(
  event: Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>,
  window: BrowserWindow | undefined,
  pageUrl: string
): boolean {
  if (!window || window.isDestroyed()) return false;
  const contents = window.webContents;
  if (event.sender !== contents) return false;
  const frame = event.senderFrame;
  // A frame that navigated away or was destroyed has no sender frame left to trust.
  if (!frame || frame.parent !== null) return false;
  const main = contents.mainFrame;
  if (frame.processId !== main.processId || frame.routingId !== main.routingId) return false;
  let url: URL;
  try {
    url = new URL(frame.url);
  } catch {
    return false;
  }
  const page = new URL(pageUrl);
  return url.protocol === 'file:' && url.pathname === page.pathname;
}
