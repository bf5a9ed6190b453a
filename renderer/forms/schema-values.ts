import type { SchemaField, SchemaForm } from '../../app/contract/schema-fields.js';

/**
 * Who a schema form is for. `elicitation`: a person answers a server's question (MCP's flat
 * subset; the host checks the answer and its messages are the ones shown). `arguments`: a
 * tool's input, where anything the form cannot show is written as JSON and the form checks
 * what it can before sending.
 */
export type SchemaFormMode = 'elicitation' | 'arguments';

/**
 * What a control holds: text (an input, a textarea, a select's option index), a checkbox, or
 * checked option indexes; a list holds its entries' values, an object its fields' by name.
 */
export type RawValue = string | boolean | RawValue[] | RawObject;

/** What an object field's controls hold, by field name. */
export interface RawObject {
  [name: string]: RawValue;
}

/** The name of the one field that holds all the arguments as JSON (an opaque input schema). */
export const WHOLE_ARGUMENTS = '';

/** How a field is shown in a mode. */
export type FieldControlKind =
  'input' | 'select' | 'checkbox' | 'checkboxes' | 'object' | 'list' | 'map' | 'json' | 'unsupported';

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
      // An optional tool argument may be left out: true, false or not set. So may an optional
      // answer to a question with no default: an unticked box would say "No" for a person who
      // never answered it, so it is Yes, No or (none), and (none) leaves it out.
      return !field.required && (mode === 'arguments' || !field.hasDefault) ? 'select' : 'checkbox';
    case 'multi-choice':
      return 'checkboxes';
    // MCP's elicitation schemas are flat: nested values are tool arguments' only.
    case 'object':
    case 'list':
    case 'map':
      return mode === 'elicitation' ? 'unsupported' : field.kind;
    case 'other':
      return mode === 'elicitation' ? 'unsupported' : 'json';
  }
}

