import type { InboxItem } from '../../app/contract/host-api.js';
import { h, shortId, timeElement, uid, type Child } from '../dom.js';

/** The frame every inbox item shares: what kind, who asks, when, and for which task. */
export function inboxCard(item: InboxItem, kindLabel: string, title: string, ...body: Child[]): HTMLElement {
  const titleId = uid('inbox-title');
  return h(
    'article',
    { class: `card inbox-item kind-${item.kind}`, 'aria-labelledby': titleId, 'data-inbox-id': item.id },
    h(
      'header',
      { class: 'card-header' },
      h('span', { class: 'kind-tag' }, kindLabel),
      h('h3', { id: titleId }, title),
      h(
        'p',
        { class: 'meta' },
        'From ',
        h('strong', null, item.serverName),
        ' · ',
        timeElement(item.createdAt),
        item.taskId
          ? [' · task ', h('code', { title: item.taskId }, shortId(item.taskId))]
          : item.relatedTaskId
            ? // A question asked inside one of Taskdesk's own tool calls: the server's task waits on it.
              [
                ' · the server’s task ',
                h('code', { title: item.relatedTaskId }, shortId(item.relatedTaskId)),
                ' waits on it'
              ]
            : ' · waits on the server',
        item.origin ? [' · for ', item.origin] : null
      )
    ),
    body
  );
}

/** A form's error summary: announced when it changes, hidden when empty. */
export function formErrorElement(): HTMLParagraphElement {
  return h('p', { class: 'form-error', role: 'alert', hidden: true });
}

/** Shows or hides a form's error summary. */
export function setFormError(element: HTMLElement, message: string | undefined): void {
  element.textContent = message ?? '';
  element.hidden = !message;
}

/** Disables a form's buttons while a call is on its way, so an answer is not sent twice. */
export function setBusy(form: HTMLElement, busy: boolean): void {
  form.setAttribute('aria-busy', String(busy));
  for (const button of form.querySelectorAll('button')) button.disabled = busy;
}
