import type { ProviderConfig, ProviderView } from '../../app/contract/host-api.js';
import type { AppContext } from '../app-context.js';
import { h, replaceChildren, uid } from '../dom.js';
import { toHostCallError } from '../host-client.js';
import { isHttpUrl, selectField, textField, type FormField } from './form-field.js';
import { formErrorElement, setBusy, setFormError } from './inbox-card.js';

type ProviderModel = ProviderConfig['models'][number];
const AXES = ['cost', 'speed', 'intelligence'] as const;
type Axis = (typeof AXES)[number];
const AXIS_HINTS: Record<Axis, string> = {
  cost: '0 cheapest, 1 dearest',
  speed: '1 fastest',
  intelligence: '1 most capable'
};

interface ModelRow {
  row: HTMLTableRowElement;
  name: HTMLInputElement;
  ratings: Record<Axis, HTMLInputElement>;
}

/**
 * The "Add a provider" / "Edit provider" form: name, base URL, a write-only API key, the
 * models with their ratings, the default model and the token-limit field.
 *
 * The key field is never filled in: the UI does not know the key. Left empty on an edit,
 * the stored key is kept (the host only replaces it when `apiKey` is sent).
 */
export class ProviderForm {
  readonly element: HTMLFormElement;
  readonly #context: AppContext;
  readonly #onSaved: () => void;
  readonly #heading: HTMLHeadingElement;
  readonly #id: FormField<HTMLInputElement | HTMLTextAreaElement>;
  readonly #name: FormField<HTMLInputElement | HTMLTextAreaElement>;
  readonly #baseURL: FormField<HTMLInputElement | HTMLTextAreaElement>;
  readonly #apiKey: FormField<HTMLInputElement | HTMLTextAreaElement>;
  readonly #keyHint: HTMLElement;
  readonly #defaultModel: FormField<HTMLSelectElement>;
  readonly #tokenLimit: FormField<HTMLSelectElement>;
  readonly #modelBody: HTMLTableSectionElement;
  readonly #modelsError: HTMLElement;
  readonly #formError: HTMLElement;
  readonly #submit: HTMLButtonElement;
  readonly #cancelEdit: HTMLButtonElement;
  #rows: ModelRow[] = [];
  #editing: ProviderView | undefined;

