import type { HostEventPayload, OutboundTaskView } from '../../app/contract/host-api.js';
import type { AppContext } from '../app-context.js';
import { formatDuration, h, replaceChildren, shortId, timeElement } from '../dom.js';
import { toHostCallError } from '../host-client.js';
import { statusBadge } from './status-badge.js';
import { errorView, toolResultView } from './tool-result-view.js';

const RUNNING = new Set(['working', 'input_required']);

/**
 * The tool calls Taskdesk made as tasks, newest first, kept live by `outbound.changed`:
 * state and status message, progress, the immediate response, the result or error, and
 * Check now, Cancel and Forget.
 */
export class OutboundList {
  readonly element: HTMLElement;
  readonly #context: AppContext;
  readonly #list: HTMLElement;
  readonly #empty: HTMLElement;
  readonly #tasks = new Map<string, OutboundTaskView>();
  readonly #cards = new Map<string, HTMLElement>();
  /** Errors of Check now, Cancel or Forget, shown on the task's card until its next change. */
  readonly #errors = new Map<string, string>();
  /** When Check now last answered, by task: the card says so, as the status may not have changed. */
  readonly #checkedAt = new Map<string, string>();
  /** Tasks with a Check now or Cancel in progress: their buttons say so and do nothing meanwhile. */
  readonly #busy = new Set<string>();

  constructor(context: AppContext) {
    this.#context = context;
    this.#list = h('ul', { class: 'cards outbound-list', 'aria-label': 'Tool calls' });
    this.#empty = h('p', { class: 'empty' }, 'No tool has been called as a task yet.');
    this.element = h(
      'section',
      { class: 'outbound', 'aria-labelledby': 'heading-outbound' },
      h('h3', { id: 'heading-outbound', class: 'section-heading' }, 'Tool calls'),
      h(
        'p',
        { class: 'lede' },
        'Tools Taskdesk called as tasks, newest first. They are followed until they end, across restarts.'
      ),
      this.#empty,
      this.#list
    );
    this.#changed();
  }

