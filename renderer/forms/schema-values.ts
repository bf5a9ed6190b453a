import type { SchemaField, SchemaForm } from '../../app/contract/schema-fields.js';

/**
 * Who a schema form is for. `elicitation`: a person answers a server's question (MCP's flat
 * subset; the host checks the answer and its messages are the ones shown). `arguments`: a
 * tool's input, where anything the form cannot show is written as JSON and the form checks
 * what it can before sending.
 */
export type SchemaFormMode = 'elicitation' | 'arguments';

/** What a control holds: text (an input, a textarea, a select's option index), a checkbox, or checked option indexes. */
export type RawValue = string | boolean | string[];

/** The name of the one field that holds all the arguments as JSON (an opaque input schema). */
export const WHOLE_ARGUMENTS = '';

/** How a field is shown in a mode. */
export type FieldControlKind = 'input' | 'select' | 'checkbox' | 'checkboxes' | 'json' | 'unsupported';

/** The fields a form shows: the schema's, or for an opaque tool schema one JSON field for everything. */
export function formFields(form: SchemaForm, mode: SchemaFormMode): SchemaField[] {
  if (mode === 'arguments' && form.opaque)
    return [
      {
        name: WHOLE_ARGUMENTS,
        label: 'Arguments (JSON object)',
        description: 'This tool’s input cannot be shown as a form; write the arguments as a JSON object.',
        required: false,
        kind: 'other',
        type: 'object',
        format: undefined,
        choices: [],
        minimum: undefined,
        maximum: undefined,
        default: undefined,
        hasDefault: false
      }
    ];
  return form.fields;
}

/** The control a field gets. */
export function controlKind(field: SchemaField, mode: SchemaFormMode): FieldControlKind {
  switch (field.kind) {
    case 'text':
    case 'number':
    case 'integer':
      return 'input';
    case 'choice':
      return 'select';
    case 'boolean':
      // An optional tool argument may be left out: true, false or not set.
      return mode === 'arguments' && !field.required ? 'select' : 'checkbox';
    case 'multi-choice':
      return mode === 'elicitation' ? 'checkboxes' : 'json';
    case 'other':
      return mode === 'elicitation' ? 'unsupported' : 'json';
  }
}

/** The choices of a select: the schema's, or true and false for an optional boolean. */
export function selectChoices(field: SchemaField): SchemaField['choices'] {
  return field.kind === 'boolean'
    ? [
        { value: true, label: 'true' },
        { value: false, label: 'false' }
      ]
    : field.choices;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * A select option's value: an elicitation's own value as text (its values are strings), a
 * tool argument's index (its values may be of any JSON type).
 */
export function optionValue(choice: SchemaField['choices'][number], index: number, mode: SchemaFormMode): string {
  return mode === 'elicitation' ? String(choice.value) : String(index);
}

/** What each control starts with: the schema's defaults (SEP-1034), else empty. */
export function initialValues(fields: SchemaField[], mode: SchemaFormMode): Record<string, RawValue> {
  const values: Record<string, RawValue> = {};
  for (const field of fields) {
    const kind = controlKind(field, mode);
    const value = field.default;
    switch (kind) {
      case 'input':
        values[field.name] =
          field.hasDefault && (typeof value === 'string' || typeof value === 'number') && field.format !== 'date-time'
            ? String(value)
            : '';
        break;
      case 'select': {
        const choices = selectChoices(field);
        const index = field.hasDefault ? choices.findIndex((choice) => same(choice.value, value)) : -1;
        values[field.name] = index >= 0 ? optionValue(choices[index]!, index, mode) : '';
        break;
      }
      case 'checkbox':
        values[field.name] = value === true;
        break;
      case 'checkboxes': {
        const defaults = Array.isArray(value) ? value : [];
        values[field.name] = field.choices
          .map((choice, index) => (defaults.some((d) => same(d, choice.value)) ? String(index) : ''))
          .filter(Boolean);
        break;
      }
      case 'json':
        values[field.name] =
          value !== undefined ? JSON.stringify(value, null, 2) : field.name === WHOLE_ARGUMENTS ? '{}' : '';
        break;
      case 'unsupported':
        break;
    }
  }
  return values;
}

/** What one field read: a value (undefined leaves it out), or why it cannot be read. */
export type ReadResult = { ok: true; value: unknown } | { ok: false; message: string };

/** The input type of a text-like field. */
export function inputType(field: SchemaField, mode: SchemaFormMode): string {
  if (field.kind === 'number' || field.kind === 'integer') return 'number';
  if (field.format === 'email') return 'email';
  if (field.format === 'uri') return 'url';
  if (field.format === 'date') return 'date';
  if (field.format === 'date-time' && mode === 'elicitation') return 'datetime-local';
  return 'text';
}

/**
 * Reads one field. `badInput` is the browser's word that a number input holds text that is no
 * number (its value then reads as empty).
 */
export function readField(
  field: SchemaField,
  mode: SchemaFormMode,
  raw: RawValue | undefined,
  badInput: boolean
): ReadResult {
  const kind = controlKind(field, mode);
  const missing = (): ReadResult =>
    mode === 'arguments' && field.required ? { ok: false, message: 'Required' } : { ok: true, value: undefined };
  switch (kind) {
    case 'checkbox':
      return { ok: true, value: raw === true };
    case 'checkboxes': {
      const chosen = (Array.isArray(raw) ? raw : []).map((index) => field.choices[Number(index)]?.value);
      return { ok: true, value: chosen.length > 0 ? chosen : undefined };
    }
    case 'select': {
      if (typeof raw !== 'string' || raw === '') return missing();
      const choices = selectChoices(field);
      return { ok: true, value: choices.find((choice, index) => optionValue(choice, index, mode) === raw)?.value };
    }
    case 'unsupported':
      return { ok: true, value: undefined };
    case 'json': {
      const text = typeof raw === 'string' ? raw : '';
      const whole = field.name === WHOLE_ARGUMENTS;
      if (!text.trim()) return whole ? { ok: true, value: {} } : missing();
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (thrown) {
        return { ok: false, message: `Not valid JSON: ${thrown instanceof Error ? thrown.message : String(thrown)}` };
      }
      if (whole && (typeof value !== 'object' || value === null || Array.isArray(value)))
        return { ok: false, message: 'Must be a JSON object' };
      return { ok: true, value };
    }
    case 'input': {
      const numeric = field.kind === 'number' || field.kind === 'integer';
      const text = typeof raw === 'string' ? raw : '';
      if (mode === 'elicitation') {
        const trimmed = text.trim();
        if (trimmed === '') return { ok: true, value: undefined };
        if (numeric) return { ok: true, value: Number(trimmed) };
        // datetime-local has no zone; the schema's date-time wants an absolute instant.
        if (inputType(field, mode) === 'datetime-local') return { ok: true, value: new Date(trimmed).toISOString() };
        return { ok: true, value: trimmed };
      }
      const value = numeric ? text.trim() : text;
      if (value === '' && !(numeric && badInput)) return missing();
      if (!numeric) return { ok: true, value };
      const number = Number(value);
      if (value === '' || !Number.isFinite(number)) return { ok: false, message: 'Must be a number' };
      if (field.kind === 'integer' && !Number.isInteger(number))
        return { ok: false, message: 'Must be a whole number' };
      return { ok: true, value: number };
    }
  }
}
