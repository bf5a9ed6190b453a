import type { ConnectionState, SamplingPolicy, ServerView } from '../../app/contract/host-api.js';
import type { AppContext } from '../app-context.js';
import { h, replaceChildren } from '../dom.js';
import { toHostCallError } from '../host-client.js';
import { addServerForm } from './add-server-form.js';
import { samplingPolicyField } from './sampling-policy-field.js';
import { statusBadge } from './status-badge.js';

/**
 * The Servers screen: each server's connection state and why, connect and disconnect, its
 * sampling policy, a way to its tools, and adding one.
 */
export class ServersView {
  readonly element: HTMLElement;
  readonly #context: AppContext;
  readonly #list: HTMLElement;
  readonly #empty: HTMLElement;
  #servers: ServerView[] = [];
  /** Sampling policies by server id, fetched once per server. */
  readonly #policies = new Map<string, SamplingPolicy>();
  readonly #loadingPolicies = new Set<string>();
  /** Asks the app to fetch the list again (after adding or removing one). */
  readonly #reload: () => void;
  readonly #openTools: (serverId: string) => void;

  constructor(context: AppContext, reload: () => void, openTools: (serverId: string) => void) {
    this.#context = context;
    this.#reload = reload;
    this.#openTools = openTools;
    this.#list = h('ul', { class: 'cards server-list', 'aria-label': 'Servers' });
    this.#empty = h('p', { class: 'empty' }, 'No servers yet. Add one below.');
    this.element = h(
      'section',
      { id: 'screen-servers', class: 'screen', 'aria-labelledby': 'heading-servers', hidden: true },
      h('h2', { id: 'heading-servers', tabindex: -1 }, 'Servers'),
      h('p', { class: 'lede' }, 'The MCP servers Taskdesk connects to.'),
      this.#empty,
      this.#list,
      addServerForm(context, reload)
    );
  }

