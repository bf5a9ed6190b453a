import { dialog, shell, type BrowserWindow } from 'electron';

/**
 * Opens an http(s) link in the user's browser after they agree in a native dialog.
 *
 * The renderer asks too, but the main process does not trust it: any `window.open` ends here.
 * Resolves whether the link was opened.
 */
export async function confirmAndOpenExternal(parent: BrowserWindow | undefined, rawUrl: string): Promise<boolean> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  const options: Electron.MessageBoxOptions = {
    type: 'question',
    buttons: ['Open link', 'Cancel'],
    defaultId: 1,
    cancelId: 1,
    noLink: true,
    title: 'Open link',
    message: `Open a page on ${url.host} in your browser?`,
    detail: url.href
  };
  const { response } =
    parent && !parent.isDestroyed()
      ? await dialog.showMessageBox(parent, options)
      : await dialog.showMessageBox(options);
  if (response !== 0) return false;
  await shell.openExternal(url.href);
  return true;
}
