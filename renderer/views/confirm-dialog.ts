import type { ConfirmRequest } from '../app-context.js';
import { h, replaceChildren, uid } from '../dom.js';

/**
 * One modal `<dialog>` for confirmations. The safe answer (Cancel) has focus first, so an
 * accidental Enter does not agree.
 */
export class ConfirmDialog {
  readonly element: HTMLDialogElement;
  readonly #title: HTMLHeadingElement;
  readonly #body: HTMLDivElement;
  readonly #confirm: HTMLButtonElement;
  readonly #cancel: HTMLButtonElement;

  constructor() {
    const titleId = uid('confirm-title');
    const bodyId = uid('confirm-body');
    this.#title = h('h2', { id: titleId });
    this.#body = h('div', { id: bodyId, class: 'dialog-body' });
    this.#cancel = h('button', { type: 'submit', value: 'cancel' }, 'Cancel');
    this.#confirm = h('button', { type: 'submit', value: 'confirm', class: 'primary' });
    this.element = h(
      'dialog',
      { class: 'confirm', 'aria-labelledby': titleId, 'aria-describedby': bodyId },
      h(
        'form',
        { method: 'dialog' },
        this.#title,
        this.#body,
        h('div', { class: 'actions' }, this.#confirm, this.#cancel)
      )
    );
  }

  ask(request: ConfirmRequest): Promise<boolean> {
    this.#title.textContent = request.title;
    replaceChildren(this.#body, request.body);
    this.#confirm.textContent = request.confirmLabel;
    this.#confirm.classList.toggle('danger', request.danger === true);
    this.element.returnValue = '';
    this.element.showModal();
    this.#cancel.focus();
    return new Promise((resolve) => {
      this.element.addEventListener('close', () => resolve(this.element.returnValue === 'confirm'), { once: true });
    });
  }
}
