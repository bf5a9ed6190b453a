import type { ServerTaskPage, ServerView } from '../../app/contract/host-api.js';
import type { AppContext } from '../app-context.js';
import { formatDuration, h, replaceChildren, shortId, timeElement } from '../dom.js';
import { toHostCallError } from '../host-client.js';
import { statusBadge } from './status-badge.js';

/** JSON-RPC "method not found": what the host answers for a server without `tasks.list`. */
const METHOD_NOT_FOUND = -32601;

type ListedTask = ServerTaskPage['tasks'][number];

/**
 * A disclosure with the chosen server's own task list (`tasks/list`, through
 * `outbound.serverTasks`), read a page at a time: loaded when opened, More while the server
 * has more, Reload to start again.
 */
export class ServerTasksPanel {
  readonly element: HTMLDetailsElement;
  readonly #context: AppContext;
  readonly #status: HTMLElement;
  readonly #wrap: HTMLElement;
  readonly #caption: HTMLElement;
  readonly #body: HTMLTableSectionElement;
  readonly #more: HTMLButtonElement;
  readonly #reload: HTMLButtonElement;
  #server: Pick<ServerView, 'id' | 'name'> | undefined;
  #cursor: string | undefined;
  #count = 0;
  /** Whether the list shown belongs to the current server (else it is loaded on open). */
  #loaded = false;
  #seq = 0;

  constructor(context: AppContext) {
    this.#context = context;
    this.#status = h('p', { class: 'muted', role: 'status' });
    this.#caption = h('caption', { class: 'sr-only' });
    this.#body = h('tbody');
    this.#wrap = h(
      'div',
      { class: 'table-wrap', hidden: true },
      h(
        'table',
        { class: 'server-tasks' },
        this.#caption,
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            ['Task', 'Tool call', 'Status', 'Created', 'Updated', 'Kept for'].map((title) =>
              h('th', { scope: 'col' }, title)
            )
          )
        ),
        this.#body
      )
    );
    this.#more = h('button', { type: 'button', hidden: true, onclick: () => void this.#load(this.#cursor) }, 'More');
    this.#reload = h('button', { type: 'button', onclick: () => void this.#load(undefined) }, 'Reload');
    this.element = h(
      'details',
      { class: 'server-tasks-panel', hidden: true, ontoggle: () => this.#opened() },
      h('summary', null, 'Server’s tasks'),
      h(
        'p',
        { class: 'muted small-text' },
        'The tasks the server keeps, as its tasks/list reports them; some may not come from Taskdesk.'
      ),
      this.#status,
      this.#wrap,
      h('div', { class: 'actions' }, this.#more, this.#reload)
    );
  }

  /** Shows the panel for a ready server, or hides it (undefined). A new server's list is read when the panel is (or gets) open. */
  setServer(server: Pick<ServerView, 'id' | 'name'> | undefined): void {
    this.#seq += 1;
    this.#server = server;
    this.#loaded = false;
    this.#cursor = undefined;
    this.#count = 0;
    this.#status.textContent = '';
    this.#wrap.hidden = true;
    this.#more.hidden = true;
    replaceChildren(this.#body);
    this.element.hidden = !server;
    if (server) this.#caption.textContent = `Tasks on ${server.name}`;
    this.#opened();
  }

  #opened(): void {
    if (this.element.open && this.#server && !this.#loaded) void this.#load(undefined);
  }

  /** Reads one page: the first (replacing the list) without a cursor, the next one with it. */
  async #load(cursor: string | undefined): Promise<void> {
    const server = this.#server;
    if (!server) return;
    const seq = ++this.#seq;
    // More is disabled while it loads and hidden after the last page: focus must not fall to the page.
    const fromMore = document.activeElement === this.#more;
    this.#loaded = true;
    this.#more.disabled = true;
    this.#reload.disabled = true;
    this.#status.textContent = 'Loading the server’s tasks…';
    try {
      const page = await this.#context.client.call('outbound.serverTasks', {
        serverId: server.id,
        ...(cursor !== undefined && { cursor })
      });
      if (seq !== this.#seq) return;
      if (cursor === undefined) {
        replaceChildren(this.#body);
        this.#count = 0;
      }
      this.#body.append(...page.tasks.map((task) => this.#row(task)));
      this.#count += page.tasks.length;
      this.#cursor = page.nextCursor;
      this.#wrap.hidden = this.#count === 0;
      this.#more.hidden = page.nextCursor === undefined;
      this.#status.textContent =
        this.#count === 0
          ? `${server.name} has no tasks.`
          : `${this.#count} task${this.#count === 1 ? '' : 's'}${page.nextCursor === undefined ? '.' : ' so far; the server has more.'}`;
    } catch (thrown) {
      if (seq !== this.#seq) return;
      const error = toHostCallError(thrown);
      this.#status.textContent =
        error.code === METHOD_NOT_FOUND
          ? `${server.name} does not list its tasks: it did not declare tasks/list.`
          : `Could not list the server’s tasks: ${error.message}`;
      if (error.code === METHOD_NOT_FOUND) {
        replaceChildren(this.#body);
        this.#wrap.hidden = true;
        this.#more.hidden = true;
      }
    } finally {
      if (seq === this.#seq) {
        this.#more.disabled = false;
        this.#reload.disabled = false;
        if (fromMore) (this.#more.hidden ? this.#reload : this.#more).focus();
      }
    }
  }

  #row(task: ListedTask): HTMLTableRowElement {
    return h(
      'tr',
      { 'data-task-id': task.taskId },
      h('td', null, h('code', { title: task.taskId }, shortId(task.taskId))),
      h(
        'td',
        null,
        task.toolName ? h('code', null, task.toolName) : h('span', { class: 'muted' }, 'Not from Taskdesk')
      ),
      h(
        'td',
        null,
        statusBadge(task.status),
        task.statusMessage ? h('div', { class: 'muted small-text' }, task.statusMessage) : null
      ),
      h('td', null, timeElement(task.createdAt)),
      h('td', null, timeElement(task.lastUpdatedAt)),
      h('td', null, task.ttl === null ? 'No limit' : formatDuration(task.ttl))
    );
  }
}
