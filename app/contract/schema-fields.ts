/**
 * Reads the JSON Schema subset that forms are built from: an object's properties, each as one
 * field descriptor. One reader serves elicitation forms (`requestedSchema`, MCP 2025-11-25: a
 * flat object of strings, numbers, integers, booleans and multi-select arrays) and tool
 * argument forms (a tool's `inputSchema`); each form decides how to show what it reads.
 *
 * Plain data in, plain data out, no imports: the renderer bundles it, and the core may use it.
 * A general JSON Schema library (Ajv) validates; none of those describes fields for a form.
 */

/** An allowed value with its display title. */
export interface SchemaChoice {
  value: unknown;
  label: string;
}

/** What one property is, as a form sees it. */
export type SchemaFieldKind =
  /** `string` (with `format`), `number` or `integer`. */
  | 'text'
  | 'number'
  | 'integer'
  | 'boolean'
  /** One of listed values: `enum`, `const`, `oneOf`/`anyOf` of consts. */
  | 'choice'
  /** An array whose items are listed values. */
  | 'multi-choice'
  /** An object with declared properties: its own fields, in `fields`. */
  | 'object'
  /** An array of strings, numbers, booleans or objects with properties: one `item` per entry. */
  | 'list'
  /**
   * An object of named strings and nothing else (`additionalProperties: {type: string}`, no
   * properties), as environment variables or headers are: a list of name/value entries, whose
   * `item` is the entry (its `name` and `value` fields).
   */
  | 'map'
  /** Anything else (maps, tuples, unions, `$ref`, too deep): only JSON text can say it. */
  | 'other';

/** One property of an object schema, read for a form. */
export interface SchemaField {
  name: string;
  /** `title` when it says something, else the name. */
  label: string;
  description: string | undefined;
  required: boolean;
  kind: SchemaFieldKind;
  /** The declared type, ignoring `null` in a type list. */
  type: string | undefined;
  format: string | undefined;
  choices: SchemaChoice[];
  minimum: number | undefined;
  maximum: number | undefined;
  /** `default`, when the schema gives one. */
  default: unknown;
  hasDefault: boolean;
  /** An `object` field's own fields. */
  fields?: SchemaField[];
  /** What each entry of a `list` or `map` field is (its name and label are the list's). */
  item?: SchemaField;
  minItems?: number;
  maxItems?: number;
}

/**
 * How many objects and lists deep a form goes before a value is written as JSON: past this,
 * fieldsets in fieldsets are harder to follow than the JSON.
 */
export const MAX_FORM_DEPTH = 3;

/** An object schema read for a form. */
export interface SchemaForm {
  fields: SchemaField[];
  /**
   * The schema is not a plain object of properties (`anyOf` at the top, `$ref`, only
   * `additionalProperties`): a form can offer the whole value as JSON only.
   */
  opaque: boolean;
}

type Schema = Record<string, unknown>;

function isObject(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The property's type, ignoring `null` in a type list. */
export function schemaTypeOf(property: Schema): string | undefined {
  const type = property.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) {
    const types = type.filter((t) => t !== 'null');
    return types.length === 1 && typeof types[0] === 'string' ? types[0] : undefined;
  }
  return undefined;
}

/** Allowed values with labels: `oneOf`/`anyOf` consts, `enum` (with legacy `enumNames`), or `const`. */
export function schemaChoicesOf(property: Schema): SchemaChoice[] | undefined {
  const options = property.oneOf ?? property.anyOf;
  if (
    Array.isArray(options) &&
    options.length > 0 &&
    options.every((option) => isObject(option) && 'const' in option)
  ) {
    return (options as Schema[]).map((option) => ({
      value: option.const,
      label: typeof option.title === 'string' ? option.title : String(option.const)
    }));
  }
  if (Array.isArray(property.enum)) {
    const names = Array.isArray(property.enumNames) ? (property.enumNames as unknown[]) : [];
    return property.enum.map((value: unknown, index) => ({
      value,
      label: typeof names[index] === 'string' ? names[index] : typeof value === 'string' ? value : JSON.stringify(value)
    }));
  }
  if ('const' in property) return [{ value: property.const, label: String(property.const) }];
  return undefined;
}