/** The choices of a select: the schema's, or true and false for an optional boolean (Yes and No to a question). */
export function selectChoices(field: SchemaField, mode: SchemaFormMode): SchemaField['choices'] {
  return field.kind === 'boolean'
    ? [
        { value: true, label: mode === 'elicitation' ? 'Yes' : 'true' },
        { value: false, label: mode === 'elicitation' ? 'No' : 'false' }
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

/**
 * What each control starts with: the schema's defaults (SEP-1034), else empty. An optional
 * tool argument's select starts on its empty choice, which says the default ("(not set: false
 * by default)"): the argument is left out, for the server to apply its default, unless chosen.
 */
export function initialValues(fields: SchemaField[], mode: SchemaFormMode): Record<string, RawValue> {
  const values: Record<string, RawValue> = {};
  for (const field of fields) {
    const value = initialValue(field, mode);
    if (value !== undefined) values[field.name] = value;
  }
  return values;
}

/** The field with `value` as its default. */
function withDefault(field: SchemaField, value: unknown, hasDefault: boolean): SchemaField {
  return { ...field, default: value, hasDefault };
}

/** What one field's controls start with: its default, else empty; nothing for an unsupported field. */
export function initialValue(field: SchemaField, mode: SchemaFormMode): RawValue | undefined {
  return controlValue(field, mode, false);
}

/**
 * What one field's controls hold. `given`: the field's default is a value to show (a call's
 * argument, or what an object's or a list's own default gives its part), not the schema's own.
 */
function controlValue(field: SchemaField, mode: SchemaFormMode, given: boolean): RawValue | undefined {
  const value = field.default;
  switch (controlKind(field, mode)) {
    case 'input':
      if (!field.hasDefault || (typeof value !== 'string' && typeof value !== 'number')) return '';
      // A question's date and time is a datetime-local control: its default, an instant, as local time there.
      if (field.format === 'date-time')
        return mode === 'elicitation' && typeof value === 'string' ? localDateTime(value) : '';
      return String(value);
    case 'select': {
      const choices = selectChoices(field, mode);
      const shown = field.hasDefault && (given || field.required || mode === 'elicitation');
      const index = shown ? choices.findIndex((choice) => same(choice.value, value)) : -1;
      return index >= 0 ? optionValue(choices[index]!, index, mode) : '';
    }
    case 'checkbox':
      return value === true;
    case 'checkboxes': {
      const defaults = Array.isArray(value) ? value : [];
      return field.choices
        .map((choice, index) => (defaults.some((d) => same(d, choice.value)) ? String(index) : ''))
        .filter(Boolean);
    }
    case 'object': {
      // The object's own default gives its fields theirs; a field it leaves out keeps its own.
      const own =
        field.hasDefault && typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
      const raw: RawObject = {};
      for (const child of field.fields ?? []) {
        const start = Object.hasOwn(own, child.name)
          ? controlValue(withDefault(child, own[child.name], true), mode, true)
          : controlValue(child, mode, given);
        if (start !== undefined) raw[child.name] = start;
      }
      return raw;
    }
    case 'list':
      return (Array.isArray(value) ? value : []).map(
        (entry) => controlValue(withDefault(field.item!, entry, true), mode, true) ?? ''
      );
    case 'map':
      return Object.entries(typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {}).map(
        ([name, entry]): RawObject => ({ name, value: typeof entry === 'string' ? entry : JSON.stringify(entry) })
      );
    case 'json':
      return value !== undefined ? JSON.stringify(value, null, 2) : field.name === WHOLE_ARGUMENTS ? '{}' : '';
    case 'unsupported':
      return undefined;
  }
}

/** An instant (`2026-12-05T09:30:00Z`) as a datetime-local control holds it, in local time; empty when it is no date. */
function localDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const two = (n: number) => String(n).padStart(2, '0');
  const day = `${String(date.getFullYear()).padStart(4, '0')}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;
  const ms = date.getMilliseconds();
  const time = `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}${ms ? `.${String(ms).padStart(3, '0')}` : ''}`;
  return `${day}T${time}`;
}

/** A new entry of a list: the item schema's default, else empty. */
export function newItem(field: SchemaField, mode: SchemaFormMode): RawValue {
  return initialValue(field.item!, mode) ?? '';
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
      // An elicitation's counts are the host's to check; a tool argument's are checked here.
      if (mode === 'elicitation') return { ok: true, value: chosen.length > 0 ? chosen : undefined };
      if (chosen.length === 0 && !field.required) return { ok: true, value: undefined };
      const count = countProblem(field, chosen.length, 'Choose');
      return count ? { ok: false, message: count } : { ok: true, value: chosen };
    }
    case 'object':
    case 'list':
    case 'map':
      throw new Error(`readField reads one control; read a ${kind} with readTree`);
    case 'select': {
      if (typeof raw !== 'string' || raw === '') return missing();
      const choices = selectChoices(field, mode);
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
      if (field.minimum !== undefined && number < field.minimum)
        return { ok: false, message: `Must be ${field.minimum} or more` };
      if (field.maximum !== undefined && number > field.maximum)
        return { ok: false, message: `Must be ${field.maximum} or less` };
      return { ok: true, value: number };
    }
  }
}

/** Why a list or a set of choices has too few or too many entries, or `undefined` when it has not. */
function countProblem(field: SchemaField, count: number, words: 'Choose' | 'Items'): string | undefined {
  const say = (bound: string, n: number) =>
    words === 'Choose'
      ? `Choose ${bound} ${n}`
      : `${bound === 'at least' ? 'At least' : 'At most'} ${n} ${n === 1 ? 'item' : 'items'}`;
  if (field.minItems !== undefined && count < field.minItems) return say('at least', field.minItems);
  if (field.maxItems !== undefined && count > field.maxItems) return say('at most', field.maxItems);
  return undefined;
}

/** The key of a part of a field, in a form's errors and controls: `edits.0.oldText`. */
export function partPath(path: string, part: string | number): string {
  return `${path}.${part}`;
}

/** Whether `key` is `path` or one of its parts. */
export function isWithin(key: string, path: string): boolean {
  return key === path || key.startsWith(`${path}.`);
}

/** Nothing typed, chosen or added. */
function isBlank(raw: RawValue | undefined): boolean {
  if (raw === undefined || raw === '' || raw === false) return true;
  if (Array.isArray(raw)) return raw.length === 0;
  return typeof raw === 'object' && Object.values(raw).every(isBlank);
}

/** What a field and its parts read: the value (undefined leaves it out) and each part's message by path. */
export interface TreeRead {
  value: unknown;
  problems: Record<string, string>;
}

/**
 * Reads a field with its parts (an object's fields, a list's entries), each at its own path
 * (`path` is the field's). `badInput` tells, by path, that a number input holds no number.
 */
export function readTree(
  field: SchemaField,
  mode: SchemaFormMode,
  raw: RawValue | undefined,
  path: string,
  badInput: (path: string) => boolean
): TreeRead {
  const kind = controlKind(field, mode);
  if (kind === 'object') {
    // An optional object left as it came (its defaults are what the server does without it) or
    // emptied is left out: its required fields are asked for only once one of its fields is set.
    if (!field.required && (isBlank(raw) || same(raw, initialValue(field, mode))))
      return { value: undefined, problems: {} };
    const values = typeof raw === 'object' && !Array.isArray(raw) ? raw : {};
    const out: Record<string, unknown> = {};
    const problems: Record<string, string> = {};
    for (const child of field.fields ?? []) {
      const read = readTree(child, mode, values[child.name], partPath(path, child.name), badInput);
      Object.assign(problems, read.problems);
      if (read.value !== undefined) out[child.name] = read.value;
    }
    return { value: out, problems };
  }
  if (kind === 'map') {
    // Each entry is read as a {name, value} object, then gathered into one object. An entry with
    // neither is an Add too many, left out; a name with no value is asked about, not sent as ""
    // unseen (an empty value is seldom what was meant, and Remove says it plainly).
    const entries = Array.isArray(raw) ? raw : [];
    const out: Record<string, string> = {};
    const problems: Record<string, string> = {};
    const firstAt = new Map<string, number>();
    entries.forEach((entry, index) => {
      if (isBlank(entry)) return;
      const entryPath = partPath(path, index);
      const read = readTree(field.item!, mode, entry, entryPath, badInput);
      Object.assign(problems, read.problems);
      const { name, value } = read.value as { name?: string; value?: string };
      if (value === undefined) problems[partPath(entryPath, 'value')] ??= 'Enter a value or remove this entry';
      if (name === undefined) return;
      const first = firstAt.get(name);
      if (first !== undefined) problems[partPath(entryPath, 'name')] ??= `Same name as entry ${first + 1}`;
      else {
        firstAt.set(name, index);
        if (value !== undefined) out[name] = value;
      }
    });
    return { value: firstAt.size === 0 && !field.required ? undefined : out, problems };
  }
  if (kind === 'list') {
    const entries = Array.isArray(raw) ? raw : [];
    if (entries.length === 0 && !field.required) return { value: undefined, problems: {} };
    const problems: Record<string, string> = {};
    const out = entries.map((entry, index) => {
      const read = readTree(field.item!, mode, entry, partPath(path, index), badInput);
      Object.assign(problems, read.problems);
      return read.value;
    });
    const count = countProblem(field, entries.length, 'Items');
    if (count) problems[path] = count;
    return { value: out, problems };
  }
  const read = readField(field, mode, raw, badInput(path));
  return read.ok ? { value: read.value, problems: {} } : { value: undefined, problems: { [path]: read.message } };
}

/** A list's entries said plainly, by what each entry is: "text", "whole numbers", "dates". */
function entriesWord(item: SchemaField | undefined): string | undefined {
  if (!item) return undefined;
  if (item.kind === 'integer') return 'whole numbers';
  if (item.kind === 'number') return 'numbers';
  if (item.kind === 'boolean') return 'true or false';
  if (item.kind !== 'text') return undefined;
  switch (item.format) {
    case 'date':
      return 'dates';
    case 'date-time':
      return 'dates and times';
    case 'email':
      return 'email addresses';
    case 'uri':
      return 'URLs';
    default:
      return 'text';
  }
}

/** What a string's `format` asks for, in a word; unknown formats by their own name. */
function formatWord(format: string): string {
  switch (format) {
    case 'date-time':
      return 'date and time';
    case 'uri':
      return 'URL';
    default:
      return format;
  }
}

/** A number's bounds: "1 to 100", "at least 0", "at most 10"; undefined when it has none. */
function rangeWords(field: SchemaField): string | undefined {
  // zod's int() writes the safe-integer limits as bounds: no limit a person would care about.
  const min = field.minimum !== undefined && field.minimum > Number.MIN_SAFE_INTEGER ? field.minimum : undefined;
  const max = field.maximum !== undefined && field.maximum < Number.MAX_SAFE_INTEGER ? field.maximum : undefined;
  if (min !== undefined && max !== undefined) return `${min} to ${max}`;
  if (min !== undefined) return `at least ${min}`;
  if (max !== undefined) return `at most ${max}`;
  return undefined;
}

/**
 * What a tool argument takes, in a few plain words beside its label: "whole number, 1 to 100",
 * "date", "list of text, may be empty" (no brackets: the hint is read in brackets after the
 * description already). Undefined where the control says it already (text, a
 * checkbox, a choice, a true/false select, a group of fields).
 */
export function typeHint(field: SchemaField, mode: SchemaFormMode): string | undefined {
  if (mode !== 'arguments' || field.name === WHOLE_ARGUMENTS) return undefined;
  // A required list or map with no minimum count is sent empty when nothing is added: the star alone would say otherwise.
  const mayBeEmpty = field.required && !(field.minItems !== undefined && field.minItems > 0) ? ', may be empty' : '';
  switch (controlKind(field, mode)) {
    case 'json':
      return field.type === 'object' ? 'JSON object' : field.type === 'array' ? 'JSON list' : 'JSON';
    case 'list': {
      const of = entriesWord(field.item);
      return `${of ? `list of ${of}` : 'list'}${mayBeEmpty}`;
    }
    case 'map':
      return mayBeEmpty ? 'may be empty' : undefined;
    case 'input': {
      if (field.kind === 'text') return field.format ? formatWord(field.format) : undefined;
      const range = rangeWords(field);
      const noun = field.kind === 'integer' ? 'whole number' : 'number';
      return range ? `${noun}, ${range}` : noun;
    }
    default:
      return undefined;
  }
}

/** How long a default said in a hint may be before it is cut ("…"): a hint is a line or two, not a document. */
const DEFAULT_WORDS_CHARS = 80;

/**
 * A tool argument's schema default in a few words, for a person to see what leaving it empty
 * means: "10", "false", a choice's label, a text as it is ("(empty text)" when it is ""), other
 * values as JSON. Undefined when the field has no default.
 */
export function defaultWords(field: SchemaField): string | undefined {
  if (!field.hasDefault || field.default === undefined) return undefined;
  const value = field.default;
  const choice = field.choices.find((candidate) => same(candidate.value, value));
  let words: string;
  if (choice) words = choice.label;
  else if (typeof value === 'string') words = value === '' ? '(empty text)' : value;
  else if (typeof value === 'number' || typeof value === 'boolean') words = String(value);
  else words = JSON.stringify(value);
  return words.length > DEFAULT_WORDS_CHARS ? `${words.slice(0, DEFAULT_WORDS_CHARS - 1)}…` : words;
}

/**
 * What a tool argument form says of a field's default, or undefined when it says nothing: a
 * select says it in its empty choice ("(not set: false by default)"), every other control in its
 * hint ("Default: 10"), and that only while the control (`raw`, what it holds now) does not show
 * the default itself. A fresh form is filled with its defaults, so the hint would repeat what the
 * control shows; it is said once the person changes or empties the control (an empty one leaves
 * the argument out, for the server to apply its own default), in a form filled again from a call
 * that left the argument out, and where the control cannot show the default at all.
 */
export function defaultHint(field: SchemaField, mode: SchemaFormMode, raw: RawValue | undefined): string | undefined {
  if (mode !== 'arguments' || field.name === WHOLE_ARGUMENTS) return undefined;
  const kind = controlKind(field, mode);
  // A select says it in its empty choice; a checkbox (a required boolean) is always sent as it stands.
  if (kind === 'select' || kind === 'checkbox' || kind === 'unsupported') return undefined;
  const words = defaultWords(field);
  if (words === undefined || holdsDefault(field, mode, raw)) return undefined;
  return `Default: ${words}`;
}

/**
 * Whether a control holding `raw` shows its field's default: it holds what the default fills it
 * with, and that differs from an empty control (an empty text, a date and time a tool's text box
 * is not filled with, look the same as no default: only the hint tells them apart).
 */
function holdsDefault(field: SchemaField, mode: SchemaFormMode, raw: RawValue | undefined): boolean {
  const filled = initialValue(field, mode);
  return raw !== undefined && same(raw, filled) && !same(filled, initialValue(withoutDefaults(field), mode));
}

/** The label of a select's empty choice: what choosing it means. */
export function emptyChoiceLabel(field: SchemaField, mode: SchemaFormMode): string {
  if (field.required) return 'Choose…';
  if (mode === 'elicitation') return '(none)';
  const words = defaultWords(field);
  return words === undefined ? '(not set)' : `(not set: ${words} by default)`;
}

/** The field at a message key (`filters.since`, `edits.0.oldText`), or undefined when the schema has none there. */
export function fieldAt(fields: SchemaField[], key: string): SchemaField | undefined {
  const [name = '', ...rest] = key.split('.');
  let field = fields.find((candidate) => candidate.name === name);
  for (const part of rest) {
    if (!field) return undefined;
    if ((field.kind === 'list' || field.kind === 'map') && /^\d+$/.test(part)) field = field.item;
    else if (field.kind === 'object') field = field.fields?.find((f) => f.name === part);
    else return undefined;
  }
  return field;
}

/** The field with no defaults, nor any in its parts: a control then holds only what it is given. */
function withoutDefaults(field: SchemaField): SchemaField {
  return {
    ...field,
    default: undefined,
    hasDefault: false,
    ...(field.fields && { fields: field.fields.map(withoutDefaults) }),
    ...(field.item && { item: withoutDefaults(field.item) })
  };
}

/** Whether two JSON values are equal, whatever the order of their keys. */
function sameJson(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return Object.is(a, b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const aKeys = Object.keys(a);
  const bRecord = b as Record<string, unknown>;
  return (
    aKeys.length === Object.keys(b).length &&
    aKeys.every((key) => Object.hasOwn(b, key) && sameJson((a as Record<string, unknown>)[key], bRecord[key]))
  );
}

/**
 * What each control of a tool argument form holds to show `args` (a call's arguments as they
 * stand), or `undefined` when the form cannot show them as they are: a key the schema does not
 * declare, a value of another type than its field's, an opaque schema. The test is a read back:
 * the form, untouched, must send exactly `args`, so that opening it changes nothing.
 */
export function argumentValues(
  fields: SchemaField[],
  args: Record<string, unknown>
): Record<string, RawValue> | undefined {
  const mode = 'arguments';
  const values: Record<string, RawValue> = {};
  const read: Record<string, unknown> = {};
  for (const field of fields) {
    if (field.name === WHOLE_ARGUMENTS) return undefined;
    // An argument left out stays out: the schema's defaults are the server's to apply, not the form's.
    const given = Object.hasOwn(args, field.name);
    const raw = controlValue(
      withDefault(withoutDefaults(field), given ? args[field.name] : undefined, given),
      mode,
      given
    );
    if (raw === undefined) return undefined;
    values[field.name] = raw;
    const back = readTree(field, mode, raw, field.name, () => false);
    if (back.value !== undefined) read[field.name] = back.value;
  }
  return sameJson(read, args) ? values : undefined;
}
