import type { OutboundTaskView, RequestorTool, ServerView } from '../../app/contract/host-api.js';
import type { AppContext } from '../app-context.js';
import { h, replaceChildren, uid } from '../dom.js';
import { toHostCallError } from '../host-client.js';
import { OutboundList } from './outbound-list.js';
import { ServerTasksPanel } from './server-tasks.js';
import { toolCallForm } from './tool-call-form.js';

const MODE_LABELS: Record<RequestorTool['callMode'], string> = {
  task: 'Runs as a task',
  'task-or-plain': 'Task or plain call',
  plain: 'Plain call',
  unavailable: 'Cannot be called'
};

/**
 * The Tools screen: a ready server's tools with a call form each, the server's own task list,
 * and the tool calls Taskdesk made as tasks.
 */
export class ToolsView {
  readonly element: HTMLElement;
  readonly outbound: OutboundList;
  readonly #context: AppContext;
  readonly #select: HTMLSelectElement;
  readonly #refreshButton: HTMLButtonElement;
  readonly #status: HTMLElement;
  readonly #list: HTMLElement;
  readonly #serverTasks: ServerTasksPanel;
  #servers: ServerView[] = [];
  #serverId: string | undefined;
  /** The server whose tools are shown, and whether it was ready when they were fetched. */
  #shown: { serverId: string; ready: boolean } | undefined;
  #loadSeq = 0;

