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
  /** Anything else (objects, arrays of free items, unions): only JSON text can say it. */
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
}

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

function readField(name: string, property: Schema, required: boolean): SchemaField {
  const type = schemaTypeOf(property);
  const choices = schemaChoicesOf(property);
  const itemChoices = type === 'array' && isObject(property.items) ? schemaChoicesOf(property.items) : undefined;
  const kind: SchemaFieldKind = choices
    ? 'choice'
    : itemChoices
      ? 'multi-choice'
      : type === 'string'
        ? 'text'
        : type === 'number' || type === 'integer' || type === 'boolean'
          ? type
          : 'other';
  return {
    name,
    label: typeof property.title === 'string' && property.title.trim() ? property.title : name,
    description: typeof property.description === 'string' && property.description ? property.description : undefined,
    required,
    kind,
    type,
    format: typeof property.format === 'string' ? property.format : undefined,
    choices: choices ?? itemChoices ?? [],
    minimum: typeof property.minimum === 'number' ? property.minimum : undefined,
    maximum: typeof property.maximum === 'number' ? property.maximum : undefined,
    default: property.default,
    hasDefault: 'default' in property
  };
}

/** Reads an object schema's properties, in the schema's order. Anything not an object reads as no fields. */
export function readSchemaForm(schema: unknown): SchemaForm {
  if (!isObject(schema)) return { fields: [], opaque: false };
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === 'string') : []
  );
  const fields = Object.entries(properties).map(([name, property]) =>
    readField(name, isObject(property) ? property : {}, required.has(name))
  );
  const open = schema.additionalProperties !== undefined && schema.additionalProperties !== false;
  const composite = ['anyOf', 'oneOf', 'allOf', '$ref', 'patternProperties'].some((key) => key in schema);
  return { fields, opaque: fields.length === 0 && (open || composite) };
}
