import { h, uid } from '../dom.js';

/** A labelled input with a hint and an error slot, wired for screen readers. */
export interface FormField<E extends HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement = HTMLInputElement> {
  input: E;
  wrapper: HTMLElement;
  setError(message: string | undefined): void;
}

/** Options of {@link textField}. */
export interface TextFieldOptions {
  name: string;
  hint?: string;
  required?: boolean;
  placeholder?: string;
  value?: string;
  /** Default `text`. */
  type?: 'text' | 'password' | 'url' | 'number';
  multiline?: boolean;
  rows?: number;
}

/**
 * A text field: label (with a required mark), hint, input and error, as the add-server form
 * has them. `setError` sets `aria-invalid` and points `aria-describedby` at the message.
 */
export function textField(label: string, options: TextFieldOptions): FormField<HTMLInputElement | HTMLTextAreaElement> {
  const id = uid(`field-${options.name}`);
  const attrs = {
    id,
    name: options.name,
    required: options.required ?? false,
    'aria-required': options.required ? 'true' : undefined,
    placeholder: options.placeholder,
    autocomplete: options.type === 'password' ? 'new-password' : 'off',
    spellcheck: 'false',
    value: options.value
  };
  const input = options.multiline
    ? h('textarea', { ...attrs, rows: options.rows ?? 3 })
    : h('input', { ...attrs, type: options.type ?? 'text' });
  return framed(id, label, input, options);
}

/** A select with a label, hint and error slot. */
export function selectField(
  label: string,
  options: { name: string; hint?: string; choices: Array<{ value: string; label: string }>; value?: string }
): FormField<HTMLSelectElement> {
  const id = uid(`field-${options.name}`);
  const select = h(
    'select',
    { id, name: options.name },
    options.choices.map((choice) =>
      h('option', { value: choice.value, selected: choice.value === options.value }, choice.label)
    )
  );
  return framed(id, label, select, options);
}

function framed<E extends HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>(
  id: string,
  label: string,
  input: E,
  options: { hint?: string; required?: boolean }
): FormField<E> {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const hint = options.hint ? h('p', { class: 'field-hint', id: hintId }, options.hint) : null;
  const error = h('p', { class: 'field-error', id: errorId, hidden: true });
  const describe = (withError: boolean) => [hint ? hintId : '', withError ? errorId : ''].filter(Boolean).join(' ');
  if (describe(false)) input.setAttribute('aria-describedby', describe(false));
  return {
    input,
    wrapper: h(
      'div',
      { class: 'field' },
      h(
        'label',
        { for: id },
        label,
        options.required ? h('span', { class: 'required', 'aria-hidden': 'true' }, ' *') : null
      ),
      hint,
      input,
      error
    ),
    setError(message) {
      error.textContent = message ?? '';
      error.hidden = !message;
      if (message) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
      const ids = describe(!!message);
      if (ids) input.setAttribute('aria-describedby', ids);
      else input.removeAttribute('aria-describedby');
    }
  };
}

/** Whether a string is an absolute http(s) URL. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
