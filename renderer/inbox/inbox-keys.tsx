import { useEffect, useRef, type RefObject } from 'react';
import { useDesk } from '../shell/desk-context.js';

/** The Inbox's keys, as the help dialog lists them. */
const KEYS: Array<[string, string]> = [
  ['j or ↓', 'Next item'],
  ['k or ↑', 'Previous item'],
  ['Enter or o', 'Open the item: focus its first field (from the heading: go to the first item)'],
  ['Escape', 'From a field, back to its item (then a and d work again)'],
  ['a', 'Approve or submit the item (from the heading: go to the first item)'],
  ['d', 'Decline or reject the item (from the heading: go to the first item)'],
  ['?', 'Show these keys']
];

/** The Inbox's cards, in the order shown: a request waiting for the person, then each question. */
const CARD = '[data-exchange-id], [data-inbox-id]';

/** Whether a key press belongs to what is being typed (a field), not to the Inbox. */
function typing(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return !!element?.closest('input, textarea, select, [contenteditable="true"], dialog');
}

/**
 * Keyboard shortcuts of the Inbox, while it is the screen shown and no field has the keys: move
 * between cards, open one, answer it, and `?` for a help dialog (`<dialog>`, closed by Escape).
 */
export function InboxKeys({ list, active }: { list: RefObject<HTMLDivElement | null>; active: boolean }) {
  const help = useRef<HTMLDialogElement>(null);
  const { announce } = useDesk();
  useEffect(() => {
    if (!active) return;
    const cards = () => [...(list.current?.querySelectorAll<HTMLElement>(CARD) ?? [])];
    const current = () => (document.activeElement as HTMLElement | null)?.closest<HTMLElement>(CARD);
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      // Escape in a card's field gives the keys back: focus returns to the card itself.
      if (event.key === 'Escape' && typing(event.target) && !(event.target as HTMLElement).closest('dialog')) {
        const card = (event.target as HTMLElement).closest<HTMLElement>(CARD);
        if (card) {
          card.focus();
          event.preventDefault();
        }
        return;
      }
      if (typing(event.target)) return;
      const all = cards();
      const here = current();
      const index = here ? all.indexOf(here) : -1;
      const button = (selector: (b: HTMLButtonElement) => boolean) =>
        [...(here?.querySelectorAll<HTMLButtonElement>('button') ?? [])].find(selector);
      let handled = true;
      switch (event.key) {
        case 'j':
        case 'ArrowDown':
          all[Math.min(index + 1, all.length - 1)]?.focus();
          break;
        case 'k':
        case 'ArrowUp':
          all[Math.max(index - 1, 0)]?.focus();
          break;
        case 'Enter':
        case 'o':
          // From the screen's heading (where the Inbox puts the focus) or the page: to the first
          // card, as j would. Not from another control, whose own Enter this must not take.
          if (!here && (document.activeElement === document.body || document.activeElement?.id === 'heading-inbox')) {
            if (all[0]) all[0].focus();
            else handled = false;
          } else if (!here || here !== document.activeElement) handled = false;
          else here.querySelector<HTMLElement>('input, textarea, select, button')?.focus();
          break;
        // A key held down answers one card, not the next ones too (focus moves on to the next card).
        // From the heading (or the page), no card is chosen: the first takes the focus and the
        // key is said to act on it next time, rather than nothing happening, or an answer to a
        // card the person has not looked at.
        case 'a':
        case 'd':
          if (event.repeat) break;
          if (!here && (document.activeElement === document.body || document.activeElement?.id === 'heading-inbox')) {
            if (all[0]) {
              all[0].focus();
              announce(
                `On the first item. Press ${event.key} again to ${event.key === 'a' ? 'approve or submit' : 'decline or reject'} it.`
              );
            } else handled = false;
          } else if (event.key === 'a') button((b) => b.classList.contains('primary'))?.click();
          else button((b) => /^(Decline|Reject)$/.test(b.textContent ?? ''))?.click();
          break;
        case '?':
          help.current?.showModal();
          break;
        default:
          handled = false;
      }
      if (handled) event.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [active, list, announce]);

  return (
    <dialog ref={help} className="keys-help" aria-labelledby="keys-help-title">
      <h3 id="keys-help-title">Inbox keys</h3>
      <dl>
        {KEYS.map(([key, what]) => (
          <div key={key}>
            <dt>
              <kbd>{key}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      <button type="button" onClick={() => help.current?.close()}>
        Close
      </button>
    </dialog>
  );
}
