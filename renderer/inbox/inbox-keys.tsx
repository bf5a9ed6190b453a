import { createContext, useContext, useEffect, useRef, type RefObject } from 'react';
import { useDesk } from '../shell/desk-context.js';
import { heldAnswerWord, UNDO_WINDOW_MS, type HeldAnswers } from '../store/held-answers.js';

/** The undo window, in seconds, as the keys' help and the live region say it. */
const UNDO_SECONDS = Math.round(UNDO_WINDOW_MS / 1000);

/** The Inbox's keys, as the help dialog lists them. */
const KEYS: Array<[string, string]> = [
  ['j or ↓', 'Next item'],
  ['k or ↑', 'Previous item'],
  ['Enter or o', 'Open the item: focus its first field'],
  ['Escape', 'From a field or button of an item, back to the item itself (then its keys work again)'],
  ['a', 'Approve or submit the item (on a question with nothing typed yet: go to its first empty field)'],
  ['d', 'Decline or reject the item'],
  ['x', 'Dismiss a question: no choice made, the server may ask again'],
  ['u', `Undo the last Decline, Reject or Dismiss, in the ${UNDO_SECONDS} seconds before it is sent`],
  ['?', 'Show these keys']
];

/**
 * What Enter, o, a, d and x do before an item has the focus, said once under the list: it was
 * said after each of them, as "(from the heading: go to the first item)", which did not say
 * which heading.
 */
const FROM_THE_TOP =
  'When no item has the focus yet (as when you open the Inbox), Enter, o, a, d and x go to the first item; press a, d or x again there to act on it.';

/**
 * Where the keys that answer do nothing, said under the list: a person who took a card's button
 * for a text field typed a sentence that rejected the request, undid it and typed into its Model
 * field, one letter at a time.
 */
const NOT_ON_CONTROLS =
  'On an item, a, d, x, u, o and Enter act only when the item itself has the focus (outlined as a whole), never while one of its buttons, links or fields has it: press Escape to go back to the item.';

/**
 * What `u` says with nothing to take back: why, when the answer held last was dropped as its
 * question ended (not the window: that may have had seconds left), else how long Undo lasts.
 */
export function nothingToUndo(ended: ReturnType<HeldAnswers['lastEnded']>): string {
  if (ended === undefined)
    return `Nothing to undo: a Decline, Reject or Dismiss can be undone for ${UNDO_SECONDS} seconds.`;
  const { serverName, noun } = ended.answer;
  return ended.withdrawn
    ? `Nothing to undo: ${serverName} withdrew that ${noun}.`
    : `Nothing to undo: that ${noun} ended before your ${heldAnswerWord(ended.answer.action)} was sent.`;
}

/**
 * A question's card that is shown: not one hidden while its answer waits out its undo window
 * (its line, with Undo, stands in its place).
 */
export const LIVE_CARD = '[data-inbox-id]:not([hidden] *)';

/** The Inbox's cards, in the order shown: a request waiting for the person, then each question. */
const CARD = `[data-exchange-id], ${LIVE_CARD}`;

/**
 * What a key pressed on the Inbox's heading left to do: the card it put the focus on
 * (`data-inbox-id` or `data-exchange-id`) and what pressing the key again does there.
 */
export interface KeyHint {
  cardId: string;
  text: string;
}

/** The Inbox's {@link KeyHint} of now, for the cards to show on the one it is about. */
export const KeyHintContext = createContext<KeyHint | undefined>(undefined);

/**
 * The hint of the Inbox's keys on the card `cardId`, when there is one: shown, as the live region
 * said it, for those who see the card rather than hear it.
 */
export function CardKeyHint({ cardId }: { cardId: string }) {
  const hint = useContext(KeyHintContext);
  if (hint?.cardId !== cardId) return null;
  // Said already by the live region: not said again to a screen reader going through the card.
  return (
    <p className="inbox-key-hint muted small-text" aria-hidden="true">
      {hint.text}
    </p>
  );
}

/** What a, d and x do to a card, as the hint after one of them from the heading says it. */
const ANSWERS: Record<string, string> = { a: 'approve or submit', d: 'decline or reject', x: 'dismiss' };

