import type { InboxAnswerInput, InboxItem } from '../../app/contract/host-api.js';
import type { AppContext } from '../app-context.js';
import { h } from '../dom.js';
import { toHostCallError } from '../host-client.js';
import { buildFields } from './elicitation-fields.js';
import { formErrorElement, inboxCard, setBusy, setFormError } from './inbox-card.js';

/** What a card calls when its item is answered, so the inbox can drop it at once. */
export type OnAnswered = (id: string) => void;

/** An elicitation item: a form built from `requestedSchema`, or a URL to consent to. */
export function elicitationCard(item: InboxItem, context: AppContext, onAnswered: OnAnswered): HTMLElement {
  return item.request.mode === 'url' ? urlCard(item, context, onAnswered) : formCard(item, context, onAnswered);
}

function messageOf(item: InboxItem, fallback: string): string {
  return typeof item.request.message === 'string' && item.request.message.trim() ? item.request.message : fallback;
}

/** Sends an answer; resolves false (with the error shown) when the host refused it. */
async function send(
  item: InboxItem,
  answer: InboxAnswerInput,
  form: HTMLFormElement,
  formError: HTMLElement,
  context: AppContext,
  onAnswered: OnAnswered,
  onFieldErrors?: (fields: Record<string, string>) => boolean
): Promise<boolean> {
  setFormError(formError, undefined);
  setBusy(form, true);
  try {
    await context.client.call('inbox.answer', { id: item.id, answer });
    context.announce(`Answer sent to ${item.serverName}.`);
    onAnswered(item.id);
    return true;
  } catch (thrown) {
    const error = toHostCallError(thrown);
    const fields = error.fields;
    if (!(Object.keys(fields).length > 0 && onFieldErrors?.(fields))) setFormError(formError, error.message);
    return false;
  } finally {
    setBusy(form, false);
  }
}

function formCard(item: InboxItem, context: AppContext, onAnswered: OnAnswered): HTMLElement {
  const controls = buildFields(item.request.requestedSchema);
  const formError = formErrorElement();
  const form = h(
    'form',
    { class: 'answer-form', novalidate: true },
    controls.length > 0
      ? controls.map((control) => control.element)
      : h('p', { class: 'muted' }, 'This form has no fields.'),
    formError,
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit', class: 'primary' }, 'Submit'),
      h(
        'button',
        { type: 'button', onclick: () => void send(item, { action: 'decline' }, form, formError, context, onAnswered) },
        'Decline'
      ),
      h(
        'button',
        { type: 'button', onclick: () => void send(item, { action: 'cancel' }, form, formError, context, onAnswered) },
        'Cancel'
      )
    )
  );

  /** Shows the host's per-field messages; returns false if none could be placed on a field. */
  const showFieldErrors = (fields: Record<string, string>): boolean => {
    const unplaced = Object.entries(fields).filter(([name]) => !controls.some((control) => control.name === name));
    for (const control of controls) control.setError(fields[control.name]);
    const count = Object.keys(fields).length;
    const summary = count === 1 ? 'One answer needs correcting.' : `${count} answers need correcting.`;
    setFormError(
      formError,
      unplaced.length > 0
        ? `${summary} ${unplaced.map(([name, message]) => (name ? `${name}: ${message}` : message)).join('; ')}`
        : summary
    );
    const first = controls.find((control) => fields[control.name] !== undefined);
    first?.focus();
    return true;
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    for (const control of controls) control.setError(undefined);
    const content: Record<string, unknown> = {};
    for (const control of controls) {
      const value = control.read();
      if (value !== undefined) content[control.name] = value;
    }
    void send(item, { action: 'accept', content }, form, formError, context, onAnswered, showFieldErrors);
  });

  return inboxCard(item, 'Form', messageOf(item, `${item.serverName} asks for information`), form);
}

function urlCard(item: InboxItem, context: AppContext, onAnswered: OnAnswered): HTMLElement {
  const rawUrl = typeof item.request.url === 'string' ? item.request.url : '';
  let url: URL | undefined;
  try {
    url = new URL(rawUrl);
  } catch {
    url = undefined;
  }
  const openable = !!url && (url.protocol === 'https:' || url.protocol === 'http:');
  const formError = formErrorElement();
  const form = h('form', { class: 'answer-form', novalidate: true });

  const open = async () => {
    if (!url || !openable) return;
    const agreed = await context.confirm({
      title: 'Open this link?',
      body: [
        h('p', null, `${item.serverName} wants you to open a page on `, h('strong', null, url.host), '.'),
        h('p', null, h('code', { class: 'url' }, url.href))
      ],
      confirmLabel: 'Open link'
    });
    if (!agreed) return;
    // Accepting tells the server the user agreed; only then is the page opened.
    if (await send(item, { action: 'accept' }, form, formError, context, onAnswered)) context.openExternal(url.href);
  };

  form.append(
    h(
      'p',
      null,
      openable
        ? ['This opens a page on ', h('strong', null, url!.host), ':']
        : 'The server sent a link that cannot be opened safely:'
    ),
    h('p', null, h('code', { class: 'url' }, rawUrl || '(no URL)')),
    formError,
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'button', class: 'primary', disabled: !openable, onclick: () => void open() }, 'Open link…'),
      h(
        'button',
        { type: 'button', onclick: () => void send(item, { action: 'decline' }, form, formError, context, onAnswered) },
        'Decline'
      ),
      h(
        'button',
        { type: 'button', onclick: () => void send(item, { action: 'cancel' }, form, formError, context, onAnswered) },
        'Cancel'
      )
    )
  );
  form.addEventListener('submit', (event) => event.preventDefault());
  return inboxCard(item, 'Link', messageOf(item, `${item.serverName} asks you to open a link`), form);
}