/** An object schema a form can show as its fields: declared properties, not a map or a union. */
function hasPlainProperties(schema: Schema): boolean {
  const composite = ['anyOf', 'oneOf', 'allOf', '$ref', 'patternProperties'].some((key) => key in schema);
  return (
    schemaTypeOf(schema) === 'object' &&
    isObject(schema.properties) &&
    Object.keys(schema.properties).length > 0 &&
    !composite &&
    !isObject(schema.additionalProperties)
  );
}

/** A map of strings (see `map`): the schema of its values, or undefined when it is not one. */
function stringMapValues(schema: Schema): Schema | undefined {
  const values = schema.additionalProperties;
  const declared = isObject(schema.properties) && Object.keys(schema.properties).length > 0;
  const composite = ['anyOf', 'oneOf', 'allOf', '$ref', 'patternProperties'].some((key) => key in schema);
  return schemaTypeOf(schema) === 'object' &&
    !declared &&
    !composite &&
    isObject(values) &&
    schemaTypeOf(values) === 'string' &&
    !schemaChoicesOf(values)
    ? values
    : undefined;
}

/** What a field is: its choices, its type, and (for objects and lists within the depth) its parts. */
function readKind(
  property: Schema,
  type: string | undefined,
  depth: number
): Pick<SchemaField, 'kind' | 'choices' | 'fields' | 'item'> {
  const choices = schemaChoicesOf(property);
  if (choices) return { kind: 'choice', choices };
  // A tuple (`prefixItems`, or `items` as an array) has a schema for each place: no one entry form fits it.
  const items =
    type === 'array' && isObject(property.items) && !('prefixItems' in property) ? property.items : undefined;
  const itemChoices = items && schemaChoicesOf(items);
  if (itemChoices) return { kind: 'multi-choice', choices: itemChoices };
  if (type === 'string') return { kind: 'text', choices: [] };
  if (type === 'number' || type === 'integer' || type === 'boolean') return { kind: type, choices: [] };
  if (depth < MAX_FORM_DEPTH && hasPlainProperties(property))
    return { kind: 'object', choices: [], fields: readFields(property, depth + 1) };
  const mapValues = depth < MAX_FORM_DEPTH ? stringMapValues(property) : undefined;
  if (mapValues)
    return {
      kind: 'map',
      choices: [],
      item: {
        ...readField('', { type: 'object' }, true, depth + 1),
        kind: 'object',
        fields: [
          { ...readField('name', { type: 'string' }, true, depth + 1), label: 'Name' },
          { ...readField('value', mapValues, false, depth + 1), label: 'Value' }
        ]
      }
    };
  if (depth < MAX_FORM_DEPTH && items) {
    const item = readField('', items, true, depth + 1);
    if (['text', 'number', 'integer', 'boolean', 'object'].includes(item.kind))
      return { kind: 'list', choices: [], item };
  }
  return { kind: 'other', choices: [] };
}

function readField(name: string, property: Schema, required: boolean, depth: number): SchemaField {
  const type = schemaTypeOf(property);
  return {
    name,
    label: typeof property.title === 'string' && property.title.trim() ? property.title : name,
    description: typeof property.description === 'string' && property.description ? property.description : undefined,
    required,
    type,
    format: typeof property.format === 'string' ? property.format : undefined,
    minimum: typeof property.minimum === 'number' ? property.minimum : undefined,
    maximum: typeof property.maximum === 'number' ? property.maximum : undefined,
    default: property.default,
    hasDefault: 'default' in property,
    ...readKind(property, type, depth),
    ...(typeof property.minItems === 'number' && { minItems: property.minItems }),
    ...(typeof property.maxItems === 'number' && { maxItems: property.maxItems })
  };
}

/** An object schema's properties as fields, `depth` objects and lists deep. */
function readFields(schema: Schema, depth: number): SchemaField[] {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === 'string') : []
  );
  return Object.entries(properties).map(([name, property]) =>
    readField(name, isObject(property) ? property : {}, required.has(name), depth)
  );
}

/** Reads an object schema's properties, in the schema's order. Anything not an object reads as no fields. */
export function readSchemaForm(schema: unknown): SchemaForm {
  if (!isObject(schema)) return { fields: [], opaque: false };
  const fields = readFields(schema, 0);
  const open = schema.additionalProperties !== undefined && schema.additionalProperties !== false;
  const composite = ['anyOf', 'oneOf', 'allOf', '$ref', 'patternProperties'].some((key) => key in schema);
  return { fields, opaque: fields.length === 0 && (open || composite) };
}
