import type { HostApiClient, ServerView } from '../app/contract/host-api.js';
import type { AppContext, ConfirmRequest } from './app-context.js';
import { h, replaceChildren } from './dom.js';
import { toHostCallError } from './host-client.js';
import { AuditView } from './views/audit-view.js';
import { ConfirmDialog } from './views/confirm-dialog.js';
import { InboxView } from './views/inbox-view.js';
import { ProvidersView } from './views/providers-view.js';
import { ServersView } from './views/servers-view.js';
import { TasksView } from './views/tasks-view.js';
import { ToolsView } from './views/tools-view.js';

const SCREENS = ['inbox', 'tasks', 'tools', 'servers', 'providers', 'audit'] as const;
type Screen = (typeof SCREENS)[number];
const SCREEN_TITLES: Record<Screen, string> = {
  inbox: 'Inbox',
  tasks: 'Tasks',
  tools: 'Tools',
  servers: 'Servers',
  providers: 'LLM providers',
  audit: 'Audit log'
};

/**
 * The whole UI: navigation, the screens, banners and the live region, fed by host
 * events. It knows the host only as a {@link HostApiClient}.
 */
export class App {
  readonly #root: HTMLElement;
  readonly #context: AppContext;
  readonly #inbox: InboxView;
  readonly #tasks: TasksView;
  readonly #servers: ServersView;
  readonly #tools: ToolsView;
  readonly #providers: ProvidersView;
  readonly #audit: AuditView;
  readonly #tabs = new Map<Screen, HTMLAnchorElement>();
  readonly #badge: HTMLElement;
  readonly #announcer: HTMLElement;
  readonly #banners: HTMLElement;
  readonly #offline: HTMLElement;
  readonly #dialog: ConfirmDialog;
  #screen: Screen = 'inbox';