  set(servers: ServerView[]): void {
    this.#servers = servers;
    this.#render();
    for (const server of servers) if (!this.#policies.has(server.id)) void this.#loadPolicy(server.id);
  }

  /** The servers as last listed. */
  get servers(): readonly ServerView[] {
    return this.#servers;
  }

  async #loadPolicy(serverId: string): Promise<void> {
    if (this.#loadingPolicies.has(serverId)) return;
    this.#loadingPolicies.add(serverId);
    try {
      this.#policies.set(serverId, await this.#context.client.call('sampling.getPolicy', { serverId }));
      this.#render();
    } catch (error) {
      this.#context.announce(`Could not read the sampling policy of ${serverId}: ${toHostCallError(error).message}`);
    } finally {
      this.#loadingPolicies.delete(serverId);
    }
  }

  async #setPolicy(server: ServerView, policy: SamplingPolicy): Promise<void> {
    const before = this.#policies.get(server.id);
    this.#policies.set(server.id, policy);
    this.#render();
    try {
      const saved = await this.#context.client.call('sampling.setPolicy', { serverId: server.id, policy });
      this.#policies.set(server.id, saved);
      const words = saved.mode === 'ask' ? 'ask first' : saved.mode === 'auto' ? 'run without asking' : 'refuse';
      this.#context.announce(
        `Sampling for ${server.name}: ${words}${saved.mode !== 'refuse' ? (saved.reviewCompletion ? ', review answers' : ', no review') : ''}.`
      );
    } catch (error) {
      if (before) this.#policies.set(server.id, before);
      this.#context.announce(`${server.name}: the sampling policy was not saved: ${toHostCallError(error).message}`);
    }
    this.#render();
  }

  /** Applies a `server.state` event. */
  updateState(serverId: string, state: ConnectionState): void {
    const server = this.#servers.find((candidate) => candidate.id === serverId);
    if (!server) {
      this.#reload();
      return;
    }
    server.state = state;
    this.#render();
  }

  #render(): void {
    this.#empty.hidden = this.#servers.length > 0;
    // Keep focus on the same control of the same server across a re-render.
    const active = document.activeElement as HTMLElement | null;
    const focusServer = active?.closest<HTMLElement>('[data-server-id]')?.dataset.serverId;
    const focusAction = active?.dataset.action;
    replaceChildren(
      this.#list,
      this.#servers.map((server) => this.#item(server))
    );
    if (focusServer) {
      const item = this.#list.querySelector<HTMLElement>(`[data-server-id="${CSS.escape(focusServer)}"]`);
      // Connect and Disconnect replace each other: focus goes to whichever is there now.
      const fallback =
        focusAction === 'connect' || focusAction === 'disconnect'
          ? '[data-action="connect"], [data-action="disconnect"]'
          : 'button';
      (
        item?.querySelector<HTMLElement>(`[data-action="${focusAction ?? ''}"]`) ??
        item?.querySelector<HTMLElement>(fallback)
      )?.focus();
    }
  }

  #item(server: ServerView): HTMLElement {
    const { state } = server;
    const headingId = `server-${server.id}-name`;
    const live = state.status === 'ready' || state.status === 'connecting';
    return h(
      'li',
      { class: 'card server', 'data-server-id': server.id, 'aria-labelledby': headingId },
      h('div', { class: 'card-header' }, h('h3', { id: headingId }, server.name), statusBadge(state.status)),
      state.reason && !live ? h('p', { class: 'reason' }, state.reason) : null,
      h(
        'dl',
        { class: 'facts' },
        h('dt', null, 'Id'),
        h('dd', null, h('code', null, server.id)),
        h('dt', null, server.transport.type === 'stdio' ? 'Command' : 'URL'),
        h('dd', null, h('code', { class: 'url' }, server.transport.target)),
        state.serverInfo
          ? [h('dt', null, 'Reports'), h('dd', null, `${state.serverInfo.name} ${state.serverInfo.version}`)]
          : null,
        state.protocolVersion ? [h('dt', null, 'Protocol'), h('dd', null, state.protocolVersion)] : null
      ),
      samplingPolicyField(
        server.id,
        server.name,
        this.#policies.get(server.id),
        (policy) => void this.#setPolicy(server, policy)
      ),
      h(
        'div',
        { class: 'actions' },
        state.status === 'ready'
          ? h(
              'button',
              {
                type: 'button',
                'data-action': 'tools',
                'aria-label': `Tools of ${server.name}`,
                onclick: () => this.#openTools(server.id)
              },
              'Tools…'
            )
          : null,
        live
          ? h(
              'button',
              {
                type: 'button',
                'data-action': 'disconnect',
                'aria-label': `Disconnect ${server.name}`,
                onclick: () => void this.#act(server, 'servers.disconnect')
              },
              'Disconnect'
            )
          : h(
              'button',
              {
                type: 'button',
                'data-action': 'connect',
                'aria-label': `Connect ${server.name}`,
                onclick: () => void this.#act(server, 'servers.connect')
              },
              'Connect'
            ),
        h(
          'button',
          {
            type: 'button',
            class: 'danger-link',
            'data-action': 'remove',
            'aria-label': `Remove ${server.name}`,
            onclick: () => void this.#remove(server)
          },
          'Remove'
        )
      )
    );
  }

  async #act(server: ServerView, method: 'servers.connect' | 'servers.disconnect'): Promise<void> {
    try {
      const view = await this.#context.client.call(method, { serverId: server.id });
      this.updateState(server.id, view.state);
    } catch (error) {
      this.#context.announce(`${server.name}: ${toHostCallError(error).message}`);
    }
  }

  async #remove(server: ServerView): Promise<void> {
    const agreed = await this.#context.confirm({
      title: `Remove ${server.name}?`,
      body: h('p', null, 'Taskdesk disconnects it and forgets its settings. Its tasks stay until they expire.'),
      confirmLabel: 'Remove',
      danger: true
    });
    if (!agreed) return;
    try {
      await this.#context.client.call('servers.remove', { serverId: server.id });
      this.#context.announce(`Removed ${server.name}.`);
      this.#reload();
    } catch (error) {
      this.#context.announce(`${server.name}: ${toHostCallError(error).message}`);
    }
  }
}
