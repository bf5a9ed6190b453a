import { dialog, ipcMain, type BrowserWindow } from 'electron';
import { HostEvents, type HostEvent } from '../app/contract/host-api.js';
import type { Host } from '../app/host/host.js';
import type { AgreedSignIns } from './agreed-sign-ins.js';
import { answerCall } from './host-call.js';
import { CALL_CHANNEL, EVENT_CHANNEL, PICK_FOLDER_CHANNEL } from './ipc-channels.js';
import { isTrustedSender } from './trusted-sender.js';

/** Where the host API is served: the window whose page may call it. */
export interface BindingTarget {
  window(): BrowserWindow | undefined;
  /** The file:// URL of the renderer page. */
  pageUrl: string;
  /** Told of each sign-in page the host hands out, so its `window.open` needs no second dialog. */
  signIns?: AgreedSignIns;
}

/**
 * Serves the host API over Electron IPC: calls on the invoke channel are answered by
 * {@link answerCall} (sender checked here, params validated by the host); every host event
 * goes to the window on the event channel.
 *
 * Returns the function that unbinds it.
 */
export function bindHostApi(host: Pick<Host, 'dispatch' | 'on'>, target: BindingTarget): () => void {
  ipcMain.handle(CALL_CHANNEL, async (event, method: unknown, params: unknown) => {
    const reply = await answerCall(host, isTrustedSender(event, target.window(), target.pageUrl), method, params);
    target.signIns?.noteReply(method, reply);
    return reply;
  });
  ipcMain.handle(PICK_FOLDER_CHANNEL, async (event) => {
    const window = target.window();
    if (!window || !isTrustedSender(event, window, target.pageUrl)) return null;
    const picked = await dialog.showOpenDialog(window, { properties: ['openDirectory'] });
    return picked.canceled ? null : (picked.filePaths[0] ?? null);
  });
  const unsubscribes = (Object.keys(HostEvents) as HostEvent[]).map((event) =>
    host.on(event, (payload) => {
      const window = target.window();
      if (window && !window.isDestroyed()) window.webContents.send(EVENT_CHANNEL, { event, payload });
    })
  );
  return () => {
    ipcMain.removeHandler(CALL_CHANNEL);
    ipcMain.removeHandler(PICK_FOLDER_CHANNEL);
    for (const unsubscribe of unsubscribes) unsubscribe();
  };
}

/** Sends the warnings raised while the host loaded, which happened before any page listened. */
export function replayWarnings(host: Pick<Host, 'warnings'>, window: BrowserWindow): void {
  for (const warning of host.warnings)
    window.webContents.send(EVENT_CHANNEL, { event: 'store.warning', payload: warning });
}