/**
 * A question's form as it came, nothing in it changed, with a field to type in still empty (one
 * with no default; marked so by its card, the attribute naming the first such field). The person
 * pressing `a` there was most likely about to type their answer ("alice" pressed a): an Accept
 * without it, which cannot be undone, is not sent on one letter; the focus goes to that
 * {@link TEXT_FIELD} instead, where Enter submits the form.
 */
const UNTOUCHED_FORM = 'form[data-untouched]';
/** A field to type in: what a question's form shows for a string or a number (never a textarea, where Enter would not submit). */
const TEXT_FIELD = 'input:not([type="checkbox"], [type="radio"], [type="hidden"])';

/** What `a` on an {@link UNTOUCHED_FORM} says, as the focus goes to its empty field. */
const NOT_SENT = 'Not sent: nothing is typed yet. Type your answer, then press Enter to submit it.';

/** A question's Dismiss button (MCP's `cancel`): only questions have one. */
const isDismiss = (button: HTMLButtonElement) => button.textContent === 'Dismiss';

/** Whether a card offers Dismiss. */
const dismissable = (card: HTMLElement) => [...card.querySelectorAll('button')].some(isDismiss);

/** Whether a key press belongs to what is being typed (a field), not to the Inbox. */
function typing(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return !!element?.closest('input, textarea, select, [contenteditable="true"], dialog');
}

/** A control: a key pressed there is the control's, or a slip, never an answer. */
const CONTROL = 'button, a[href], summary, input, select, textarea, [role="button"], [role="link"]';

/**
 * Whether the focus is where the Inbox's answering keys (a, d, x, u, o, Enter) act: on a card
 * itself (not anything in it), on the Inbox's heading or the page (where they go to the first
 * card, or undo), or on what is no control (a line the focus was handed to).
 */
function answeringKeysPlace(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  if (element === null || element === document.body || element.id === 'heading-inbox' || element.matches(CARD))
    return true;
  return !element.closest(CARD) && !element.closest(CONTROL);
}

/**
 * Keyboard shortcuts of the Inbox, while it is the screen shown and no field has the keys: move
 * between cards, open one, answer it, and `?` for a help dialog (`<dialog>`, closed by Escape).
 */
