/**
 * The Electron main process: builds the one host, the one window, and the IPC binding
 * between them. Glue only; everything that can run under plain Node lives in app/.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { app, BrowserWindow, session } from 'electron';
import { addDemoServerIfNone, demoServerConfig } from '../app/cli/demo-server.js';
import { createHost, type Host } from '../app/host/host.js';
import { setHostHeapGrowth } from '../app/host/heap-growth.js';
import { electronStoreFactory } from './electron-store-factory.js';
import { notifyInboxItems } from './inbox-notifications.js';
import { followPendingCount } from './pending-badge.js';
import { createPendingTray } from './tray.js';
import { SafeStorageKeyStore } from './safe-storage-key-store.js';
import { AgreedSignIns } from './agreed-sign-ins.js';
import { bindHostApi, replayWarnings } from './ipc-binding.js';
import { hardenSession } from './session-policy.js';
import { createMainWindow, guardAllContents } from './window.js';

// build/main/main.js → build/renderer/index.html and build/main/preload/preload.cjs
const here = path.dirname(fileURLToPath(import.meta.url));
const files = {
  page: path.join(here, '..', 'renderer', 'index.html'),
  preload: path.join(here, 'preload', 'preload.cjs')
};
const pageUrl = pathToFileURL(files.page).href;

let host: Host | undefined;
const signIns = new AgreedSignIns();
let mainWindow: BrowserWindow | undefined;
let closing: Promise<void> | undefined;
let hostClosed = false;

function openWindow(): BrowserWindow {
  const window = createMainWindow(files, signIns);
  window.webContents.on('did-finish-load', () => host && replayWarnings(host, window));
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = undefined;
  });
  mainWindow = window;
  return window;
}

function focusWindow(): void {
  const window = mainWindow ?? openWindow();
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}

async function start(): Promise<void> {
  hardenSession(session.defaultSession);
  const dataDir = app.getPath('userData');
  setHostHeapGrowth();
  host = createHost({ dataDir, storeFactory: electronStoreFactory, keyStore: new SafeStorageKeyStore(dataDir) });
  bindHostApi(host, { window: () => mainWindow, pageUrl, signIns });
  notifyInboxItems(host, () => mainWindow);
  followPendingCount(host, createPendingTray({ open: focusWindow, window: () => mainWindow }).view);
  // Electron's binary runs the demo server as Node. The RunAsNode fuse turns that off in
  // packaged builds, which also ship without the (dev-only) demo package: development only.
  await addDemoServerIfNone(host, demoServerConfig({ command: process.execPath, env: { ELECTRON_RUN_AS_NODE: '1' } }));
  openWindow();
}

app.enableSandbox();
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  guardAllContents(() => pageUrl);
  app.on('second-instance', focusWindow);
  app.on('activate', () => {
    if (host && BrowserWindow.getAllWindows().length === 0) openWindow();
  });
  app.on('window-all-closed', () => {
    // macOS apps stay running without windows; the host keeps answering servers.
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('before-quit', (event) => {
    if (!host || hostClosed) return;
    // Close connections and timers first; stored tasks stay for the next start.
    event.preventDefault();
    closing ??= host
      .close()
      .catch((error: unknown) => console.error('Taskdesk did not close cleanly:', error))
      .finally(() => {
        hostClosed = true;
        app.quit();
      });
  });
  // A failed start must not leave a process without a window holding the single-instance lock.
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      console.error('Taskdesk could not start:', error);
      app.exit(1);
    });
}