  constructor(context: AppContext, onSaved: () => void) {
    this.#context = context;
    this.#onSaved = onSaved;
    const headingId = uid('heading-provider-form');
    this.#heading = h('h3', { id: headingId, tabindex: -1 }, 'Add a provider');
    this.#id = textField('Id', {
      name: 'id',
      required: true,
      hint: 'A short name Taskdesk keeps the provider under, e.g. openai.'
    });
    this.#name = textField('Name', { name: 'name', required: true });
    this.#baseURL = textField('Base URL', {
      name: 'baseURL',
      required: true,
      placeholder: 'https://api.openai.com/v1',
      hint: 'The API root including /v1.'
    });
    this.#apiKey = textField('API key', { name: 'apiKey', type: 'password', hint: 'Local servers need none.' });
    this.#keyHint = this.#apiKey.wrapper.querySelector('.field-hint')!;
    this.#defaultModel = selectField('Default model', {
      name: 'defaultModel',
      choices: [],
      hint: 'Used when a request prefers no listed model.'
    });
    this.#tokenLimit = selectField('Token limit field', {
      name: 'tokenLimitParam',
      choices: [
        { value: '', label: 'Automatic (from the base URL)' },
        { value: 'max_tokens', label: 'max_tokens' },
        { value: 'max_completion_tokens', label: 'max_completion_tokens' }
      ]
    });
    this.#modelBody = h('tbody');
    this.#modelsError = h('p', { class: 'field-error', hidden: true });
    this.#formError = formErrorElement();
    this.#submit = h('button', { type: 'submit', class: 'primary' }, 'Add provider');
    this.#cancelEdit = h('button', { type: 'button', hidden: true, onclick: () => this.reset(true) }, 'Cancel editing');
    const modelsCaptionId = uid('models-caption');

    this.element = h(
      'form',
      { class: 'add-server provider-form', novalidate: true, 'aria-labelledby': headingId },
      this.#heading,
      h('div', { class: 'field-row' }, this.#id.wrapper, this.#name.wrapper),
      this.#baseURL.wrapper,
      this.#apiKey.wrapper,
      h(
        'fieldset',
        { class: 'field models-editor', 'aria-describedby': modelsCaptionId },
        h('legend', null, 'Models'),
        h(
          'p',
          { class: 'field-hint', id: modelsCaptionId },
          'Ratings go from 0 to 1 and steer the model choice; leave one empty for “no opinion”.'
        ),
        h(
          'div',
          { class: 'table-wrap' },
          h(
            'table',
            { class: 'models' },
            h(
              'thead',
              null,
              h(
                'tr',
                null,
                h('th', { scope: 'col' }, 'Model'),
                AXES.map((axis) =>
                  h('th', { scope: 'col', title: AXIS_HINTS[axis] }, axis[0]!.toUpperCase() + axis.slice(1))
                ),
                h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, 'Actions'))
              )
            ),
            this.#modelBody
          )
        ),
        this.#modelsError,
        h(
          'div',
          { class: 'actions' },
          h('button', { type: 'button', class: 'small', onclick: () => this.#addRow(undefined, true) }, 'Add model')
        )
      ),
      h('div', { class: 'field-row' }, this.#defaultModel.wrapper, this.#tokenLimit.wrapper),
      this.#formError,
      h('div', { class: 'actions' }, this.#submit, this.#cancelEdit)
    );
    this.element.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.#save();
    });
    this.reset(false);
  }

  /** Fills the form with a provider to edit, and moves focus to it. */
  edit(view: ProviderView): void {
    this.#editing = view;
    this.#clearErrors();
    this.#heading.textContent = `Edit ${view.name}`;
    this.#id.input.value = view.id;
    this.#id.input.readOnly = true;
    this.#name.input.value = view.name;
    this.#baseURL.input.value = view.baseURL;
    this.#apiKey.input.value = '';
    this.#apiKey.input.placeholder = view.hasKey ? 'Stored — leave empty to keep it' : '';
    this.#keyHint.textContent = view.hasKey
      ? 'A key is stored. Type a new one to replace it; it is never shown.'
      : 'No key is stored. Local servers need none.';
    this.#rows = [];
    replaceChildren(this.#modelBody);
    for (const model of view.models) this.#addRow(model, false);
    this.#refreshDefaults(view.defaultModel);
    this.#tokenLimit.input.value = view.tokenLimitParam ?? '';
    this.#submit.textContent = 'Save changes';
    this.#cancelEdit.hidden = false;
    this.#heading.focus();
  }

  /** Adds models to the form (from "Test connection"); names already listed are skipped. */
  addModels(names: string[]): void {
    for (const name of names)
      if (!this.#rows.some((row) => row.name.value.trim() === name)) this.#addRow({ name }, false);
    this.#refreshDefaults(this.#defaultModel.input.value);
  }

  /** The provider being edited, if any. */
  get editing(): ProviderView | undefined {
    return this.#editing;
  }

  /** Back to an empty "Add a provider" form. */
  reset(focus: boolean): void {
    this.#editing = undefined;
    this.element.reset();
    this.#clearErrors();
    this.#heading.textContent = 'Add a provider';
    this.#id.input.readOnly = false;
    this.#apiKey.input.placeholder = '';
    this.#keyHint.textContent = 'Local servers need none. The key is kept in the key store and never shown again.';
    this.#rows = [];
    replaceChildren(this.#modelBody);
    this.#addRow(undefined, false);
    this.#refreshDefaults(undefined);
    this.#submit.textContent = 'Add provider';
    this.#cancelEdit.hidden = true;
    if (focus) this.#heading.focus();
  }

  #addRow(model: ProviderModel | undefined, focus: boolean): void {
    const index = this.#rows.length + 1;
    const name = h('input', {
      type: 'text',
      value: model?.name ?? '',
      'aria-label': `Model ${index} name`,
      autocomplete: 'off',
      spellcheck: 'false',
      'data-model-field': 'name'
    });
    name.addEventListener('input', () => this.#refreshDefaults(this.#defaultModel.input.value));
    const ratings = Object.fromEntries(
      AXES.map((axis) => {
        const value = model?.ratings?.[axis];
        return [
          axis,
          h('input', {
            type: 'number',
            min: 0,
            max: 1,
            step: 0.05,
            inputmode: 'decimal',
            value: value === undefined ? '' : String(value),
            'aria-label': `Model ${index} ${axis}`,
            'data-model-field': axis
          })
        ];
      })
    ) as Record<Axis, HTMLInputElement>;
    const entry: ModelRow = { row: h('tr'), name, ratings };
    const remove = h(
      'button',
      {
        type: 'button',
        class: 'small danger-link',
        'aria-label': `Remove model ${index}`,
        onclick: () => this.#removeRow(entry)
      },
      'Remove'
    );
    replaceChildren(
      entry.row,
      h('td', null, name),
      AXES.map((axis) => h('td', { class: 'rating' }, ratings[axis])),
      h('td', null, remove)
    );
    this.#rows.push(entry);
    this.#modelBody.append(entry.row);
    if (focus) name.focus();
  }

  #removeRow(entry: ModelRow): void {
    const index = this.#rows.indexOf(entry);
    this.#rows.splice(index, 1);
    entry.row.remove();
    // Labels say the position: renumber so "Model 2" is the second row again.
    this.#rows.forEach((row, i) => {
      row.name.setAttribute('aria-label', `Model ${i + 1} name`);
      for (const axis of AXES) row.ratings[axis].setAttribute('aria-label', `Model ${i + 1} ${axis}`);
      row.row.querySelector('button')?.setAttribute('aria-label', `Remove model ${i + 1}`);
    });
    this.#refreshDefaults(this.#defaultModel.input.value);
    (
      this.#rows[Math.min(index, this.#rows.length - 1)]?.name ??
      this.element.querySelector<HTMLButtonElement>('.models-editor .actions button')
    )?.focus();
  }

  /** Rebuilds the default-model choices from the model names, keeping the choice when it is still listed. */
  #refreshDefaults(wanted: string | undefined): void {
    const names = [...new Set(this.#rows.map((row) => row.name.value.trim()).filter(Boolean))];
    if (wanted && !names.includes(wanted)) names.unshift(wanted);
    replaceChildren(
      this.#defaultModel.input,
      h('option', { value: '' }, '(the first model)'),
      names.map((name) => h('option', { value: name, selected: name === wanted }, name))
    );
  }

  #clearErrors(): void {
    for (const field of [this.#id, this.#name, this.#baseURL, this.#apiKey]) field.setError(undefined);
    this.#modelsError.hidden = true;
    for (const input of this.element.querySelectorAll('.models [aria-invalid]')) input.removeAttribute('aria-invalid');
    setFormError(this.#formError, undefined);
  }

  /** Checks what the user can fix; returns the config, or undefined with the problems shown. */
  #collect(): ProviderConfig | undefined {
    this.#clearErrors();
    const problems: Array<{ focus: HTMLElement; show: () => void }> = [];
    const fieldProblem = (field: FormField<HTMLInputElement | HTMLTextAreaElement>, message: string) =>
      problems.push({ focus: field.input, show: () => field.setError(message) });
    const id = this.#id.input.value.trim();
    const name = this.#name.input.value.trim();
    const baseURL = this.#baseURL.input.value.trim();
    if (!id) fieldProblem(this.#id, 'Required');
    if (!name) fieldProblem(this.#name, 'Required');
    if (!baseURL) fieldProblem(this.#baseURL, 'Required');
    else if (!isHttpUrl(baseURL)) fieldProblem(this.#baseURL, 'Enter an http:// or https:// URL');

    const models: ProviderModel[] = [];
    const modelMessages: string[] = [];
    this.#rows.forEach((row, i) => {
      const modelName = row.name.value.trim();
      const ratings: Partial<Record<Axis, number>> = {};
      for (const axis of AXES) {
        const input = row.ratings[axis];
        const raw = input.value.trim();
        if (raw === '' && input.validity.badInput !== true) continue;
        const value = Number(raw);
        if (raw === '' || !Number.isFinite(value) || value < 0 || value > 1) {
          modelMessages.push(`Model ${i + 1}: ${axis} must be a number from 0 to 1`);
          problems.push({ focus: input, show: () => input.setAttribute('aria-invalid', 'true') });
        } else ratings[axis] = value;
      }
      if (!modelName) {
        if (Object.keys(ratings).length > 0) {
          modelMessages.push(`Model ${i + 1}: give it a name or remove the row`);
          problems.push({ focus: row.name, show: () => row.name.setAttribute('aria-invalid', 'true') });
        }
        return;
      }
      models.push(Object.keys(ratings).length > 0 ? { name: modelName, ratings } : { name: modelName });
    });
    if (problems.length > 0) {
      for (const problem of problems) problem.show();
      if (modelMessages.length > 0) {
        this.#modelsError.textContent = modelMessages.join('. ');
        this.#modelsError.hidden = false;
      }
      setFormError(
        this.#formError,
        problems.length === 1 ? 'One field needs correcting.' : `${problems.length} fields need correcting.`
      );
      problems[0]!.focus.focus();
      return undefined;
    }
    const apiKey = this.#apiKey.input.value;
    const defaultModel = this.#defaultModel.input.value;
    const tokenLimitParam = this.#tokenLimit.input.value;
    return {
      id,
      name,
      baseURL,
      models,
      ...(defaultModel && { defaultModel }),
      ...((tokenLimitParam === 'max_tokens' || tokenLimitParam === 'max_completion_tokens') && { tokenLimitParam }),
      // Empty keeps the stored key: the host replaces a key only when one is sent.
      ...(apiKey.trim() && { apiKey: apiKey.trim() })
    };
  }

  async #save(): Promise<void> {
    const config = this.#collect();
    if (!config) return;
    const editing = this.#editing !== undefined;
    setBusy(this.element, true);
    try {
      const saved = await this.#context.client.call('providers.save', config);
      this.#context.announce(editing ? `Saved ${saved.name}.` : `Added ${saved.name}.`);
      this.reset(false);
      this.#onSaved();
    } catch (error) {
      setFormError(this.#formError, toHostCallError(error).message);
    } finally {
      setBusy(this.element, false);
    }
  }
}
