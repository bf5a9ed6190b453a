/**
 * The renderer's entry: picks the transport of the host API, starts the store and renders the UI.
 *
 * In Electron the preload exposes `window.taskdesk`; in browser mode the page talks HTTP to
 * the server that served it, with the token from its own URL.
 */
import { createRoot } from 'react-dom/client';
import { browserClient } from './browser-client.js';
import { withHostErrors } from './host-client.js';
import { Announcer } from './shell/announcer.js';
import { App } from './shell/app.js';
import { DeskStore } from './store/desk-store.js';

function start(root: HTMLElement): void {
  const announcer = new Announcer();
  if (window.taskdesk) {
    const store = new DeskStore(withHostErrors(window.taskdesk), { announce: announcer.announce });
    store.listen();
    // Links opened with window.open go through the main process, which asks before opening.
    render(root, store, announcer, (url) => void window.open(url, '_blank'));
    void store.refresh();
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
  let wasOnline = false;
  let store: DeskStore | undefined = undefined;
  const client = browserClient({
    token,
    onStatus: (status) => {
      if (status === 'stale') {
        store?.dispatch({
          type: 'connection',
          online: false,
          message: wasOnline
            ? "Taskdesk was restarted; open the new address it printed (this tab's token is out of date)."
            : "This tab's token is not the one Taskdesk printed: open the address it printed when it started."
        });
      } else if (status === 'online') {
        store?.dispatch({ type: 'connection', online: true });
        // Events sent while the stream was down are lost: fetch the lists again.
        void store?.refresh();
        wasOnline = true;
      } else {
        store?.dispatch({
          type: 'connection',
          online: false,
          message: wasOnline
            ? // Started again with --port 0 (or its port taken), Taskdesk is at another address this tab never hears of.
              'Lost contact with Taskdesk. Reconnecting… If Taskdesk was started again, it may be at a new address: open the one it printed.'
            : 'Cannot reach Taskdesk. Is browser mode running, and is this its current URL?'
        });
      }
    }
  });
  store = new DeskStore(withHostErrors(client), { announce: announcer.announce });
  store.listen();
  render(root, store, announcer, (url) => void window.open(url, '_blank', 'noopener,noreferrer'));
}

function render(root: HTMLElement, store: DeskStore, announcer: Announcer, openExternal: (url: string) => void): void {
  createRoot(root).render(<App store={store} announcer={announcer} openExternal={openExternal} root={root} />);
}

const root = document.getElementById('app');
if (root) start(root);
