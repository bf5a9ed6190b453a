import type { HostEventPayload, InboundTask, InboxItem } from '../../app/contract/host-api.js';
import type { AppContext } from '../app-context.js';
import { h, shortId } from '../dom.js';
import { elicitationCard } from './elicitation-card.js';
import { samplingApprovalCard } from './sampling-approval-card.js';
import { samplingCard } from './sampling-card.js';

/**
 * The Inbox screen: questions servers are waiting on, oldest first.
 *
 * Cards are added and removed one by one, never rebuilt, so a half-filled form survives
 * other items arriving. Above them, models that are writing an answer show their text so far.
 */
export class InboxView {
  readonly element: HTMLElement;
  readonly #context: AppContext;
  readonly #list: HTMLElement;
  readonly #empty: HTMLElement;
  readonly #cards = new Map<string, HTMLElement>();
  /** Ids already answered or withdrawn: a list fetched before that must not bring them back. */
  readonly #gone = new Set<string>();
  #serverNames = new Map<string, string>();
  readonly #onCount: (count: number) => void;
  readonly #liveList: HTMLElement;
  /** Streams in progress, by task id (or server and model for a request that is not a task). */
  readonly #live = new Map<
    string,
    { element: HTMLElement; text: HTMLElement; serverId: string; taskId: string | undefined; timer?: number }
  >();

  constructor(context: AppContext, onCount: (count: number) => void) {
    this.#context = context;
    this.#onCount = onCount;
    this.#list = h('div', { class: 'cards' });
    this.#liveList = h('ul', { class: 'cards live-list', 'aria-label': 'Models writing now', hidden: true });
    this.#empty = h('p', { class: 'empty' }, 'Nothing is waiting for you.');
    this.element = h(
      'section',
      { id: 'screen-inbox', class: 'screen', 'aria-labelledby': 'heading-inbox' },
      h('h2', { id: 'heading-inbox', tabindex: -1 }, 'Inbox'),
      h('p', { class: 'lede' }, 'Forms, links and model requests that servers are waiting on.'),
      this.#liveList,
      this.#empty,
      this.#list
    );
  }

  /** Applies a `sampling.partial` event: shows the text a model has written so far. */
  partial(update: HostEventPayload<'sampling.partial'>): void {
    const key = update.taskId ?? update.streamId;
    if (update.taskId && this.#gone.has(`live:${update.taskId}`)) return;
    if (update.done) {
      // The model has finished: what it wrote goes on with the request (a review, a result).
      this.#dropLive(key);
      return;
    }
    let entry = this.#live.get(key);
    if (!entry) {
      const text = h('p', { class: 'live-text' });
      const serverName = this.#serverNames.get(update.serverId) ?? update.serverId;
      const element = h(
        'li',
        { class: 'card live-item', 'data-live-task-id': update.taskId },
        h(
          'p',
          { class: 'meta' },
          h('strong', null, update.model),
          ` is writing for ${serverName}`,
          update.taskId ? [' · task ', h('code', { title: update.taskId }, shortId(update.taskId))] : null
        ),
        text
      );
      entry = { element, text, serverId: update.serverId, taskId: update.taskId };
      this.#live.set(key, entry);
      this.#liveList.append(element);
      this.#liveList.hidden = false;
    }
    entry.text.textContent = update.text;
    if (!update.taskId) {
      // The stream's `done` update ends it; should that never come (the host went away), the
      // entry goes once it has been quiet for a while.
      if (entry.timer !== undefined) clearTimeout(entry.timer);
      entry.timer = window.setTimeout(() => this.#dropLive(key), 30_000);
    }
  }

  /** Applies a `task.changed` event: a task that ended is no longer streaming. */
  taskChanged(taskId: string, task: InboundTask | undefined): void {
    if (!task || ['completed', 'failed', 'cancelled'].includes(task.task.status)) {
      this.#gone.add(`live:${taskId}`);
      this.#dropLive(taskId);
    }
  }

  /** Remembers server names for the live list. */
  setServerNames(names: Map<string, string>): void {
    this.#serverNames = names;
  }

  #dropLive(key: string): void {
    const entry = this.#live.get(key);
    if (!entry) return;
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    entry.element.remove();
    this.#live.delete(key);
    this.#liveList.hidden = this.#live.size === 0;
  }

  /** Takes the full pending list; keeps the cards (and what was typed in them) that are still pending. */
  set(items: InboxItem[]): void {
    const pending = items.filter((item) => !this.#gone.has(item.id));
    const ids = new Set(pending.map((item) => item.id));
    for (const id of [...this.#cards.keys()]) if (!ids.has(id)) this.#drop(id);
    for (const item of pending) if (!this.#cards.has(item.id)) this.#append(item);
    this.#changed();
  }

  add(item: InboxItem): void {
    this.#gone.delete(item.id);
    // The answer to review has arrived: the model is done writing.
    if (item.taskId) this.#dropLive(item.taskId);
    else if (item.kind === 'sampling-review')
      for (const [key, entry] of this.#live) if (!entry.taskId && entry.serverId === item.serverId) this.#dropLive(key);
    if (this.#cards.has(item.id)) return;
    this.#append(item);
    this.#changed();
    this.#context.announce(
      `New in the inbox: ${item.kind === 'elicitation' ? 'a question' : 'a model request'} from ${item.serverName}.`
    );
  }

  remove(id: string, why: 'answered' | 'withdrawn'): void {
    this.#gone.add(id);
    if (!this.#cards.has(id)) return;
    if (why === 'withdrawn') this.#context.announce('A question was withdrawn by its server.');
    this.#drop(id);
    this.#changed();
  }

  get count(): number {
    return this.#cards.size;
  }

  #append(item: InboxItem): void {
    const onAnswered = (id: string) => this.remove(id, 'answered');
    const card = cardFor(item, this.#context, onAnswered);
    this.#cards.set(item.id, card);
    this.#list.append(card);
  }

  #drop(id: string): void {
    const card = this.#cards.get(id);
    this.#cards.delete(id);
    if (!card) return;
    // Keep keyboard users in the list instead of dropping focus to the page.
    const hadFocus = card.contains(document.activeElement);
    const next = (card.nextElementSibling ?? card.previousElementSibling) as HTMLElement | null;
    card.remove();
    if (hadFocus)
      (
        next?.querySelector<HTMLElement>('input, textarea, select, button') ??
        (this.element.querySelector('h2') as HTMLElement)
      ).focus();
  }

  #changed(): void {
    this.#empty.hidden = this.#cards.size > 0;
    this.#onCount(this.#cards.size);
  }
}

/** The card of an item, by kind; a kind added to the contract without a card fails to compile. */
function cardFor(item: InboxItem, context: AppContext, onAnswered: (id: string) => void): HTMLElement {
  const kind = item.kind;
  switch (kind) {
    case 'elicitation':
      return elicitationCard(item, context, onAnswered);
    case 'sampling':
      return samplingCard(item, context, onAnswered);
    case 'sampling-approval':
    case 'sampling-review':
      return samplingApprovalCard({ ...item, kind }, context, onAnswered);
    default: {
      const missed: never = kind;
      throw new Error(`No card for inbox items of kind ${String(missed)}`);
    }
  }
}