export function InboxKeys({
  list,
  active,
  onHint,
  onUndo
}: {
  list: RefObject<HTMLDivElement | null>;
  active: boolean;
  /** Takes back the answer held last (see `HeldAnswers`); false when there is none to take back. */
  onUndo: () => boolean;
  /** Shows a {@link KeyHint} on its card, or none (undefined): it goes with the next key, or as the focus leaves the card. */
  onHint: (hint: KeyHint | undefined) => void;
}) {
  const help = useRef<HTMLDialogElement>(null);
  const { announce, store } = useDesk();
  useEffect(() => {
    if (!active) return;
    const cards = () => [...(list.current?.querySelectorAll<HTMLElement>(CARD) ?? [])];
    const current = () => (document.activeElement as HTMLElement | null)?.closest<HTMLElement>(CARD);
    /** The card a hint is shown on. */
    let hinted: HTMLElement | undefined;
    const clearHint = () => {
      if (hinted === undefined) return;
      hinted = undefined;
      onHint(undefined);
    };
    const onFocus = (event: FocusEvent) => {
      if (event.target !== hinted) clearHint();
      // A card the focus came to as the one above it was withdrawn is looked at once the focus
      // moves (into it, or elsewhere and back).
      for (const unseen of list.current?.querySelectorAll<HTMLElement>('[data-unseen]') ?? [])
        if (unseen !== event.target) delete unseen.dataset.unseen;
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      // Its key pressed again (or any other): the hint has been followed, or left.
      if (!['Shift', 'CapsLock'].includes(event.key)) clearHint();
      // Escape in a card's field or on its button gives the keys back: focus returns to the card itself.
      if (
        event.key === 'Escape' &&
        (typing(event.target) || !answeringKeysPlace(event.target)) &&
        !(event.target as HTMLElement).closest('dialog')
      ) {
        const card = (event.target as HTMLElement).closest<HTMLElement>(CARD);
        if (card) {
          card.focus();
          event.preventDefault();
        }
        return;
      }
      if (typing(event.target)) return;
      // The keys that answer, undo or open act on a card that has the focus itself: on one of its
      // buttons they would act on letters typed by a person who thought they were in a field.
      if (['a', 'd', 'x', 'u', 'o', 'Enter'].includes(event.key) && !answeringKeysPlace(event.target)) return;
      const all = cards();
      const here = current();
      const index = here ? all.indexOf(here) : -1;
      const button = (selector: (b: HTMLButtonElement) => boolean) =>
        [...(here?.querySelectorAll<HTMLButtonElement>('button') ?? [])].find(selector);
      let handled = true;
      switch (event.key) {
        case 'j':
        case 'ArrowDown': {
          // Past the last card shown, while more wait: the next page is shown, and its first card
          // takes the focus (the keys went no further than the 50th before).
          const more = list.current?.parentElement?.querySelector<HTMLButtonElement>('.inbox-show-more');
          if (here && index === all.length - 1 && more) {
            more.click();
            requestAnimationFrame(() => cards()[index + 1]?.focus());
          } else all[Math.min(index + 1, all.length - 1)]?.focus();
          break;
        }
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
        case 'x': {
          if (event.repeat) break;
          if (!here && (document.activeElement === document.body || document.activeElement?.id === 'heading-inbox')) {
            const first = all[0];
            if (first) {
              first.focus();
              const again =
                event.key !== 'x' || dismissable(first)
                  ? `Press ${event.key} again to ${ANSWERS[event.key]} it.`
                  : 'This item cannot be dismissed: only a question can.';
              announce(`On the first item. ${again}`);
              const cardId = first.dataset.inboxId ?? first.dataset.exchangeId;
              if (cardId !== undefined) {
                hinted = first;
                onHint({ cardId, text: again });
              }
            } else handled = false;
          } else if (here && here === document.activeElement && here.dataset.unseen !== undefined) {
            // The focus came here as the card the person was on was withdrawn: the key was meant
            // for that one. Said, and asked again, rather than answering a card not looked at.
            delete here.dataset.unseen;
            const again =
              event.key !== 'x' || dismissable(here)
                ? `Press ${event.key} again to ${ANSWERS[event.key]} it.`
                : 'This item cannot be dismissed: only a question can.';
            announce(`The item you were on was withdrawn; this is the next one. ${again}`);
            const cardId = here.dataset.inboxId ?? here.dataset.exchangeId;
            if (cardId !== undefined) {
              hinted = here;
              onHint({ cardId, text: `The item you were on was withdrawn. ${again}` });
            }
          } else if (event.key === 'a') {
            const form = here?.querySelector<HTMLFormElement>(UNTOUCHED_FORM);
            const fields = [...(form?.querySelectorAll<HTMLInputElement>(TEXT_FIELD) ?? [])];
            const empty = fields.find((f) => f.name === form?.dataset.untouched);
            // What the page shows, too: a letter typed in a number field leaves its value empty.
            const field = empty?.value === '' && fields.every((f) => !f.validity.badInput) ? empty : undefined;
            if (here && field) {
              // The focus first (its focusin would take the hint away), then the hint on the card.
              field.focus();
              announce(NOT_SENT);
              const cardId = here.dataset.inboxId;
              if (cardId !== undefined) {
                hinted = here;
                onHint({ cardId, text: NOT_SENT });
              }
            } else button((b) => b.classList.contains('primary'))?.click();
          } else if (event.key === 'd') button((b) => /^(Decline|Reject)$/.test(b.textContent ?? ''))?.click();
          else {
            const dismiss = button(isDismiss);
            if (dismiss) dismiss.click();
            else if (here) announce('This item cannot be dismissed: only a question can.');
          }
          break;
        }
        case 'u':
          if (!onUndo()) announce(nothingToUndo(store.held.lastEnded()));
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
    document.addEventListener('focusin', onFocus);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('focusin', onFocus);
      clearHint();
    };
  }, [active, list, announce, store, onHint, onUndo]);

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
      <p className="muted small-text">{FROM_THE_TOP}</p>
      <p className="muted small-text">{NOT_ON_CONTROLS}</p>
      <button type="button" onClick={() => help.current?.close()}>
        Close
      </button>
    </dialog>
  );
}
