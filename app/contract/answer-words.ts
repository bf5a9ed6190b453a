/* Imports nothing: the Desk (History's and the Tasks screen's detail) and the core (History's
   search, which finds an answer by the words its detail shows) say an answer alike. */
import { schemaChoicesOf } from './schema-fields.js';

/** A value as text: a string as it is, a number or boolean as written, anything else as JSON. */
function asText(value: unknown, fallback: string): string {
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** One answered field of a form: its title (the requested schema's, else its name) and value in words. */
export interface AnswerField {
  name: string;
  title: string;
  value: string;
}

/** An elicitation's action in words. */
export function answerActionWords(action: unknown): string {
  switch (action) {
    case 'accept':
      return 'Accepted';
    case 'decline':
      return 'Declined';
    case 'cancel':
      return 'Dismissed without an answer';
    default:
      return asText(action, 'Answered');
  }
}

/** A value as a person reads it: Yes or No, a list joined by commas, an option's title when the schema names one. */
function valueWords(value: unknown, property: Record<string, unknown> | undefined): string[] {
  if (typeof value === 'boolean') return [value ? 'Yes' : 'No'];
  const titled = optionTitles(property);
  if (Array.isArray(value)) return value.map((one) => titled.get(asText(one, '')) ?? asText(one, ''));
  // A string's or a number's option (`enum: [1, 2, 3]` titled "One", "Two", "Three").
  if (typeof value === 'string' || typeof value === 'number') return [titled.get(String(value)) ?? String(value)];
  return [asText(value, '')];
}

/**
 * The titles a schema gives its options (`oneOf` / `anyOf` of `{ const, title }`, or `enum` with
 * `enumNames`: `schemaChoicesOf`, as the forms read them), on itself or its `items`, by value as text.
 */
function optionTitles(property: Record<string, unknown> | undefined): Map<string, string> {
  const titles = new Map<string, string>();
  if (!property) return titles;
  const items = typeof property.items === 'object' && property.items !== null ? property.items : undefined;
  for (const source of [property, items]) {
    if (!source) continue;
    for (const choice of schemaChoicesOf(source as Record<string, unknown>) ?? [])
      titles.set(asText(choice.value, ''), choice.label);
  }
  return titles;
}

/** A field a form asks for, in words: its title, what kind of value it takes, and whether it must be given. */
export interface AskedField {
  name: string;
  title: string;
  /** "text", "whole number", "yes or no", "one of: PDF, Web page"… */
  kind: string;
  required: boolean;
}

function kindWords(property: Record<string, unknown>): string {
  const titled = optionTitles(property);
  const options = Array.isArray(property.enum)
    ? (property.enum as unknown[]).map((one) => asText(one, ''))
    : [...titled.keys()];
  if (options.length > 0) {
    const words = options.map((one) => titled.get(one) ?? one).join(', ');
    return property.type === 'array' ? `any of: ${words}` : `one of: ${words}`;
  }
  const items = property.items as Record<string, unknown> | undefined;
  if (property.type === 'array' && items && typeof items === 'object')
    return `any of: ${kindWords(items).replace(/^(one|any) of: /, '')}`;
  switch (property.type) {
    case 'boolean':
      return 'yes or no';
    case 'integer':
      return 'whole number';
    case 'number':
      return 'number';
    case 'string':
      return typeof property.format === 'string' ? `text (${property.format})` : 'text';
    default:
      return asText(property.type, 'any value');
  }
}

/** The fields a form's requested schema asks for, in its order, each in words. */
export function askedFields(requestedSchema: unknown): AskedField[] {
  const schema = (requestedSchema ?? {}) as { properties?: unknown; required?: unknown };
  if (typeof schema.properties !== 'object' || schema.properties === null) return [];
  const required = Array.isArray(schema.required) ? schema.required : [];
  return Object.entries(schema.properties as Record<string, unknown>).map(([name, value]) => {
    const property = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
    const title = typeof property.title === 'string' && property.title.trim() !== '' ? property.title : name;
    return { name, title, kind: kindWords(property), required: required.includes(name) };
  });
}

/**
 * The fields of a form's answer (`content`), in the order the requested schema lists them (then
 * any others), each with the schema's title for it and its value in words.
 */
export function answerFields(content: unknown, requestedSchema: unknown): AnswerField[] {
  return answerWordLists(content, requestedSchema).map(({ name, title, values }) => ({
    name,
    title,
    value: values.join(', ')
  }));
}

/** {@link answerFields} with each value in words apart (a list's items), as a search reads them. */
export function answerWordLists(
  content: unknown,
  requestedSchema: unknown
): Array<{ name: string; title: string; values: string[] }> {
  if (typeof content !== 'object' || content === null || Array.isArray(content)) return [];
  const values = content as Record<string, unknown>;
  const properties = ((requestedSchema as { properties?: unknown } | undefined)?.properties ?? {}) as Record<
    string,
    Record<string, unknown> | undefined
  >;
  const listed = typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
  const names = [
    ...listed.filter((name) => Object.hasOwn(values, name)),
    ...Object.keys(values).filter((name) => !listed.includes(name))
  ];
  return names.map((name) => {
    const property = listed.includes(name) ? properties[name] : undefined;
    const title = typeof property?.title === 'string' && property.title.trim() !== '' ? property.title : name;
    return { name, title, values: valueWords(values[name], property) };
  });
}