  set(tasks: OutboundTaskView[]): void {
    this.#tasks.clear();
    for (const task of tasks) this.#tasks.set(task.outboundId, task);
    for (const id of [...this.#cards.keys()]) if (!this.#tasks.has(id)) this.#cards.delete(id);
    for (const task of tasks) this.#cards.set(task.outboundId, this.#card(task));
    this.#changed();
  }

  /** Applies an `outbound.changed` event (or a task a call returned). */
  apply(event: HostEventPayload<'outbound.changed'>): void {
    if (event.type === 'removed') {
      this.#tasks.delete(event.outboundId);
      this.#errors.delete(event.outboundId);
      this.#checkedAt.delete(event.outboundId);
      this.#cards.delete(event.outboundId);
    } else {
      const known = this.#tasks.get(event.task.outboundId);
      // Events may cross a fetched list: never go back to an older view.
      if (known && known.updatedAt > event.task.updatedAt) return;
      this.#tasks.set(event.task.outboundId, event.task);
      if (known && known.state !== event.task.state) this.#errors.delete(event.task.outboundId);
      this.#cards.set(event.task.outboundId, this.#card(event.task));
    }
    this.#changed();
  }

  #changed(): void {
    const ordered = [...this.#tasks.values()].sort(
      (a, b) => b.createdAt.localeCompare(a.createdAt) || b.outboundId.localeCompare(a.outboundId)
    );
    this.#empty.hidden = ordered.length > 0;
    // Keep focus on the same control of the same task when its card is rebuilt.
    const active = document.activeElement as HTMLElement | null;
    const focusTask = active?.closest<HTMLElement>('[data-outbound-id]')?.dataset.outboundId;
    const focusAction = active?.dataset.action;
    const hadFocus = !!focusTask && this.#list.contains(active);
    replaceChildren(
      this.#list,
      ordered.map((task) => this.#cards.get(task.outboundId)!)
    );
    if (hadFocus && focusTask) {
      const card = this.#cards.get(focusTask);
      const target =
        card?.querySelector<HTMLElement>(`[data-action="${focusAction ?? ''}"]`) ??
        card?.querySelector<HTMLElement>('button');
      if (target && target !== document.activeElement) target.focus();
      else if (!card)
        (this.#list.querySelector<HTMLElement>('button') ?? this.element.querySelector<HTMLElement>('h3'))?.focus();
    }
  }

  #card(task: OutboundTaskView): HTMLElement {
    const headingId = `outbound-${task.outboundId}-title`;
    const running = RUNNING.has(task.state);
    const latest = task.progress.latest;
    const error = this.#errors.get(task.outboundId);
    const checkedAt = running ? this.#checkedAt.get(task.outboundId) : undefined;
    // aria-disabled rather than disabled: the button keeps focus while the host answers.
    const busy = this.#busy.has(task.outboundId) ? { 'aria-disabled': 'true', 'aria-busy': 'true' } : {};
    // A 2026-07-28 server reports a cancelled task with a status, not an error: the −32800
    // outcome Taskdesk records for it says nothing the status line does not.
    const outcome = task.protocol === '2026-07-28' && task.state === 'cancelled' ? undefined : task.outcome;
    return h(
      'li',
      {
        class: 'card outbound-task',
        'data-outbound-id': task.outboundId,
        'data-state': task.state,
        'aria-labelledby': headingId
      },
      h(
        'div',
        { class: 'card-header' },
        h(
          'h3',
          { id: headingId },
          h('code', null, task.toolName),
          h('span', { class: 'muted' }, ` on ${task.serverName}`)
        ),
        statusBadge(task.state),
        h(
          'p',
          { class: 'meta' },
          'Started ',
          timeElement(task.createdAt),
          ' · task ',
          h('code', { title: task.taskId }, shortId(task.taskId)),
          task.expiresAt
            ? [
                ' · kept ',
                task.task.ttl !== null ? `for ${formatDuration(task.task.ttl)}, ` : '',
                'until ',
                timeElement(task.expiresAt)
              ]
            : null
        )
      ),
      task.task.statusMessage ? h('p', { class: 'status-message' }, task.task.statusMessage) : null,
      task.reason ? h('p', { class: 'reason' }, task.reason) : null,
      latest
        ? h(
            'div',
            { class: 'progress-line' },
            latest.total !== undefined && latest.total > 0
              ? h('progress', {
                  value: Math.min(latest.progress, latest.total),
                  max: latest.total,
                  'aria-label': `Progress of ${task.toolName}`
                })
              : null,
            h(
              'span',
              { class: 'progress-text' },
              latest.message ? `${latest.message} · ` : '',
              latest.total !== undefined ? `${latest.progress}/${latest.total}` : `${latest.progress}`
            )
          )
        : null,
      task.immediateResponse
        ? h(
            'div',
            { class: 'immediate' },
            h('p', { class: 'muted small-text' }, 'Immediate response:'),
            h('blockquote', null, task.immediateResponse)
          )
        : null,
      Object.keys(task.arguments).length > 0
        ? h(
            'details',
            { class: 'arguments' },
            h('summary', null, 'Arguments'),
            h('pre', { class: 'json' }, JSON.stringify(task.arguments, null, 2))
          )
        : null,
      outcome
        ? h(
            'div',
            { class: 'outcome-block' },
            h(
              'p',
              { class: 'muted small-text' },
              outcome.type === 'result' ? 'Result:' : 'The server answered with an error:'
            ),
            outcome.type === 'result' ? toolResultView(outcome.result) : errorView(outcome.error)
          )
        : null,
      task.lastError && running
        ? h('p', { class: 'muted small-text' }, `Last ${task.lastError.method} failed: ${task.lastError.message}`)
        : null,
      checkedAt
        ? h('p', { class: 'muted small-text checked-at' }, 'Checked with the server ', timeElement(checkedAt))
        : null,
      h('p', { class: 'form-error', role: 'alert', hidden: !error }, error ?? ''),
      h(
        'div',
        { class: 'actions' },
        running
          ? h(
              'button',
              {
                type: 'button',
                'data-action': 'refresh',
                'aria-label': `Check ${task.toolName} task ${shortId(task.taskId)} now`,
                ...busy,
                onclick: () => void this.#refresh(task)
              },
              'Check now'
            )
          : null,
        running
          ? h(
              'button',
              {
                type: 'button',
                'data-action': 'cancel',
                'aria-label': `Cancel ${task.toolName} task ${shortId(task.taskId)}`,
                ...busy,
                onclick: () => void this.#cancel(task)
              },
              'Cancel'
            )
          : null,
        h(
          'button',
          {
            type: 'button',
            class: 'danger-link',
            'data-action': 'forget',
            'aria-label': `Forget ${task.toolName} task ${shortId(task.taskId)}`,
            onclick: () => void this.#forget(task)
          },
          'Forget'
        )
      )
    );
  }

  #showError(task: OutboundTaskView, message: string | undefined): void {
    if (message) this.#errors.set(task.outboundId, message);
    else this.#errors.delete(task.outboundId);
    const current = this.#tasks.get(task.outboundId);
    if (current) this.#cards.set(task.outboundId, this.#card(current));
    this.#changed();
  }

  /** Asks the server for the task's status now instead of waiting for the next poll. */
  async #refresh(task: OutboundTaskView): Promise<void> {
    if (this.#busy.has(task.outboundId)) return;
    this.#busy.add(task.outboundId);
    this.#showError(task, undefined);
    try {
      const view = await this.#context.client.call('outbound.refresh', { outboundId: task.outboundId });
      this.#checkedAt.set(task.outboundId, new Date().toISOString());
      this.apply({ type: 'changed', task: view });
      // The view may be no newer than the card (nothing changed): show when it was checked all the same.
      this.#showError(view, undefined);
      this.#context.announce(`${task.toolName}: ${view.state.replace('_', ' ')}.`);
    } catch (thrown) {
      const error = toHostCallError(thrown);
      this.#showError(task, `Could not check: ${error.message}`);
      this.#context.announce(`Could not check ${task.toolName}.`);
    } finally {
      this.#idle(task);
    }
  }

  /** The task's action is over: its buttons work again. */
  #idle(task: OutboundTaskView): void {
    this.#busy.delete(task.outboundId);
    const current = this.#tasks.get(task.outboundId);
    if (!current) return;
    this.#cards.set(task.outboundId, this.#card(current));
    this.#changed();
  }

