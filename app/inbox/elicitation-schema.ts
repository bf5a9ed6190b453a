/**
 * Checks elicitation content against its `requestedSchema` (spec 2025-11-25: a flat object of
 * primitive properties: string with length, format and enum; number and integer with bounds;
 * boolean; and arrays of enum values for multi-select).
 *
 * Returns one message per field that is wrong, keyed by field name, so a form can show each
 * next to its input. An empty object means the content is valid.
 */
export function validateElicitationContent(schema: unknown, content: unknown): Record<string, string> {
  const errors: Record<string, string> = {};
  if (typeof content !== 'object' || content === null || Array.isArray(content)) {
    return { '': 'Content must be an object of field values' };
  }
  const values = content as Record<string, unknown>;
  const properties = ((schema as { properties?: Record<string, unknown> })?.properties ?? {}) as Record<
    string,
    Record<string, unknown>
  >;
  const required = new Set(((schema as { required?: unknown })?.required as string[] | undefined) ?? []);
  for (const name of Object.keys(values)) {
    if (!(name in properties)) errors[name] = 'Not a field of this form';
  }
  for (const [name, property] of Object.entries(properties)) {
    const value = values[name];
    if (value === undefined || value === null || value === '') {
      if (required.has(name)) errors[name] = 'Required';
      continue;
    }
    const problem = checkValue(property, value);
    if (problem) errors[name] = problem;
  }
  return errors;
}

function checkValue(property: Record<string, unknown>, value: unknown): string | undefined {
  const allowed = enumValues(property);
  switch (property.type) {
    case 'string': {
      if (typeof value !== 'string') return 'Must be text';
      if (allowed && !allowed.includes(value)) return `Must be one of: ${allowed.join(', ')}`;
      if (typeof property.minLength === 'number' && value.length < property.minLength)
        return `Must be at least ${property.minLength} characters`;
      if (typeof property.maxLength === 'number' && value.length > property.maxLength)
        return `Must be at most ${property.maxLength} characters`;
      if (typeof property.pattern === 'string' && !matches(property.pattern, value))
        return 'Does not have the expected form';
      return checkFormat(property.format, value);
    }
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'Must be a number';
      if (property.type === 'integer' && !Number.isInteger(value)) return 'Must be a whole number';
      if (typeof property.minimum === 'number' && value < property.minimum)
        return `Must be at least ${property.minimum}`;
      if (typeof property.maximum === 'number' && value > property.maximum)
        return `Must be at most ${property.maximum}`;
      return undefined;
    }
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'Must be true or false';
    case 'array': {
      if (!Array.isArray(value)) return 'Must be a list of choices';
      const items = (property.items ?? {}) as Record<string, unknown>;
      const choices = enumValues(items);
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

/** The allowed values of a string or array-item schema: `enum`, or titled `oneOf`/`anyOf` consts. */
function enumValues(schema: Record<string, unknown>): string[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum.map(String);
  const options = (schema.oneOf ?? schema.anyOf) as Array<{ const?: unknown }> | undefined;
  if (Array.isArray(options)) return options.map((option) => String(option.const));
  return undefined;
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
        : 'Must be a date (YYYY-MM-DD)';
    case 'date-time':
      return !Number.isNaN(Date.parse(value)) && /T/.test(value) ? undefined : 'Must be a date and time';
    default:
      return undefined;
  }
}
