import { h, uid } from '../dom.js';

/** One form field built from a `requestedSchema` property. */
export interface FieldControl {
  readonly name: string;
  readonly element: HTMLElement;
  /** The field's value for the answer; undefined leaves the field out (empty). */
  read(): unknown;
  /** Shows a message under the field, or clears it. */
  setError(message: string | undefined): void;
  focus(): void;
}

type Property = Record<string, unknown>;

interface Choice {
  value: string;
  label: string;
}

/**
 * Builds the inputs of an elicitation form from its `requestedSchema` (spec 2025-11-25: a flat
 * object of strings, numbers, integers, booleans and multi-select arrays).
 *
 * The browser's own validation stays off (`novalidate`): the host checks the answer against
 * the schema and its per-field messages are the ones shown.
 */
export function buildFields(schema: unknown): FieldControl[] {
  const properties = ((schema as { properties?: unknown } | undefined)?.properties ?? {}) as Record<string, Property>;
  const required = new Set(((schema as { required?: unknown } | undefined)?.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, property]) => buildField(name, property, required.has(name)));
}

function buildField(name: string, property: Property, required: boolean): FieldControl {
  const choices = choicesOf(property);
  switch (property.type) {
    case 'boolean':
      return booleanField(name, property, required);
    case 'array':
      return multiChoiceField(name, property, required, choicesOf((property.items ?? {}) as Property) ?? []);
    case 'string':
      return choices ? selectField(name, property, required, choices) : inputField(name, property, required);
    case 'number':
    case 'integer':
      return inputField(name, property, required);
    default:
      return unsupportedField(name, property);
  }
}

/** Allowed values with their display titles: `oneOf`/`anyOf` consts, or `enum` (with legacy `enumNames`). */
function choicesOf(property: Property): Choice[] | undefined {
  const options = (property.oneOf ?? property.anyOf) as Array<{ const?: unknown; title?: unknown }> | undefined;
  if (Array.isArray(options)) {
    return options.map((option) => ({
      value: String(option.const),
      label: typeof option.title === 'string' ? option.title : String(option.const)
    }));
  }
  if (Array.isArray(property.enum)) {
    const names = Array.isArray(property.enumNames) ? (property.enumNames as unknown[]) : [];
    return property.enum.map((value, index) => ({
      value: String(value),
      label: typeof names[index] === 'string' ? (names[index] as string) : String(value)
    }));
  }
  return undefined;
}

function labelText(name: string, property: Property): string {
  return typeof property.title === 'string' && property.title.trim() ? property.title : name;
}

/** Label, optional description and error slot, wired to the control by id. */
function frame(name: string, property: Property, required: boolean) {
  const id = uid(`field-${name.replace(/[^A-Za-z0-9_-]/g, '_')}`);
  const descriptionId = `${id}-description`;
  const errorId = `${id}-error`;
  const description =
    typeof property.description === 'string' && property.description
      ? h('p', { class: 'field-hint', id: descriptionId }, property.description)
      : null;
  const error = h('p', { class: 'field-error', id: errorId, hidden: true });
  const label = h(
    'label',
    { for: id },
    labelText(name, property),
    required ? h('span', { class: 'required', 'aria-hidden': 'true' }, ' *') : null
  );
  const describedBy = (withError: boolean) =>
    [description ? descriptionId : '', withError ? errorId : ''].filter(Boolean).join(' ');
  return { id, label, description, error, describedBy };
}

function applyError(
  target: HTMLElement,
  error: HTMLElement,
  describedBy: (withError: boolean) => string,
  message: string | undefined
): void {
  error.textContent = message ?? '';
  error.hidden = !message;
  if (message) target.setAttribute('aria-invalid', 'true');
  else target.removeAttribute('aria-invalid');
  const ids = describedBy(!!message);
  if (ids) target.setAttribute('aria-describedby', ids);
  else target.removeAttribute('aria-describedby');
}

