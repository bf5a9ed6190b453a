/**
 * The renderer's entry: picks the transport of the host API and starts the UI.
 *
 * In Electron the preload exposes `window.taskdesk`; in browser mode the page talks HTTP to
 * the server that served it, with the token from its own URL.
 */
import { App } from './app.js';
import { browserClient } from './browser-client.js';
import { withHostErrors } from './host-client.js';

function start(root: HTMLElement): void {
  if (window.taskdesk) {
    // Links opened with window.open go through the main process, which asks before opening.
    const app = new App(root, withHostErrors(window.taskdesk), (url) => void window.open(url, '_blank'));
    void app.refresh();
    return;
  }
  const token = new URLSearchParams(location.search).get('token');
  if (!token) {
    root.setAttribute('aria-busy', 'false');
    root.replaceChildren(
      Object.assign(document.createElement('p'), {
        className: 'banner banner-warning',
        textContent: 'This page needs its launch token. Open the URL that browser mode printed when it started.'
      })
    );
    return;
  }
  let app: App | undefined;
  let wasOnline = false;
  const client = browserClient({
    token,
    onStatus: (status) => {
      if (status === 'online') {
        app?.showOffline(undefined);
        // Events sent while the stream was down are lost: fetch the lists again.
        void app?.refresh();
        wasOnline = true;
      } else {
        app?.showOffline(
          wasOnline
            ? 'Lost contact with Taskdesk. Reconnecting…'
            : 'Cannot reach Taskdesk. Is browser mode running, and is this its current URL?'
        );
      }
    }
  });
  app = new App(root, withHostErrors(client), (url) => void window.open(url, '_blank', 'noopener,noreferrer'));
}

const root = document.getElementById('app');
if (root) start(root);
