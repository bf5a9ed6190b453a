import { h, uid } from '../dom.js';

/** What a control read: a value (undefined leaves the argument out), or why it cannot be read. */
export type ReadResult = { ok: true; value: unknown } | { ok: false; message: string };

/** One input of a tool call form, built from one property of the tool's `inputSchema`. */
export interface ArgumentControl {
  /** The argument's name; '' for the whole-arguments JSON fallback. */
  readonly name: string;
  readonly element: HTMLElement;
  read(): ReadResult;
  setError(message: string | undefined): void;
  focus(): void;
}

type Schema = Record<string, unknown>;

/**
 * Builds the inputs of a tool call form from its `inputSchema`.
 *
 * Strings (with formats), numbers, integers, booleans and enums get their own inputs; any
 * other property (objects, arrays, unions) is a JSON text field. A schema that is not a plain
 * object of properties (`anyOf` at the top, `additionalProperties` only) gets one JSON field
 * for all the arguments. The host validates the arguments against the schema in any case.
 */
export function buildArgumentControls(schema: Schema): ArgumentControl[] {
  const properties = schema.properties;
  const hasProperties = typeof properties === 'object' && properties !== null && Object.keys(properties).length > 0;
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === 'string') : []
  );
  const controls = hasProperties
    ? Object.entries(properties as Record<string, Schema>).map(([name, property]) =>
        buildControl(name, property ?? {}, required.has(name))
      )
    : [];
  const open = schema.additionalProperties !== undefined && schema.additionalProperties !== false;
  const composite = ['anyOf', 'oneOf', 'allOf', '$ref', 'patternProperties'].some((key) => key in schema);
  if (!hasProperties && (open || composite))
    controls.push(
      jsonControl(
        '',
        {
          title: 'Arguments (JSON object)',
          description: 'This tool’s input cannot be shown as a form; write the arguments as a JSON object.'
        },
        false,
        true
      )
    );
  return controls;
}

/** The property's type, ignoring `null` in a type list. */
function typeOf(property: Schema): string | undefined {
  const type = property.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) {
    const types = type.filter((t) => t !== 'null');
    return types.length === 1 && typeof types[0] === 'string' ? types[0] : undefined;
  }
  return undefined;
}

/** Allowed values with labels: `enum`, `const`, or `oneOf`/`anyOf` of consts. */
function choicesOf(property: Schema): Array<{ value: unknown; label: string }> | undefined {
  if (Array.isArray(property.enum))
    return property.enum.map((value) => ({ value, label: typeof value === 'string' ? value : JSON.stringify(value) }));
  if ('const' in property) return [{ value: property.const, label: String(property.const) }];
  const options = (property.oneOf ?? property.anyOf) as Schema[] | undefined;
  if (
    Array.isArray(options) &&
    options.length > 0 &&
    options.every((option) => option && typeof option === 'object' && 'const' in option)
  ) {
    return options.map((option) => ({
      value: option.const,
      label: typeof option.title === 'string' ? option.title : String(option.const)
    }));
  }
  return undefined;
}

function buildControl(name: string, property: Schema, required: boolean): ArgumentControl {
  const choices = choicesOf(property);
  if (choices) return selectControl(name, property, required, choices);
  switch (typeOf(property)) {
    case 'string':
    case 'number':
    case 'integer':
      return inputControl(name, property, required);
    case 'boolean':
      return required
        ? checkboxControl(name, property)
        : selectControl(name, property, false, [
            { value: true, label: 'true' },
            { value: false, label: 'false' }
          ]);
    default:
      return jsonControl(name, property, required, false);
  }
}

/** Label, type and description, and an error slot, wired to the control by id. */
function frame(name: string, property: Schema, required: boolean, typeLabel: string | undefined) {
  const id = uid(`arg-${name.replace(/[^A-Za-z0-9_-]/g, '_') || 'json'}`);
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const title = typeof property.title === 'string' && property.title.trim() ? property.title : name;
  const description = typeof property.description === 'string' && property.description ? property.description : '';
  const hint =
    description || typeLabel
      ? h(
          'p',
          { class: 'field-hint', id: hintId },
          description ? h('span', null, description) : null,
          typeLabel ? h('span', { class: 'type-tag' }, typeLabel) : null
        )
      : null;
  const error = h('p', { class: 'field-error', id: errorId, hidden: true });
  const label = h(
    'label',
    { for: id },
    title,
    required ? h('span', { class: 'required', 'aria-hidden': 'true' }, ' *') : null
  );
  const describedBy = (withError: boolean) => [hint ? hintId : '', withError ? errorId : ''].filter(Boolean).join(' ');
  const setError = (target: HTMLElement, message: string | undefined) => {
    error.textContent = message ?? '';
    error.hidden = !message;
    if (message) target.setAttribute('aria-invalid', 'true');
    else target.removeAttribute('aria-invalid');
    const ids = describedBy(!!message);
    if (ids) target.setAttribute('aria-describedby', ids);
    else target.removeAttribute('aria-describedby');
  };
  return { id, label, hint, error, describedBy, setError };
}

