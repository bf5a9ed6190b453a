import type { AuditEntry } from '../../app/contract/host-api.js';
import type { AppContext } from '../app-context.js';
import { h, replaceChildren, shortId, timeElement } from '../dom.js';
import { toHostCallError } from '../host-client.js';

const LIMIT = 200;

/** The audit log screen: the newest entries, fetched when shown and after changes while shown. */
export class AuditView {
  readonly element: HTMLElement;
  readonly #context: AppContext;
  readonly #body: HTMLTableSectionElement;
  readonly #status: HTMLElement;
  #loading = false;
  #again = false;

  constructor(context: AppContext) {
    this.#context = context;
    this.#body = h('tbody');
    this.#status = h('p', { class: 'muted', 'aria-live': 'polite' });
    this.element = h(
      'section',
      { id: 'screen-audit', class: 'screen', 'aria-labelledby': 'heading-audit', hidden: true },
      h(
        'div',
        { class: 'screen-header' },
        h('h2', { id: 'heading-audit', tabindex: -1 }, 'Audit log'),
        h('button', { type: 'button', onclick: () => void this.refresh() }, 'Refresh')
      ),
      h('p', { class: 'lede' }, `What servers asked and what Taskdesk did, newest first (last ${LIMIT}).`),
      this.#status,
      h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          { class: 'audit' },
          h('caption', { class: 'sr-only' }, 'Audit log entries'),
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              ['Time', 'Event', 'Server', 'Task', 'Detail'].map((title) => h('th', { scope: 'col' }, title))
            )
          ),
          this.#body
        )
      )
    );
  }

  /** Fetches the log; calls made while one is loading collapse into one more fetch. */
  async refresh(): Promise<void> {
    if (this.#loading) {
      this.#again = true;
      return;
    }
    this.#loading = true;
    try {
      do {
        this.#again = false;
        const entries = await this.#context.client.call('audit.read', { limit: LIMIT });
        this.#render(entries);
      } while (this.#again);
    } catch (error) {
      this.#status.textContent = `Could not read the audit log: ${toHostCallError(error).message}`;
    } finally {
      this.#loading = false;
    }
  }

  #render(entries: AuditEntry[]): void {
    this.#status.textContent = entries.length === 0 ? 'The log is empty.' : '';
    replaceChildren(
      this.#body,
      entries.map((entry) =>
        h(
          'tr',
          null,
          h('td', null, timeElement(entry.at)),
          h('td', null, h('code', null, entry.type)),
          h('td', null, entry.serverName ?? entry.serverId ?? '—'),
          h('td', null, entry.taskId ? h('code', { title: entry.taskId }, shortId(entry.taskId)) : '—'),
          h(
            'td',
            { class: 'detail' },
            entry.detail && Object.keys(entry.detail).length > 0 ? h('code', null, JSON.stringify(entry.detail)) : '—'
          )
        )
      )
    );
  }
}
