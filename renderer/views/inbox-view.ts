import type { InboxItem } from '../../app/contract/host-api.js';
import type { AppContext } from '../app-context.js';
import { h } from '../dom.js';
import { elicitationCard } from './elicitation-card.js';
import { samplingApprovalCard } from './sampling-approval-card.js';
import { samplingCard } from './sampling-card.js';

/**
 * The Inbox screen: questions servers are waiting on, oldest first.
 *
 * Cards are added and removed one by one, never rebuilt, so a half-filled form survives
 * other items arriving.
 */
export class InboxView {
  readonly element: HTMLElement;
  readonly #context: AppContext;
  readonly #list: HTMLElement;
  readonly #empty: HTMLElement;
  readonly #cards = new Map<string, HTMLElement>();
  /** Ids already answered or withdrawn: a list fetched before that must not bring them back. */
  readonly #gone = new Set<string>();
  readonly #onCount: (count: number) => void;

  constructor(context: AppContext, onCount: (count: number) => void) {
    this.#context = context;
    this.#onCount = onCount;
    this.#list = h('div', { class: 'cards' });
    this.#empty = h('p', { class: 'empty' }, 'Nothing is waiting for you.');
    this.element = h(
      'section',
      { id: 'screen-inbox', class: 'screen', 'aria-labelledby': 'heading-inbox' },
      h('h2', { id: 'heading-inbox', tabindex: -1 }, 'Inbox'),
      h('p', { class: 'lede' }, 'Forms, links and model requests that servers are waiting on.'),
      this.#empty,
      this.#list
    );
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
    if (this.#cards.has(item.id)) return;
    this.#append(item);
    this.#changed();
    this.#context.announce(`New in the inbox: ${item.kind === 'elicitation' ? 'a question' : 'a model request'} from ${item.serverName}.`);
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
    if (hadFocus) (next?.querySelector<HTMLElement>('input, textarea, select, button') ?? (this.element.querySelector('h2') as HTMLElement)).focus();
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