function inputField(name: string, property: Property, required: boolean): FieldControl {
  const { id, label, description, error, describedBy } = frame(name, property, required);
  const numeric = property.type === 'number' || property.type === 'integer';
  const format = property.format;
  const type = numeric
    ? 'number'
    : format === 'email'
      ? 'email'
      : format === 'uri'
        ? 'url'
        : format === 'date'
          ? 'date'
          : format === 'date-time'
            ? 'datetime-local'
            : 'text';
  const input = h('input', {
    id,
    name,
    type,
    required,
    'aria-required': required ? 'true' : undefined,
    'aria-describedby': describedBy(false) || undefined,
    autocomplete: format === 'email' ? 'email' : 'off',
    step: numeric ? (property.type === 'integer' ? '1' : 'any') : undefined,
    min: typeof property.minimum === 'number' ? property.minimum : undefined,
    max: typeof property.maximum === 'number' ? property.maximum : undefined,
    value: property.default !== undefined && type !== 'datetime-local' ? String(property.default) : undefined
  });
  return {
    name,
    element: h('div', { class: 'field' }, label, description, input, error),
    read() {
      const raw = input.value.trim();
      if (raw === '') return undefined;
      if (numeric) return Number(raw);
      // datetime-local has no zone; the schema's date-time wants an absolute instant.
      if (type === 'datetime-local') return new Date(raw).toISOString();
      return raw;
    },
    setError: (message) => applyError(input, error, describedBy, message),
    focus: () => input.focus()
  };
}

function selectField(name: string, property: Property, required: boolean, choices: Choice[]): FieldControl {
  const { id, label, description, error, describedBy } = frame(name, property, required);
  const select = h(
    'select',
    { id, name, required, 'aria-describedby': describedBy(false) || undefined },
    h('option', { value: '' }, required ? 'Choose…' : '(none)'),
    choices.map((choice) =>
      h('option', { value: choice.value, selected: property.default === choice.value }, choice.label)
    )
  );
  return {
    name,
    element: h('div', { class: 'field' }, label, description, select, error),
    read: () => (select.value === '' ? undefined : select.value),
    setError: (message) => applyError(select, error, describedBy, message),
    focus: () => select.focus()
  };
}

function booleanField(name: string, property: Property, required: boolean): FieldControl {
  const { id, label, description, error, describedBy } = frame(name, property, required);
  const input = h('input', {
    id,
    name,
    type: 'checkbox',
    checked: property.default === true,
    'aria-describedby': describedBy(false) || undefined
  });
  return {
    name,
    element: h(
      'div',
      { class: 'field field-checkbox' },
      h('div', { class: 'checkbox-row' }, input, label),
      description,
      error
    ),
    read: () => input.checked,
    setError: (message) => applyError(input, error, describedBy, message),
    focus: () => input.focus()
  };
}

function multiChoiceField(name: string, property: Property, required: boolean, choices: Choice[]): FieldControl {
  const { id, description, error, describedBy } = frame(name, property, required);
  const defaults = Array.isArray(property.default) ? property.default.map(String) : [];
  const boxes = choices.map((choice, index) => {
    const boxId = `${id}-${index}`;
    const box = h('input', {
      id: boxId,
      type: 'checkbox',
      name,
      value: choice.value,
      checked: defaults.includes(choice.value)
    });
    return { box, row: h('div', { class: 'checkbox-row' }, box, h('label', { for: boxId }, choice.label)) };
  });
  const fieldset = h(
    'fieldset',
    { class: 'field', 'aria-describedby': describedBy(false) || undefined },
    h(
      'legend',
      null,
      labelText(name, property),
      required ? h('span', { class: 'required', 'aria-hidden': 'true' }, ' *') : null
    ),
    description,
    boxes.map((entry) => entry.row),
    error
  );
  return {
    name,
    element: fieldset,
    read() {
      const chosen = boxes.filter((entry) => entry.box.checked).map((entry) => entry.box.value);
      return chosen.length > 0 ? chosen : undefined;
    },
    setError: (message) => applyError(fieldset, error, describedBy, message),
    focus: () => boxes[0]?.box.focus()
  };
}

function unsupportedField(name: string, property: Property): FieldControl {
  const error = h('p', { class: 'field-error' });
  return {
    name,
    element: h(
      'div',
      { class: 'field' },
      h(
        'p',
        null,
        `${labelText(name, property)}: this kind of field (${JSON.stringify(property.type)}) cannot be filled in here.`
      ),
      error
    ),
    read: () => undefined,
    setError: (message) => void (error.textContent = message ?? ''),
    focus: () => undefined
  };
}
