import { app, BrowserWindow, shell } from 'electron';
import type { AgreedSignIns } from './agreed-sign-ins.js';
import { confirmAndOpenExternal } from './external-links.js';

/** Files the window is made from. */
export interface WindowFiles {
  /** Absolute path of the built renderer's index.html. */
  page: string;
  /** Absolute path of the compiled (CommonJS) preload. */
  preload: string;
}

/**
 * The one Taskdesk window, hardened per Electron's security checklist: isolated, sandboxed,
 * no Node in the page, no navigation away from our file, new windows denied (an http(s)
 * link opens in the browser after the user agrees).
 */
export function createMainWindow(files: WindowFiles, signIns?: AgreedSignIns): BrowserWindow {
  const window = new BrowserWindow({
    width: 1180,
    height: 820,
    minWidth: 640,
    minHeight: 480,
    show: false,
    title: 'Taskdesk',
    webPreferences: {
      preload: files.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      devTools: !app.isPackaged
    }
  });
  window.once('ready-to-show', () => window.show());
  window.webContents.setWindowOpenHandler(({ url }) => {
    // A sign-in page the person agreed to on the server's card opens at once; any other link asks.
    if (signIns?.take(url)) void shell.openExternal(url);
    else void confirmAndOpenExternal(window, url);
    return { action: 'deny' };
  });
  window.loadFile(files.page).catch((error: unknown) => console.error('Taskdesk could not load its page:', error));
  return window;
}

/**
 * Applies to every webContents the app ever makes (the window, devtools, anything a bug lets
 * in): no navigation off the page, no webviews, no new windows.
 */
export function guardAllContents(pageUrl: () => string | undefined): void {
  app.on('web-contents-created', (_event, contents) => {
    const stay = (event: Electron.Event, url: string) => {
      const page = pageUrl();
      // Same file, any fragment: the renderer routes by hash.
      if (!page || url.split('#')[0] !== page.split('#')[0]) event.preventDefault();
    };
    contents.on('will-navigate', stay);
    contents.on('will-redirect', stay);
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  });
}