  constructor(context: AppContext) {
    this.#context = context;
    this.outbound = new OutboundList(context);
    const selectId = uid('tools-server');
    this.#select = h('select', {
      id: selectId,
      name: 'server',
      onchange: () => this.#choose(this.#select.value || undefined, false)
    });
    this.#refreshButton = h('button', { type: 'button', onclick: () => void this.#load(true) }, 'Refresh tools');
    this.#status = h('p', { class: 'muted', role: 'status' });
    this.#list = h('ul', { class: 'cards tool-list', 'aria-label': 'Tools' });
    this.#serverTasks = new ServerTasksPanel(context);
    this.element = h(
      'section',
      { id: 'screen-tools', class: 'screen', 'aria-labelledby': 'heading-tools', hidden: true },
      h('h2', { id: 'heading-tools', tabindex: -1 }, 'Tools'),
      h('p', { class: 'lede' }, 'Call a connected server’s tools. Tools that allow it run as tasks, followed below.'),
      h(
        'div',
        { class: 'tool-picker' },
        h('div', { class: 'field field-narrow' }, h('label', { for: selectId }, 'Server'), this.#select),
        this.#refreshButton
      ),
      this.#status,
      this.#list,
      this.#serverTasks.element,
      this.outbound.element
    );
    this.#renderSelect();
  }

  /** Takes the server list (at start, after adding or removing one). */
  setServers(servers: readonly ServerView[]): void {
    this.#servers = [...servers];
    this.#renderSelect();
    this.#sync();
  }

  /** Applies a `server.state` change. */
  updateServer(serverId: string, state: ServerView['state']): void {
    const server = this.#servers.find((s) => s.id === serverId);
    if (!server) return;
    server.state = state;
    this.#renderSelect();
    this.#sync();
  }

  /** Shows one server's tools (from the Servers screen). */
  show(serverId: string): void {
    this.#choose(serverId, true);
  }

  setOutbound(tasks: OutboundTaskView[]): void {
    this.outbound.set(tasks);
  }

  #choose(serverId: string | undefined, force: boolean): void {
    this.#serverId = serverId;
    this.#renderSelect();
    if (force) this.#shown = undefined;
    this.#sync();
  }

  /** Loads the tools when the chosen server is (again) ready; clears them when it is not. */
  #sync(): void {
    const server = this.#servers.find((s) => s.id === this.#serverId);
    if (!server) {
      this.#serverId = this.#servers.find((s) => s.state.status === 'ready')?.id;
      this.#renderSelect();
      if (!this.#serverId) {
        this.#shown = undefined;
        replaceChildren(this.#list);
        this.#serverTasks.setServer(undefined);
        this.#status.textContent =
          this.#servers.length === 0
            ? 'No server is configured.'
            : 'No server is connected. Connect one on the Servers screen.';
        this.#refreshButton.disabled = true;
        return;
      }
      return this.#sync();
    }
    const ready = server.state.status === 'ready';
    this.#refreshButton.disabled = !ready;
    if (this.#shown?.serverId === server.id && this.#shown.ready === ready) return;
    this.#shown = { serverId: server.id, ready };
    // A 2026-07-28 server has no tasks/list (the tasks extension dropped it): no panel for it.
    this.#serverTasks.setServer(ready && server.state.era !== 'modern' ? server : undefined);
    if (!ready) {
      replaceChildren(this.#list);
      this.#status.textContent = `${server.name} is not connected; its tools are listed once it is ready.`;
      return;
    }
    void this.#load(false);
  }

  #renderSelect(): void {
    replaceChildren(
      this.#select,
      this.#servers.length === 0 ? h('option', { value: '' }, '(no servers)') : null,
      this.#servers.map((server) =>
        h(
          'option',
          { value: server.id, selected: server.id === this.#serverId },
          server.state.status === 'ready' ? server.name : `${server.name} (not connected)`
        )
      )
    );
  }

  async #load(refresh: boolean): Promise<void> {
    const serverId = this.#serverId;
    if (!serverId) return;
    const seq = ++this.#loadSeq;
    this.#status.textContent = 'Loading tools…';
    try {
      const tools = await this.#context.client.call('tools.list', { serverId, ...(refresh && { refresh: true }) });
      if (seq !== this.#loadSeq) return;
      this.#status.textContent =
        tools.length === 0 ? 'This server offers no tools.' : `${tools.length} tool${tools.length === 1 ? '' : 's'}.`;
      replaceChildren(
        this.#list,
        tools.map((tool) => this.#item(serverId, tool))
      );
    } catch (error) {
      if (seq !== this.#loadSeq) return;
      replaceChildren(this.#list);
      this.#status.textContent = `Could not list tools: ${toHostCallError(error).message}`;
    }
  }

  #item(serverId: string, tool: RequestorTool): HTMLElement {
    const headingId = uid('tool-name');
    const panelId = uid('tool-panel');
    const panel = h('div', { id: panelId, class: 'tool-panel', hidden: true });
    const toggle = h(
      'button',
      {
        type: 'button',
        'aria-expanded': 'false',
        'aria-controls': panelId,
        'aria-label': `Call ${tool.name}…`,
        'data-action': 'call'
      },
      'Call…'
    );
    toggle.addEventListener('click', () => {
      const open = toggle.getAttribute('aria-expanded') !== 'true';
      toggle.setAttribute('aria-expanded', String(open));
      panel.hidden = !open;
      // The form is built on first open: most tools of a large server are never called.
      if (open && panel.childElementCount === 0) {
        const modern = this.#servers.find((server) => server.id === serverId)?.state.era === 'modern';
        panel.append(
          toolCallForm(serverId, tool, this.#context, ({ task }) => this.outbound.apply({ type: 'changed', task }), {
            modern
          })
        );
      }
      if (open) panel.querySelector<HTMLElement>('input, select, textarea, button')?.focus();
    });
    return h(
      'li',
      { class: 'card tool', 'data-tool': tool.name, 'aria-labelledby': headingId },
      h(
        'div',
        { class: 'card-header' },
        h(
          'h3',
          { id: headingId },
          h('code', null, tool.name),
          tool.title && tool.title !== tool.name ? h('span', { class: 'muted' }, ` — ${tool.title}`) : null
        ),
        h(
          'span',
          {
            class: `kind-tag mode-${tool.callMode}`,
            'data-call-mode': tool.callMode,
            title: `execution.taskSupport: ${tool.taskSupport}`
          },
          MODE_LABELS[tool.callMode]
        ),
        toggle
      ),
      tool.description ? h('p', { class: 'tool-description' }, tool.description) : null,
      panel
    );
  }
}
