import type { HostEventPayload, InboundTask } from '../../app/contract/host-api.js';
import type { AppContext } from '../app-context.js';
import { h, replaceChildren, shortId, timeElement } from '../dom.js';
import { toHostCallError } from '../host-client.js';
import { statusBadge } from './status-badge.js';

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/** The Tasks screen: tasks servers gave Taskdesk (task-augmented sampling and elicitation), newest first. */
export class TasksView {
  readonly element: HTMLElement;
  readonly #context: AppContext;
  readonly #body: HTMLTableSectionElement;
  readonly #empty: HTMLElement;
  readonly #tasks = new Map<string, InboundTask>();
  /** Text a model has written so far, by task id, while it streams. */
  readonly #partials = new Map<string, { model: string; text: string }>();

  constructor(context: AppContext) {
    this.#context = context;
    this.#body = h('tbody');
    this.#empty = h('p', { class: 'empty' }, 'No server has given Taskdesk a task yet.');
    this.element = h(
      'section',
      { id: 'screen-tasks', class: 'screen', 'aria-labelledby': 'heading-tasks', hidden: true },
      h('h2', { id: 'heading-tasks', tabindex: -1 }, 'Tasks'),
      h('p', { class: 'lede' }, 'Work servers handed to Taskdesk, and how it ended.'),
      this.#empty,
      h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          { class: 'tasks' },
          h('caption', { class: 'sr-only' }, 'Inbound tasks'),
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              ['Task', 'Kind', 'Server', 'Status', 'Created', 'Updated', 'Outcome', ''].map((title) =>
                h('th', { scope: 'col' }, title || h('span', { class: 'sr-only' }, 'Actions'))
              )
            )
          ),
          this.#body
        )
      )
    );
  }

  set(tasks: InboundTask[]): void {
    this.#tasks.clear();
    for (const task of tasks) this.#tasks.set(task.task.taskId, task);
    this.#render();
  }

  /** Applies a `task.changed` event; no task means it expired and is gone. */
  update(taskId: string, task: InboundTask | undefined): void {
    if (task) this.#tasks.set(taskId, task);
    else this.#tasks.delete(taskId);
    if (!task || TERMINAL.has(task.task.status)) this.#partials.delete(taskId);
    this.#render();
  }

  /** Applies a `sampling.partial` event: the row shows the text so far, updated in place. */
  partial(update: HostEventPayload<'sampling.partial'>): void {
    const taskId = update.taskId;
    if (!taskId) return;
    const task = this.#tasks.get(taskId);
    if (task && TERMINAL.has(task.task.status)) return;
    this.#partials.set(taskId, { model: update.model, text: update.text });
    const text = this.#body.querySelector<HTMLElement>(`tr[data-task-id="${CSS.escape(taskId)}"] .live-text`);
    if (text) text.textContent = update.text;
    else if (task) this.#render();
  }

  #render(): void {
    const tasks = [...this.#tasks.values()].sort((a, b) => b.task.createdAt.localeCompare(a.task.createdAt));
    this.#empty.hidden = tasks.length > 0;
    (this.element.querySelector('.table-wrap') as HTMLElement).hidden = tasks.length === 0;
    replaceChildren(
      this.#body,
      tasks.map((task) => this.#row(task))
    );
  }

  #row(inbound: InboundTask): HTMLTableRowElement {
    const { task } = inbound;
    const partial = TERMINAL.has(task.status) ? undefined : this.#partials.get(task.taskId);
    const cancel = TERMINAL.has(task.status)
      ? null
      : h(
          'button',
          {
            type: 'button',
            class: 'small',
            'aria-label': `Cancel task ${shortId(task.taskId)}`,
            onclick: () => void this.#cancel(task.taskId)
          },
          'Cancel'
        );
    return h(
      'tr',
      { 'data-task-id': task.taskId },
      h('td', null, h('code', { title: task.taskId }, shortId(task.taskId))),
      h('td', null, inbound.kind === 'sampling' ? 'Sampling' : 'Elicitation'),
      h('td', null, inbound.serverName),
      h(
        'td',
        null,
        statusBadge(task.status),
        task.statusMessage ? h('div', { class: 'muted small-text' }, task.statusMessage) : null,
        partial
          ? h(
              'div',
              { class: 'live' },
              h('div', { class: 'muted small-text' }, `Written by ${partial.model} so far:`),
              h('p', { class: 'live-text' }, partial.text)
            )
          : null
      ),
      h('td', null, timeElement(task.createdAt)),
      h('td', null, timeElement(task.lastUpdatedAt)),
      h('td', { class: 'outcome' }, outcomeSummary(inbound)),
      h('td', null, cancel)
    );
  }

  async #cancel(taskId: string): Promise<void> {
    try {
      await this.#context.client.call('tasks.cancel', { taskId });
      this.#context.announce('Task cancelled.');
    } catch (error) {
      this.#context.announce(`Could not cancel the task: ${toHostCallError(error).message}`);
    }
  }
}

/** How a task ended, in a line: the elicitation answer, the reply's text, or the error. */
export function outcomeSummary(inbound: InboundTask): string {
  const outcome = inbound.outcome;
  if (!outcome) return TERMINAL.has(inbound.task.status) ? '—' : 'Pending';
  if (outcome.type === 'error') return `Error ${outcome.error.code}: ${outcome.error.message}`;
  const result = outcome.result;
  if (inbound.kind === 'elicitation') {
    const action = String(result.action ?? 'answered');
    return result.content ? `${action}: ${truncate(JSON.stringify(result.content), 120)}` : action;
  }
  const content = result.content as { type?: unknown; text?: unknown } | undefined;
  const text =
    content?.type === 'text' && typeof content.text === 'string'
      ? `“${truncate(content.text, 100)}”`
      : `[${String(content?.type ?? 'no')} content]`;
  return typeof result.model === 'string' ? `${text} (${result.model})` : text;
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