  constructor(root: HTMLElement, client: HostApiClient, openExternal: (url: string) => void) {
    this.#root = root;
    this.#dialog = new ConfirmDialog();
    this.#announcer = h('div', { class: 'sr-only', role: 'status', 'aria-live': 'polite' });
    this.#context = {
      client,
      announce: (message) => this.#announce(message),
      confirm: (request: ConfirmRequest) => this.#dialog.ask(request),
      openExternal
    };
    this.#badge = h('span', { class: 'badge', hidden: true });
    this.#inbox = new InboxView(this.#context, (count) => this.#setInboxCount(count));
    this.#tasks = new TasksView(this.#context);
    this.#servers = new ServersView(
      this.#context,
      () => void this.#loadServers(),
      (serverId) => {
        this.#tools.show(serverId);
        location.hash = '#tools';
      }
    );
    this.#tools = new ToolsView(this.#context);
    this.#providers = new ProvidersView(this.#context);
    this.#audit = new AuditView(this.#context);
    this.#banners = h('div', { class: 'banners' });
    this.#offline = h('div', { class: 'banner banner-warning', role: 'alert', hidden: true });

    const nav = h(
      'nav',
      { class: 'sections', 'aria-label': 'Sections' },
      h(
        'ul',
        null,
        SCREENS.map((screen) => {
          const link = h(
            'a',
            { href: `#${screen}`, 'data-screen': screen },
            SCREEN_TITLES[screen],
            screen === 'inbox' ? this.#badge : null
          );
          this.#tabs.set(screen, link);
          return h('li', null, link);
        })
      )
    );
    replaceChildren(
      root,
      h('header', { class: 'topbar' }, h('h1', null, 'Taskdesk'), nav),
      this.#offline,
      this.#banners,
      h(
        'main',
        { id: 'main', tabindex: -1 },
        this.#inbox.element,
        this.#tasks.element,
        this.#tools.element,
        this.#servers.element,
        this.#providers.element,
        this.#audit.element
      ),
      this.#announcer,
      this.#dialog.element
    );
    this.#subscribe(client);
    window.addEventListener('hashchange', () => this.#route(true));
    this.#route(false);
  }

  /** Fetches every list. Called at start and whenever the event stream (re)connects. */
  async refresh(): Promise<void> {
    try {
      const [servers, inbox, tasks, outbound, providers] = await Promise.all([
        this.#context.client.call('servers.list', {}),
        this.#context.client.call('inbox.list', {}),
        this.#context.client.call('tasks.list', {}),
        this.#context.client.call('outbound.list', {}),
        this.#context.client.call('providers.list', {})
      ]);
      this.#setServers(servers);
      this.#inbox.set(inbox);
      this.#tasks.set(tasks);
      this.#tools.setOutbound(outbound);
      this.#providers.set(providers);
      if (this.#screen === 'audit') await this.#audit.refresh();
      this.#root.setAttribute('aria-busy', 'false');
      this.#root.dataset.ready = 'true';
    } catch (error) {
      this.showOffline(`Could not load from Taskdesk: ${toHostCallError(error).message}`);
    }
  }

  /** Shows why the page cannot hear the host, or hides the banner (undefined). */
  showOffline(message: string | undefined): void {
    this.#offline.textContent = message ?? '';
    this.#offline.hidden = message === undefined;
  }

  #subscribe(client: HostApiClient): void {
    client.on('inbox.added', ({ item }) => this.#inbox.add(item));
    client.on('inbox.removed', ({ id, why }) => this.#inbox.remove(id, why));
    client.on('task.changed', ({ taskId, task }) => {
      this.#tasks.update(taskId, task);
      this.#inbox.taskChanged(taskId, task);
      this.#auditChanged();
    });
    client.on('server.state', ({ serverId, state }) => {
      this.#servers.updateState(serverId, state);
      this.#tools.updateServer(serverId, state);
      this.#auditChanged();
    });
    client.on('sampling.partial', (update) => {
      this.#tasks.partial(update);
      this.#inbox.partial(update);
    });
    client.on('outbound.changed', (event) => {
      this.#tools.outbound.apply(event);
      this.#auditChanged();
    });
    client.on('store.warning', ({ message, movedTo }) => {
      this.#banners.append(
        h(
          'div',
          { class: 'banner banner-warning', role: 'alert' },
          h('p', null, message),
          movedTo ? h('p', { class: 'muted' }, 'The old file was kept at ', h('code', null, movedTo)) : null
        )
      );
    });
  }

  #auditChanged(): void {
    if (this.#screen === 'audit') void this.#audit.refresh();
  }

  async #loadServers(): Promise<void> {
    try {
      this.#setServers(await this.#context.client.call('servers.list', {}));
    } catch (error) {
      this.#announce(`Could not list servers: ${toHostCallError(error).message}`);
    }
  }

  #setServers(servers: ServerView[]): void {
    this.#servers.set(servers);
    this.#tools.setServers(servers);
    this.#inbox.setServerNames(new Map(servers.map((server) => [server.id, server.name])));
  }

  #route(moveFocus: boolean): void {
    const wanted = location.hash.slice(1);
    // Other fragments (the skip link's #main) are not screens; stay where we are.
    if (!(SCREENS as readonly string[]).includes(wanted) && location.hash) return;
    this.#screen = (SCREENS as readonly string[]).includes(wanted) ? (wanted as Screen) : 'inbox';
    for (const screen of SCREENS) {
      const section = this.#sectionOf(screen);
      section.hidden = screen !== this.#screen;
      const tab = this.#tabs.get(screen)!;
      if (screen === this.#screen) tab.setAttribute('aria-current', 'page');
      else tab.removeAttribute('aria-current');
    }
    document.title = `${SCREEN_TITLES[this.#screen]} · Taskdesk`;
    if (this.#screen === 'audit') void this.#audit.refresh();
    if (moveFocus) this.#sectionOf(this.#screen).querySelector<HTMLElement>('h2')?.focus();
  }

  #sectionOf(screen: Screen): HTMLElement {
    switch (screen) {
      case 'inbox':
        return this.#inbox.element;
      case 'tasks':
        return this.#tasks.element;
      case 'tools':
        return this.#tools.element;
      case 'servers':
        return this.#servers.element;
      case 'providers':
        return this.#providers.element;
      case 'audit':
        return this.#audit.element;
    }
  }

  #setInboxCount(count: number): void {
    this.#badge.hidden = count === 0;
    this.#badge.textContent = String(count);
    this.#badge.setAttribute('aria-label', `${count} waiting`);
    document.title = `${count > 0 ? `(${count}) ` : ''}${SCREEN_TITLES[this.#screen]} · Taskdesk`;
  }

  #announce(message: string): void {
    // Clearing first makes a repeated message be announced again.
    this.#announcer.textContent = '';
    requestAnimationFrame(() => (this.#announcer.textContent = message));
  }
}
