import { app, Menu, nativeImage, Tray, type BrowserWindow, type NativeImage } from 'electron';
import type { PendingBadgeView } from './pending-badge.js';

/** A blue dot, 16 px and 32 px (for 2x screens), drawn for the tray and the Windows overlay. */
const DOT_16 =
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAAZ0lEQVR42mNQTX7NQAnGJeEIxD1AvAmKe6BiBA2QgWr4jwNvgqrBagBI4hYezTB8C9kQZAM2EaEZ2SUoBjiSoBmGHZEN6CHDgB5kAzaRYcAmqhpAsRcoDkSKo5EqCYnipEyVzEQyBgATPAB3dMIv3gAAAABJRU5ErkJggg==';
const DOT_32 =
  'iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAYAAABzenr0AAAAv0lEQVR42t2XzQ2AIAxGWcYR2IEdOHruDk7DEKzklbvWBBOj8qOBtnp4F0PyPX6EVg3jrDhRXxXQiEUgYuO3rgIGcUhAlgQhjjEtBbaZ+UxoCl+zKqVweBF8Bt4KTA3Cd6anAtAwPLsSqT1fOqFrBHxHAV8SMB3Dd0xOwBEIuJxAIBAIKQFNEH45jEcBSyhg7wSAUABECrBvAfshZP8NRVxE7Fcx+2Mk4jlmL0hElGQiilIRZbmIxkRMa/bP7ngFkgwCPR2u9KkAAAAASUVORK5CYII=';

function dotImage(): NativeImage {
  const image = nativeImage.createFromDataURL(`data:image/png;base64,${DOT_16}`);
  image.addRepresentation({ scaleFactor: 2, dataURL: `data:image/png;base64,${DOT_32}` });
  return image;
}

/**
 * The tray icon and the dock/taskbar badge: how many questions wait in the Inbox, with Open and
 * Quit. macOS and Linux (Unity launchers) show `app.setBadgeCount`; Windows has no count badge,
 * so its taskbar button gets an overlay dot while something waits.
 */
export function createPendingTray(options: { open: () => void; window: () => BrowserWindow | undefined }): {
  view: PendingBadgeView;
  destroy: () => void;
} {
  const image = dotImage();
  const tray = new Tray(image);
  tray.on('click', options.open);
  const view: PendingBadgeView = {
    show(count, label) {
      tray.setToolTip(`Taskdesk: ${label}`);
      if (process.platform === 'darwin') tray.setTitle(count > 0 ? String(count) : '');
      tray.setContextMenu(
        Menu.buildFromTemplate([
          { label, enabled: false },
          { type: 'separator' },
          { label: 'Open Taskdesk', click: options.open },
          { label: 'Quit Taskdesk', role: 'quit' }
        ])
      );
      if (process.platform === 'win32') {
        options.window()?.setOverlayIcon(count > 0 ? image : null, count > 0 ? label : '');
      } else {
        app.setBadgeCount(count);
      }
    }
  };
  return { view, destroy: () => tray.destroy() };
}