function inputControl(name: string, property: Schema, required: boolean): ArgumentControl {
  const kind = typeOf(property)!;
  const numeric = kind === 'number' || kind === 'integer';
  const format = property.format;
  const type = numeric
    ? 'number'
    : format === 'email'
      ? 'email'
      : format === 'uri'
        ? 'url'
        : format === 'date'
          ? 'date'
          : 'text';
  const { id, label, hint, error, describedBy, setError } = frame(
    name,
    property,
    required,
    format ? `${kind}, ${String(format)}` : kind
  );
  const input = h('input', {
    id,
    name,
    type,
    'aria-required': required ? 'true' : undefined,
    'aria-describedby': describedBy(false) || undefined,
    autocomplete: 'off',
    spellcheck: 'false',
    step: numeric ? (kind === 'integer' ? '1' : 'any') : undefined,
    min: typeof property.minimum === 'number' ? property.minimum : undefined,
    max: typeof property.maximum === 'number' ? property.maximum : undefined,
    value:
      property.default !== undefined && (typeof property.default === 'string' || typeof property.default === 'number')
        ? String(property.default)
        : undefined
  });
  return {
    name,
    element: h('div', { class: 'field' }, label, hint, input, error),
    read() {
      const raw = numeric ? input.value.trim() : input.value;
      if (raw === '' && !(numeric && input.validity.badInput))
        return required ? { ok: false, message: 'Required' } : { ok: true, value: undefined };
      if (!numeric) return { ok: true, value: raw };
      const value = Number(raw);
      if (raw === '' || !Number.isFinite(value)) return { ok: false, message: 'Must be a number' };
      if (kind === 'integer' && !Number.isInteger(value)) return { ok: false, message: 'Must be a whole number' };
      return { ok: true, value };
    },
    setError: (message) => setError(input, message),
    focus: () => input.focus()
  };
}

function selectControl(
  name: string,
  property: Schema,
  required: boolean,
  choices: Array<{ value: unknown; label: string }>
): ArgumentControl {
  const { id, label, hint, error, describedBy, setError } = frame(name, property, required, typeOf(property));
  const defaultIndex =
    'default' in property
      ? choices.findIndex((choice) => JSON.stringify(choice.value) === JSON.stringify(property.default))
      : -1;
  const select = h(
    'select',
    { id, name, 'aria-required': required ? 'true' : undefined, 'aria-describedby': describedBy(false) || undefined },
    h('option', { value: '' }, required ? 'Choose…' : '(not set)'),
    choices.map((choice, index) =>
      h('option', { value: String(index), selected: index === defaultIndex }, choice.label)
    )
  );
  return {
    name,
    element: h('div', { class: 'field' }, label, hint, select, error),
    read() {
      if (select.value === '') return required ? { ok: false, message: 'Required' } : { ok: true, value: undefined };
      return { ok: true, value: choices[Number(select.value)]!.value };
    },
    setError: (message) => setError(select, message),
    focus: () => select.focus()
  };
}

function checkboxControl(name: string, property: Schema): ArgumentControl {
  const { id, label, hint, error, describedBy, setError } = frame(name, property, false, undefined);
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
      hint,
      error
    ),
    read: () => ({ ok: true, value: input.checked }),
    setError: (message) => setError(input, message),
    focus: () => input.focus()
  };
}

/** A JSON text field: for a property the form cannot show, or (name '') for all the arguments. */
function jsonControl(name: string, property: Schema, required: boolean, whole: boolean): ArgumentControl {
  const kind = typeOf(property);
  const { id, label, hint, error, describedBy, setError } = frame(
    name,
    property,
    required,
    whole ? undefined : `${kind ?? 'any'}, as JSON`
  );
  const initial = property.default !== undefined ? JSON.stringify(property.default, null, 2) : whole ? '{}' : '';
  const input = h('textarea', {
    id,
    name: name || 'arguments',
    rows: whole ? 6 : 3,
    class: 'json',
    spellcheck: 'false',
    'aria-required': required ? 'true' : undefined,
    'aria-describedby': describedBy(false) || undefined,
    value: initial
  });
  return {
    name,
    element: h('div', { class: 'field' }, label, hint, input, error),
    read() {
      if (!input.value.trim())
        return required ? { ok: false, message: 'Required' } : { ok: true, value: whole ? {} : undefined };
      let value: unknown;
      try {
        value = JSON.parse(input.value);
      } catch (thrown) {
        return { ok: false, message: `Not valid JSON: ${thrown instanceof Error ? thrown.message : String(thrown)}` };
      }
      if (whole && (typeof value !== 'object' || value === null || Array.isArray(value)))
        return { ok: false, message: 'Must be a JSON object' };
      return { ok: true, value };
    },
    setError: (message) => setError(input, message),
    focus: () => input.focus()
  };
}