  async #cancel(task: OutboundTaskView): Promise<void> {
    if (this.#busy.has(task.outboundId)) return;
    this.#busy.add(task.outboundId);
    this.#showError(task, undefined);
    try {
      const view = await this.#context.client.call('outbound.cancel', { outboundId: task.outboundId });
      this.apply({ type: 'changed', task: view });
      this.#context.announce(
        view.state === 'cancelled' ? `${task.toolName} cancelled.` : `${task.toolName}: ${view.state}.`
      );
    } catch (thrown) {
      const error = toHostCallError(thrown);
      const detail = dataMessage(error.data);
      this.#showError(
        task,
        `Could not cancel: ${error.message}${detail && detail !== error.message ? ` (${detail})` : ''}`
      );
      this.#context.announce(`Could not cancel ${task.toolName}.`);
    } finally {
      this.#idle(task);
    }
  }

  async #forget(task: OutboundTaskView): Promise<void> {
    if (RUNNING.has(task.state)) {
      const agreed = await this.#context.confirm({
        title: `Forget ${task.toolName}?`,
        body: h(
          'p',
          null,
          'The task is still running. Taskdesk stops following it and forgets it; the server is not asked to cancel it.'
        ),
        confirmLabel: 'Forget',
        danger: true
      });
      if (!agreed) return;
    }
    try {
      await this.#context.client.call('outbound.forget', { outboundId: task.outboundId });
      this.apply({ type: 'removed', outboundId: task.outboundId, serverId: task.serverId });
      this.#context.announce(`Forgot the ${task.toolName} task.`);
    } catch (error) {
      this.#showError(task, `Could not forget: ${toHostCallError(error).message}`);
    }
  }
}

/** A message inside an error's data (`data.message`, or a string), when there is one. */
function dataMessage(data: unknown): string | undefined {
  if (typeof data === 'string') return data;
  if (data && typeof data === 'object') {
    const record = data as Record<string, unknown>;
    if (typeof record.message === 'string') return record.message;
    if (typeof record.reason === 'string') return record.reason;
  }
  return undefined;
}
