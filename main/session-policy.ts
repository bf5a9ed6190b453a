import type { Session } from 'electron';

/** Schemes the app window may load: its own files, inline images, and the developer tools. */
const LOCAL_SCHEMES = new Set(['file:', 'data:', 'blob:', 'devtools:', 'chrome-devtools:', 'chrome-extension:']);

/**
 * No remote content and no permissions: the window shows only the bundled renderer, which
 * reaches the core over IPC and needs no network, camera, notifications or anything else.
 */
export function hardenSession(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.webRequest.onBeforeRequest((details, callback) => {
    let scheme: string;
    try {
      scheme = new URL(details.url).protocol;
    } catch {
      scheme = '';
    }
    callback({ cancel: !LOCAL_SCHEMES.has(scheme) });
  });
}
