import { readSchemaForm, type SchemaField } from './schema-fields.js';

/**
 * Imports nothing but the forms' schema reader, so the Desk checks a form's fields as they
 * change with the very rules the core checks the answer with (`Inbox.answer`).
 *
 * Checks elicitation content against its `requestedSchema` (spec 2025-11-25: a flat object of
 * primitive properties: string with length, format and enum; number and integer with bounds;
 * boolean; and arrays of enum values for multi-select).
 *
 * Returns one message per field that is wrong, keyed by field name, so a form can show each
 * next to its input. An empty object means the content is valid.
 */
export function validateElicitationContent(schema: unknown, content: unknown): Record<string, string> {
  if (typeof content !== 'object' || content === null || Array.isArray(content)) {
    return { '': 'Content must be an object of field values' };
  }
  const values = content as Record<string, unknown>;
  // The fields as the Desk's forms read them (one schema reader for both): own properties only,
  // so a field named `constructor` or `__proto__` is a field like any other.
  const form = readSchemaForm(schema);
  const fields = new Map(form.fields.map((field) => [field.name, field]));
  const raw = rawProperties(schema);
  const errors = new Map<string, string>();
  for (const name of Object.keys(values)) {
    if (!fields.has(name)) errors.set(name, 'Not a field of this form');
  }
  for (const field of form.fields) {
    const value = Object.hasOwn(values, field.name) ? values[field.name] : undefined;
    if (value === undefined || value === null || value === '') {
      if (field.required) errors.set(field.name, 'Required');
      continue;
    }
    const property = Object.hasOwn(raw, field.name) ? raw[field.name]! : {};
    const problem = checkValue(field, property, value);
    if (problem) errors.set(field.name, problem);
  }
  // Built with own data properties: an error for a field named `__proto__` stays an error.
  return Object.fromEntries(errors);
}

function rawProperties(schema: unknown): Record<string, Record<string, unknown>> {
  const properties = (schema as { properties?: unknown } | null)?.properties;
  return typeof properties === 'object' && properties !== null && !Array.isArray(properties)
    ? (properties as Record<string, Record<string, unknown>>)
    : {};
}

function checkValue(field: SchemaField, property: Record<string, unknown>, value: unknown): string | undefined {
  const allowed = field.kind === 'choice' ? field.choices.map((choice) => String(choice.value)) : undefined;
  switch (field.type) {
    case 'string': {
      if (typeof value !== 'string') return 'Must be text';
      if (allowed && !allowed.includes(value)) return `Must be one of: ${allowed.join(', ')}`;
      if (typeof property.minLength === 'number' && value.length < property.minLength)
        return `Must be at least ${property.minLength} characters`;
      if (typeof property.maxLength === 'number' && value.length > property.maxLength)
        return `Must be at most ${property.maxLength} characters`;
      if (typeof property.pattern === 'string' && !matches(property.pattern, value))
        return 'Does not have the expected form';
      return checkFormat(field.format, value);
    }
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'Must be a number';
      if (field.type === 'integer' && !Number.isInteger(value)) return 'Must be a whole number';
      if (field.minimum !== undefined && value < field.minimum) return `Must be at least ${field.minimum}`;
      if (field.maximum !== undefined && value > field.maximum) return `Must be at most ${field.maximum}`;
      return undefined;
    }
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'Must be true or false';
    case 'array': {
      if (!Array.isArray(value)) return 'Must be a list of choices';
      const choices = field.kind === 'multi-choice' ? field.choices.map((choice) => String(choice.value)) : undefined;
      const wrong = choices ? value.filter((item) => typeof item !== 'string' || !choices.includes(item)) : [];
      if (wrong.length > 0) return `Not a choice: ${wrong.map(String).join(', ')}`;
      if (typeof property.minItems === 'number' && value.length < property.minItems)
        return `Choose at least ${property.minItems}`;
      if (typeof property.maxItems === 'number' && value.length > property.maxItems)
        return `Choose at most ${property.maxItems}`;
      return undefined;
    }
    default:
      return `Unsupported field type ${JSON.stringify(property.type)}`;
  }
}

function matches(pattern: string, value: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(value);
  } catch {
    // A pattern JavaScript cannot read is the server's mistake, not the user's.
    return true;
  }
}

function checkFormat(format: unknown, value: string): string | undefined {
  switch (format) {
    case 'email':
      return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) ? undefined : 'Must be an email address';
    case 'uri':
      try {
        new URL(value);
        return undefined;
      } catch {
        return 'Must be a URL';
      }
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value))
        ? undefined
        : // No typed pattern: the date input the person answers in shows their own format.
          'Must be a valid date';
    case 'date-time':
      return !Number.isNaN(Date.parse(value)) && /T/.test(value) ? undefined : 'Must be a date and time';
    default:
      return undefined;
  }
}
