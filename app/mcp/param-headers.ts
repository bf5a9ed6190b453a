/**
 * Tool parameters mirrored into HTTP headers (MCP 2026-07-28, SEP-2243: `x-mcp-header`).
 *
 * A tool's input schema may mark a top-level property with `x-mcp-header: "<Name>"`; a client
 * calling it over Streamable HTTP then sends that argument as `Mcp-Param-<Name>` too, so that a
 * gateway can route on it without reading the body. A tool whose annotations are invalid must
 * not be used at all. No library reads these annotations; the rules are the spec's.
 */

/** The annotations of one tool: argument name → header name (without the `Mcp-Param-` prefix). */
export type ParamHeaders = Readonly<Record<string, string>>;

/** Header-name characters (RFC 9110 `tchar`): no space, colon, control or non-ASCII character. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** The JSON Schema types whose values can be a header: numbers are not (their text is not canonical). */
const PRIMITIVE_TYPES = new Set(['string', 'integer', 'boolean']);

/**
 * The `x-mcp-header` annotations of a tool's input schema, or why they make the tool unusable
 * (an empty or non-token name, a name used twice in any case, or an annotation on a property
 * that is not a string, integer or boolean).
 */
export function paramHeadersOf(
  inputSchema: unknown
): { ok: true; headers: ParamHeaders } | { ok: false; reason: string } {
  const properties = asObject(asObject(inputSchema).properties);
  const headers: Record<string, string> = {};
  const seen = new Map<string, string>();
  for (const [param, raw] of Object.entries(properties)) {
    const property = asObject(raw);
    if (!Object.hasOwn(property, 'x-mcp-header')) continue;
    const name = property['x-mcp-header'];
    if (typeof name !== 'string' || name.length === 0)
      return { ok: false, reason: `parameter "${param}" has an empty x-mcp-header` };
    if (!TOKEN.test(name))
      return { ok: false, reason: `parameter "${param}" has x-mcp-header "${name}", which is not a header name` };
    const type = property.type;
    if (typeof type !== 'string' || !PRIMITIVE_TYPES.has(type))
      return {
        ok: false,
        reason: `parameter "${param}" has x-mcp-header "${name}" but is of type ${JSON.stringify(type ?? 'unknown')} (string, integer or boolean only)`
      };
    const other = seen.get(name.toLowerCase());
    if (other !== undefined)
      return { ok: false, reason: `parameters "${other}" and "${param}" share the x-mcp-header "${name}"` };
    seen.set(name.toLowerCase(), param);
    headers[param] = name;
  }
  return { ok: true, headers };
}

/** The `Mcp-Param-*` headers of one call: a null or absent argument sends none. */
export function paramHeaderValues(
  annotations: ParamHeaders,
  args: Record<string, unknown>,
  encode: (value: string) => string
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [param, name] of Object.entries(annotations)) {
    const value = args[param];
    if (value === null || value === undefined) continue;
    const text =
      typeof value === 'string'
        ? encode(value)
        : typeof value === 'boolean' || typeof value === 'number'
          ? String(value)
          : undefined;
    if (text !== undefined) headers[`mcp-param-${name.toLowerCase()}`] = text;
  }
  return headers;
}

function asObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
